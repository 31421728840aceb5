/** Prism's mock and validating proxy of openapi.yaml, as processes a test starts and stops. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { ROOT } from './mock-process.ts';
import { freePort } from './ports.ts';

const SPEC_FILE = resolve(ROOT, 'openapi.yaml');

/** Prism's CLI entry point, run with this Node so no shell or npx wrapper sits between us and it. */
function prismEntry(): string {
  const require = createRequire(import.meta.url);
  const pkgPath = require.resolve('@stoplight/prism-cli/package.json');
  const pkg = require(pkgPath) as { bin: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.prism;
  if (!bin) throw new Error('@stoplight/prism-cli declares no prism binary');
  return resolve(dirname(pkgPath), bin);
}

/** Every Prism this process started and has not stopped yet, killed when the process exits. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: SIGKILL cannot be ignored and needs no waiting.
  const killAll = () => {
    for (const c of running) c.kill('SIGKILL');
  };
  process.once('exit', killAll);
  // A signal ends the process without 'exit': kill the children, then let the signal do what it
  // would have done (re-raised only when no one else, e.g. the test runner, listens for it).
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

export interface PrismProcess {
  /** http://127.0.0.1:<port>, no trailing slash. */
  readonly url: string;
  readonly pid: number;
  /** Everything Prism printed so far (stdout and stderr, newest last, capped). */
  output(): string;
  /** Stops this Prism (SIGTERM, then SIGKILL after 3 s) and waits until it has exited. */
  stop(): Promise<void>;
}

export interface PrismOptions {
  /**
   * A path polled until Prism answers it. Any HTTP answer will do (even a violation: whether the
   * answers honour the contract is for the tests to say, not for the start-up), once Prism has
   * also printed that it listens on our port, so a stranger on a reused port cannot pass for it.
   */
  readyPath: string;
  readyWhen?: (status: number) => boolean;
  /**
   * Prism logs nothing (`-v silent`). Its console printer re-parses each log line with jsonrepair,
   * which turns some valid lines holding a logged request body into a list, and Prism then dies on
   * it: generated bodies must not take it down. Prism is then known by its own 404 for a path the
   * document lacks, since it no longer says it listens.
   */
  quiet?: boolean;
  /** Give up after this long; the error carries Prism's output. */
  timeoutMs?: number;
}

const MAX_OUTPUT = 64 * 1024;

async function launch(args: string[], port: number, options: PrismOptions): Promise<PrismProcess> {
  const { readyPath, readyWhen = () => true, timeoutMs = 30_000, quiet = false } = options;
  const child = spawn(
    process.execPath,
    [prismEntry(), ...args, ...(quiet ? ['-v', 'silent'] : []), '-h', '127.0.0.1', '-p', String(port)],
    {
      cwd: ROOT,
      env: { ...process.env, SCARF_ANALYTICS: 'false', NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  killOnExit(child);
  let log = '';
  const collect = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-MAX_OUTPUT);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  // Held in an object: TypeScript does not see assignments made in callbacks to a plain `let`.
  const state: { exited?: { code: number | null; signal: NodeJS.Signals | null } } = {};
  const exitPromise = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      state.exited = { code, signal };
      done();
    }),
  );

  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (state.exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exitPromise;
    clearTimeout(timer);
  };
  const handle: PrismProcess = { url, pid: child.pid ?? -1, output: () => log, stop };

  const deadline = Date.now() + timeoutMs;
  let lastProblem = 'no attempt yet';
  while (Date.now() < deadline) {
    if (state.exited) {
      const { code, signal } = state.exited;
      throw Object.assign(
        new Error(`prism ${args[0]} exited (code ${code}, signal ${signal}) before it was ready.\n--- prism output ---\n${log}`),
        {
          portInUse: /EADDRINUSE/.test(log),
        },
      );
    }
    try {
      const response = await fetch(url + readyPath, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      const listening = quiet ? await answersAsPrism(url) : log.includes(`Prism is listening on ${url}`);
      if (listening && readyWhen(response.status)) return handle;
      lastProblem = `GET ${readyPath} answered ${response.status}${listening ? '' : ', but Prism has not said it listens'}`;
    } catch (error) {
      lastProblem =
        error instanceof Error ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}` : String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(
    `prism ${args.join(' ')} was not ready on ${url}${readyPath} within ${timeoutMs} ms (last: ${lastProblem}).\n--- prism output ---\n${log}`,
  );
}

/** Whether `url` answers a path no document has with Prism's own problem. */
async function answersAsPrism(url: string): Promise<boolean> {
  const response = await fetch(`${url}/no-such-path-prism-identity`, { signal: AbortSignal.timeout(2000) });
  const body = await response.text();
  return response.status === 404 && body.includes('https://stoplight.io/prism/errors#NO_PATH_MATCHED_ERROR');
}

/** Starts Prism on a free port, retrying with another port if the chosen one was taken meanwhile. */
async function startPrism(args: string[], options: PrismOptions): Promise<PrismProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await launch(args, port, options);
    } catch (error) {
      if (attempt < 3 && (error as { portInUse?: boolean }).portInUse) continue;
      throw error;
    }
  }
}

/**
 * `prism mock openapi.yaml --errors`: answers every operation from the contract's examples. With
 * --errors a request or a generated response that breaks the contract is answered with an error;
 * `errors: false` starts it as `npm run prism` does, without.
 * Prism ignores `servers`, so the paths are answered at the root (`/symbols`, not `/api/symbols`).
 * `spec` serves another document (its `readyPath` then names one of its paths).
 */
export function startPrismMock({
  errors = true,
  spec = SPEC_FILE,
  ...options
}: Partial<PrismOptions> & { errors?: boolean; spec?: string } = {}): Promise<PrismProcess> {
  return startPrism(['mock', spec, ...(errors ? ['--errors'] : [])], { readyPath: '/symbols', ...options });
}

/**
 * `prism proxy openapi.yaml <upstream> --errors`: forwards each request to `upstream` + the request
 * path (Prism keeps the upstream's own path, e.g. `/api`), validating the request and the answer.
 * A request that breaks the contract is answered 422 and an answer that breaks it 500, both with
 * a problem body whose `type` is under https://stoplight.io/prism/errors.
 */
export function startPrismProxy(upstream: string, options: PrismOptions): Promise<PrismProcess> {
  return startPrism(['proxy', SPEC_FILE, upstream, '--errors'], options);
}
