/**
 * `npm run verify` as its own process, the way the npm script starts it: Node runs the TypeScript
 * itself (type stripping), here with a compile cache, so that a run's start costs a fraction of a
 * second. The Node that runs the suite runs verify too, so each supported LTS line checks it.
 */
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = 'contract-tests/verify/cli.ts';
const COMPILE_CACHE = join(tmpdir(), 'circle-verify-compile-cache');

export interface VerifyProcessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
  ms: number;
}

export interface VerifyProcessOptions {
  /** Options for Node before the script (e.g. `--import` a module that breaks something). */
  nodeArgs?: string[];
  env?: Record<string, string>;
  /** Killed with SIGKILL after this long. */
  timeoutMs?: number;
}

export function runVerifyProcess(
  args: string[],
  { nodeArgs = [], env = {}, timeoutMs = 230_000 }: VerifyProcessOptions = {},
): Promise<VerifyProcessRun> {
  const started = Date.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...nodeArgs, CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, MOCK_DELAY_MS: '0', NODE_COMPILE_CACHE: COMPILE_CACHE, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run = { stdout: '', stderr: '', output: '' };
    child.stdout.on('data', (chunk: Buffer) => {
      run.stdout += chunk.toString();
      run.output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      run.stderr += chunk.toString();
      run.output += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, ...run, ms: Date.now() - started });
    });
  });
}
