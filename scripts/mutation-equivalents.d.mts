// Types of mutation-equivalents.mjs, for its tests.
export interface Equivalent {
  file: string;
  mutator: string;
  code: string;
  replacement: string;
  reason: string;
  line?: number;
  /** Where the entry was read: the list file and its index. */
  source: string;
}

export interface Survivor {
  file: string;
  line: number;
  column: number;
  status: string;
  mutator: string;
  original: string;
  replacement: string;
}

interface ReportMutant {
  status: string;
  mutatorName: string;
  replacement?: string;
  location: { start: { line: number; column: number }; end: { line: number; column: number } };
}

export function loadEquivalents(listFiles: { name: string; text: string }[]): { entries: Equivalent[]; errors: string[] };

export function explainSurvivors(
  files: Record<string, { source: string; mutants: ReportMutant[] }>,
  entries: Equivalent[],
): { explained: (Survivor & { reason: string })[]; unexplained: Survivor[]; stale: Equivalent[] };
