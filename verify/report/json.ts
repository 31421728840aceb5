/** The results as JSON, for other tools: the same data the console and HTML reports show. */
import type { RunResults } from '../results.ts';

export function jsonReport(results: RunResults): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}
