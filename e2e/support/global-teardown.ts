import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './global-setup.ts';

/**
 * Where each worker leaves the tally of its strict mock server (see fixtures.ts): the API
 * exchanges judged against openapi.yaml and the violations found. Playwright clears
 * test-results/ before each run.
 */
export const EXCHANGES_DIR = resolve(ROOT, 'test-results/contract-exchanges');

export interface WorkerTally {
  checked: number;
  violations: number;
}

/** Prints how much of the app's own traffic was held to the contract during the run. */
export default function globalTeardown() {
  const files = existsSync(EXCHANGES_DIR) ? readdirSync(EXCHANGES_DIR).filter((f) => f.endsWith('.json')) : [];
  let checked = 0;
  let violations = 0;
  for (const file of files) {
    const tally = JSON.parse(readFileSync(resolve(EXCHANGES_DIR, file), 'utf8')) as WorkerTally;
    checked += tally.checked;
    violations += tally.violations;
  }
  const workers = `${files.length} worker${files.length === 1 ? '' : 's'}`;
  console.log(`contract: ${checked} exchanges checked, ${violations} violations (${workers})`);
}
