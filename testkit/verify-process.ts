/**
 * `npm run verify` as its own process, the way the npm script starts it: Node runs the TypeScript
 * itself, through the same runner as the mock's command line (./mock-process.ts). The Node that runs
 * the suite runs verify too, so each supported LTS line checks it.
 */
import { type Finished, run } from './mock-process.ts';

const CLI = 'verify/cli.ts';

export interface VerifyProcessOptions {
  /** Options for Node before the script (e.g. `--import` a module that breaks something). */
  nodeArgs?: string[];
  /** Killed with SIGKILL after this long. */
  timeoutMs?: number;
}

export async function runVerifyProcess(
  args: string[],
  { nodeArgs = [], timeoutMs = 230_000 }: VerifyProcessOptions = {},
): Promise<Finished & { ms: number }> {
  const started = Date.now();
  const end = await run(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', ...nodeArgs, CLI, ...args],
    { MOCK_DELAY_MS: '0' },
    timeoutMs,
  );
  return { ...end, ms: Date.now() - started };
}
