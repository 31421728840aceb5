/** What a bench run measured, part by part: bench/bench.ts fills it, bench/report.ts reports it. */
import type { LighthouseRun } from '../lighthouse/index.ts';
import type { BundleFigures } from '../testkit/index.ts';
import type { FloorPage } from './floor.ts';
import type { LongTask, LongTasks } from './long-tasks.ts';
import type { VerifyTiming } from './verify-timings.ts';

export interface FirstLoad {
  requests: number;
  jsCssTransferred: number;
  jsCssRequests: number;
  /** Every JS and CSS file fetched once the page is idle (the prefetch of other screens included), gzip. */
  idleJsCssGzip: number;
  idleJsCssFiles: number;
  /** Those files with their gzip bytes, largest first: what a growth is made of. */
  idleFiles: { file: string; gzip: number }[];
}

export interface LoadResult {
  target: string;
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  heapGrowthMb?: number;
}

/** One server's figures on one request: what `load` measures, named by server and request. */
export type ThroughputResult = Omit<LoadResult, 'target' | 'heapGrowthMb'> & { server: string; request: string };

export interface RouteLighthouse {
  hydrated: boolean;
  runs: number;
  median: LighthouseRun;
  /** The median over the runs of each run's largest paint less its first paint (simulated). */
  lcpAfterFcp: number;
  /** The same as the page painted them in Lighthouse's trace, before any simulation. */
  paintedLcpAfterFcp: number;
}

/** The machine's floor (bench/floor.ts), measured in the same run as the routes. */
export interface Floor {
  lighthouse: Partial<Record<FloorPage, RouteLighthouse>>;
  longTasks: LongTasks | null;
}

export interface RouteLongTasks extends LongTasks {
  /** Tasks over 50 ms other than the evaluation of React's module graph. */
  others: LongTask[];
  /** That evaluation's task, when it was over 50 ms. */
  reactEvaluation: LongTask | null;
}

export interface Results {
  at: string;
  node: string;
  bundle: BundleFigures | null;
  firstLoad?: FirstLoad;
  lighthouse?: Record<string, RouteLighthouse>;
  longTasks?: RouteLongTasks[];
  floor?: Floor;
  warm?: { fcp: number; dcl: number; runs: number };
  load?: LoadResult[];
  mockThroughput?: ThroughputResult[];
  verify?: VerifyTiming[];
  testTimes?: { results: { suite: string; seconds: number; ok: boolean }[]; total: number; at: string } | null;
}
