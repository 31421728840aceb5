// @vitest-environment node
/**
 * `npm run serve -- [options]` in-process: what main() prints, the exit code it asks for, and the
 * server it leaves running until a signal stops it. contract-tests/mock-cli.test.ts runs the same
 * command line as a process.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { OPTIONS, usage } from './options.ts';
import { main } from './cli.ts';

/** process.exit() as a throw, so that main() stops where the process would. */
class Exit extends Error {
  readonly code: number | undefined;

  constructor(code: number | undefined) {
    super(`exit ${code}`);
    this.code = code;
  }
}

let work: string;
let dist: string;
let out: string[];
let err: string[];
let exit: MockInstance<typeof process.exit>;
const signals = new Map<string, (...args: unknown[]) => void>();
const originalOn = process.on.bind(process);

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'circle-serve-main-'));
  dist = join(work, 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Circle</title>');
  // The variables main() reads are the test's to give.
  for (const option of OPTIONS) vi.stubEnv(option.env, '');
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(args.map(String).join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(args.map(String).join(' ')));
  exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Exit(code === undefined || code === null ? undefined : Number(code));
  });
  signals.clear();
  vi.spyOn(process, 'on').mockImplementation(((event: string | symbol, listener: (...args: unknown[]) => void) => {
    if (event === 'SIGINT' || event === 'SIGTERM') signals.set(event, listener);
    else originalOn(event, listener);
    return process;
  }) as typeof process.on);
});

afterEach(async () => {
  // A server main() left running is stopped the way a signal stops it.
  const stop = signals.get('SIGTERM');
  if (stop) {
    exit.mockImplementation(() => undefined as never);
    stop();
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
  }
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  rmSync(work, { recursive: true, force: true });
});

const exitOf = async (argv: string[]): Promise<number | undefined> => {
  const error = await main(argv).then(
    () => new Error('main() returned'),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof Exit)) throw error;
  return error.code;
};

/** Stops the server main() started, as Ctrl+C does, and waits for its exit(0). */
const stopWith = async (signal: 'SIGINT' | 'SIGTERM') => {
  const stop = signals.get(signal);
  expect(stop, `no ${signal} handler`).toBeDefined();
  signals.clear();
  exit.mockImplementation(() => undefined as never);
  stop!();
  await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
};

describe('npm run serve: refusals', () => {
  it('--help prints the usage and exits 0', async () => {
    expect(await exitOf(['--port', '1', '--help'])).toBe(0);
    expect(out).toEqual([usage()]);
    expect(err).toEqual([]);
  });

  it('a mistyped flag is one line on stderr and exit 2', async () => {
    expect(await exitOf(['--presist', 'db.json'])).toBe(2);
    expect(err).toEqual(["serve: unknown option '--presist' (--help lists them)"]);
    expect(out).toEqual([]);
  });

  it('a failure that is no usage error is not passed off as one', async () => {
    // Not a string: parsing throws a TypeError of its own, which must surface as it is.
    await expect(main([42 as unknown as string])).rejects.toBeInstanceOf(TypeError);
    expect(exit).not.toHaveBeenCalled();
    expect(err).toEqual([]);
  });

  it('without a build, says to build first and exits 1', async () => {
    expect(await exitOf(['--dist', work])).toBe(1);
    expect(err).toEqual([`serve: no build in ${work}: run 'npm run build' first (or 'npm start', which builds)`]);
  });

  it('a data file that cannot be read is one line naming it, and exit 1', async () => {
    const missing = join(work, 'missing.json');
    expect(await exitOf(['--port', '0', '--dist', dist, '--data', missing])).toBe(1);
    expect(err).toEqual([`serve: ${missing}: the data file cannot be read (ENOENT)`]);
    expect(out).toEqual([]);
  });

  it('a port taken by another server is one line naming the address, and exit 1', async () => {
    const taken = createServer();
    await new Promise<void>((ready) => taken.listen(0, '127.0.0.1', ready));
    const { port } = taken.address() as AddressInfo;
    try {
      expect(await exitOf(['--port', String(port), '--dist', dist])).toBe(1);
      expect(err).toEqual([`serve: cannot listen on 127.0.0.1:${port} (EADDRINUSE)`]);
    } finally {
      await new Promise((closed) => taken.close(closed));
    }
  });

  it('a port the system refuses this user (below 1024, not root) is one line too, and exit 1', async () => {
    // Tests may run as root, where no port is refused: the listen fails as the system would say it.
    vi.spyOn(Server.prototype, 'listen').mockImplementation(function (this: Server) {
      process.nextTick(() => this.emit('error', Object.assign(new Error('listen EACCES: permission denied'), { code: 'EACCES' })));
      return this;
    });
    expect(await exitOf(['--port', '80', '--dist', dist])).toBe(1);
    expect(err).toEqual(['serve: cannot listen on 127.0.0.1:80 (EACCES)']);
  });

  it('an address of no interface of this machine is one line too, and exit 1', async () => {
    // 192.0.2.0/24 is reserved for documentation: no machine has it.
    expect(await exitOf(['--port', '0', '--host', '192.0.2.1', '--dist', dist])).toBe(1);
    expect(err).toEqual(['serve: cannot listen on 192.0.2.1:0 (EADDRNOTAVAIL)']);
  });

  it('any other failure to start is thrown as it is, not turned into a one-line refusal', async () => {
    const failed = await main(['--port', '0', '--host', 'no-such-host.invalid', '--dist', dist]).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(Exit);
    expect(['ENOTFOUND', 'EAI_AGAIN']).toContain((failed as NodeJS.ErrnoException).code);
    expect(err).toEqual([]);
  });
});

describe('npm run serve: run as a script', () => {
  // Loaded afresh in a hook, not in the test: a module graph evaluated inside a test would count every
  // module-level value of mock-api/, server/ and oidc/ as covered by this one test, which checks none of them.
  let started: unknown;
  let printed: string[] = [];
  beforeAll(async () => {
    const argv = vi
      .spyOn(process, 'argv', 'get')
      .mockReturnValue([process.execPath, fileURLToPath(new URL('./cli.ts', import.meta.url)), '--help']);
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' ')));
    const quit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Exit(code === undefined || code === null ? undefined : Number(code));
    });
    vi.resetModules();
    started = await import('./cli.ts').then(
      () => new Error('the script returned'),
      (thrown: unknown) => thrown,
    );
    for (const spy of [argv, log, quit]) spy.mockRestore();
  });
  afterAll(() => {
    printed = [];
  });

  it('reads the options after the script name', () => {
    expect(started).toEqual(new Exit(0));
    expect(printed).toEqual([usage()]);
  });
});

describe('npm run serve: running', () => {
  it('says where it serves and how to sign in, and stops at Ctrl+C with exit 0', async () => {
    await main(['--port', '0', '--delay', '0', '--dist', dist]);
    expect(exit).not.toHaveBeenCalled();
    const url = /^Circle is served on (http:\/\/127\.0\.0\.1:\d+) \(API under \1\/api\/\)$/.exec(out[0] ?? '')?.[1];
    expect(url, out[0]).toBeDefined();
    expect(out).toEqual([
      `Circle is served on ${url} (API under ${url}/api/)`,
      `Sign-in: ${url}/oidc (members ada, grace and linus; password circle)`,
    ]);
    expect(signals.get('SIGINT')).toBe(signals.get('SIGTERM'));
    expect((await fetch(`${url}/api/symbols`)).status).toBe(200);
    expect((await fetch(`${url}/`)).status).toBe(200);
    await stopWith('SIGINT');
    // Without strict mode there is no tally to print.
    expect(out).toHaveLength(2);
    await expect(fetch(`${url}/api/symbols`)).rejects.toThrow();
    expect(err).toEqual([]);
  });

  // Strict mode compiles the whole document as the server starts: more than the default five seconds on a busy machine.
  it('with every option: names the issuer, strict mode, the files, prints each violation and the tally at the end', {
    timeout: 30_000,
  }, async () => {
    const data = join(work, 'data.json');
    writeFileSync(data, JSON.stringify({ symbols: [] }));
    const persist = join(work, 'db.json');
    const scenario = join(work, 'scenario.json');
    writeFileSync(scenario, JSON.stringify({ listAccounts: { fault: 'invalid-json' } }));
    const issuer = 'https://id.example.org/realms/circle';
    await main([
      '--port',
      '0',
      '--delay',
      '0',
      '--dist',
      dist,
      '--strict',
      '--data',
      data,
      '--persist',
      persist,
      '--scenario',
      scenario,
      '--issuer',
      `${issuer}/`,
    ]);
    const url = /^Circle is served on (\S+) /.exec(out[0] ?? '')?.[1];
    expect(out).toEqual([
      `Circle is served on ${url} (API under ${url}/api/)`,
      `Sign-in: the API accepts access tokens of ${issuer}`,
      'Strict: every API exchange is checked against openapi.yaml; violations are printed.',
      `Data: ${data} (a reset goes back to it)`,
      `Persisted in ${persist}: every change is written before it is answered.`,
      `Scenario: ${scenario}`,
    ]);
    expect(JSON.parse(readFileSync(persist, 'utf8')).symbols).toEqual([]);
    expect(await (await fetch(`${url}/api/symbols`)).json()).toEqual([]);
    // The scenario's fault answers listAccounts with a body that is no JSON: strict mode says so at once.
    expect((await fetch(`${url}/api/accounts`)).status).toBe(200);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^Contract violation: listAccounts \(GET \/api\/accounts\) answered 200: /);
    await stopWith('SIGTERM');
    expect(out.at(-1)).toBe('contract: 2 exchanges checked, 1 violations');
  });
});
