/**
 * The mock server (server/cli.ts) as its own process, as `npm run serve` runs it: for its
 * command line, its exit codes and what survives a kill. Node runs the TypeScript itself (type
 * stripping) with a compile cache, so that a start costs a fraction of a second rather than tsx's
 * seconds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
const SERVER = join(ROOT, 'server/cli.ts');
// Node strips the types itself: what the server imports keeps to erasable syntax (no parameter
// properties, enums or namespaces), which the Node 26 run of the suite checks.
const NODE_ARGS = ['--disable-warning=ExperimentalWarning'];
const COMPILE_CACHE = join(tmpdir(), 'circle-mock-compile-cache');

/** A build for the server to serve: only the shell it checks for. */
export function tinyBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'circle-mock-dist-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Circle</title>');
  mkdirSync(join(dir, 'assets'));
  return dir;
}

const environment = (env: Record<string, string>) => ({
  ...process.env,
  NODE_COMPILE_CACHE: COMPILE_CACHE,
  // The variables the server reads are the test's to give.
  PORT: '',
  HOST: '',
  MOCK_DELAY_MS: '',
  DIST_DIR: '',
  MOCK_STRICT: '',
  MOCK_DATA: '',
  MOCK_PERSIST: '',
  MOCK_SCENARIO: '',
  MOCK_LOG_SIZE: '',
  ...env,
});

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess): { output: { stdout: string; stderr: string }; done: Promise<Finished> } {
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString('utf8');
  });
  const done = new Promise<Finished>((settle) => child.once('exit', (code, signal) => settle({ code, signal, ...output })));
  return { output, done };
}

/** Runs a command to its end (the server with --help, a bad option or a bad file). */
export function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Finished> {
  const child = spawn(command, args, { cwd: ROOT, env: environment(env), stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return collect(child).done.finally(() => clearTimeout(timer));
}

/** The server run by Node directly, to its end. */
export const runServer = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [...NODE_ARGS, SERVER, ...args], env);

export interface MockProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  pid: number;
  output(): { stdout: string; stderr: string };
  /** Sends a signal and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<Finished>;
}

/** Starts the server (port 0, no delay, a tiny build unless the args say otherwise) and waits until it listens. */
export async function startServerProcess(args: string[], env: Record<string, string> = {}): Promise<MockProcess> {
  const child = spawn(process.execPath, [...NODE_ARGS, SERVER, '--port', '0', '--delay', '0', ...args], {
    cwd: ROOT,
    env: environment({ DIST_DIR: env.DIST_DIR ?? tinyBuild(), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, done } = collect(child);
  const url = await new Promise<string>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`the server did not start within 30 s:\n${output.stdout}${output.stderr}`)), 30_000);
    const look = () => {
      const found = /Circle is served on (http:\/\/[\d.]+:\d+)/.exec(output.stdout);
      if (found) {
        clearTimeout(timer);
        child.stdout?.off('data', look);
        ready(found[1]!);
      }
    };
    child.stdout?.on('data', look);
    void done.then((end) => {
      clearTimeout(timer);
      fail(new Error(`the server exited (code ${end.code}, ${end.signal}) before it listened:\n${end.stdout}${end.stderr}`));
    });
  });
  return {
    url,
    pid: child.pid!,
    output: () => ({ ...output }),
    kill(signal) {
      child.kill(signal);
      return done;
    },
  };
}
