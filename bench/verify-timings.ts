/**
 * How long `npm run verify` takes to judge a server: against the embedded mock (its own process,
 * no delay, three members signed in at its provider) and against Prism's mock, one resource at a
 * time and side by side (`--concurrency`). Each run gets a fresh server, so no run inherits
 * another's records. Wall time of the verify process, start-up included: what a CI step waits.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { signInAs, startServerProcess, tinyBuild } from '../testkit/index.ts';
import { startPrism } from './prism.ts';
import { track } from './shutdown.ts';

const ROOT = resolve(import.meta.dirname, '..');

export interface VerifyTiming {
  target: 'embedded mock' | "Prism's mock";
  concurrency: number;
  seconds: number;
  /** verify's exit code: 0 conformant, 1 not (Prism's mock, which keeps no state, is not). */
  code: number | null;
}

/** verify's side-by-side runs are measured at this --concurrency, the goals held at it. */
export const VERIFY_CONCURRENCY = 4;

/** The goal of each target, in seconds, at the highest concurrency measured. */
export const VERIFY_GOALS: Record<VerifyTiming['target'], number> = { 'embedded mock': 3, "Prism's mock": 10 };

/** Runs verify to its end and times it; stopped with the bench if the bench is stopped. */
function timeVerify(args: string[]): Promise<{ seconds: number; code: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'verify/cli.ts', '--quiet', '--seed', '1', ...args], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  const forget = track(() => child.kill('SIGTERM'));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => {
      forget();
      done({ seconds: Math.round((performance.now() - started) / 100) / 10, code });
    });
  });
}

export async function measureVerify(concurrencies: readonly number[]): Promise<VerifyTiming[]> {
  const timings: VerifyTiming[] = [];
  const build = tinyBuild();
  for (const concurrency of concurrencies) {
    const server = await startServerProcess([], { DIST_DIR: build });
    const forget = track(() => server.kill('SIGTERM'));
    try {
      const [member, other, admin] = await Promise.all(['grace', 'linus', 'ada'].map((user) => signInAs(server.url, user)));
      const run = await timeVerify([
        '--base-url',
        `${server.url}/api`,
        '--header',
        `Authorization: ${member!.authorization}`,
        '--other-header',
        `Authorization: ${other!.authorization}`,
        '--admin-header',
        `Authorization: ${admin!.authorization}`,
        '--concurrency',
        String(concurrency),
      ]);
      timings.push({ target: 'embedded mock', concurrency, ...run });
    } finally {
      await server.kill('SIGTERM');
      forget();
    }
  }
  for (const concurrency of concurrencies) {
    const prism = await startPrism();
    try {
      // Prism checks that a token is there, not whose it is (docs/verify.md, "Against Prism's mock").
      const run = await timeVerify([
        '--base-url',
        prism.url,
        '--header',
        'Authorization: Bearer any',
        '--other-header',
        'Authorization: Bearer other',
        '--concurrency',
        String(concurrency),
      ]);
      timings.push({ target: "Prism's mock", concurrency, ...run });
    } finally {
      prism.stop();
    }
  }
  return timings;
}
