// @vitest-environment node
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from '../server/index.ts';
import { parseTokenArgs, runTokenCommand, USAGE } from './token-cli.ts';

const DEFAULTS = { user: 'ada', password: 'circle', baseUrl: 'http://127.0.0.1:8080', json: false };

describe('npm run token: its options', () => {
  it('signs ada in with the demo password at a local npm start, printing the access token only, by default', () => {
    expect(parseTokenArgs([])).toEqual(DEFAULTS);
  });

  it('takes a member, a password, a base URL and --json, in any order', () => {
    expect(parseTokenArgs(['--user', 'grace'])).toEqual({ ...DEFAULTS, user: 'grace' });
    expect(parseTokenArgs(['--password', 'secret'])).toEqual({ ...DEFAULTS, password: 'secret' });
    expect(parseTokenArgs(['--base-url', 'http://localhost:5173'])).toEqual({ ...DEFAULTS, baseUrl: 'http://localhost:5173' });
    expect(parseTokenArgs(['--json'])).toEqual({ ...DEFAULTS, json: true });
    expect(parseTokenArgs(['--json', '--base-url', 'http://h:1', '--user', 'linus', '--password', 'p'])).toEqual({
      user: 'linus',
      password: 'p',
      baseUrl: 'http://h:1',
      json: true,
    });
  });

  it('--help or -h asks for the usage, wherever it stands', () => {
    expect(parseTokenArgs(['--help'])).toBeNull();
    expect(parseTokenArgs(['-h'])).toBeNull();
    expect(parseTokenArgs(['--user', 'grace', '-h'])).toBeNull();
    expect(parseTokenArgs(['--json', '--help', '--bogus'])).toBeNull();
  });

  it('says which option lacks its value, and which option it does not know', () => {
    for (const option of ['--user', '--password', '--base-url']) {
      expect(() => parseTokenArgs([option]), option).toThrow(`${option} needs a value`);
    }
    expect(() => parseTokenArgs(['--json', '--user'])).toThrow('--user needs a value');
    expect(() => parseTokenArgs(['--user', 'ada', '--verbose'])).toThrow("unknown option '--verbose' (--help lists them)");
    expect(() => parseTokenArgs(['grace'])).toThrow("unknown option 'grace' (--help lists them)");
  });
});

describe('npm run token: what it prints', () => {
  let server: RunningServer | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await server?.close();
    server = undefined;
  });

  /** Runs the command, collecting what it prints on stdout and stderr. */
  async function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void err.push(String(line)));
    const code = await runTokenCommand(argv);
    return { code, out, err };
  }

  it('--help prints the usage and succeeds', async () => {
    expect(USAGE).toMatch(/^Usage: npm run token -- \[--user ada\|grace\|linus\] \[--password P\] \[--base-url URL\] \[--json\]\n/);
    expect(await run(['--help'])).toEqual({ code: 0, out: [USAGE], err: [] });
  });

  it("prints the member's access token alone, for $(npm run -s token)", async () => {
    server = await startServer({ port: 0, delayMs: 0, distDir: null });
    const { code, out, err } = await run(['--base-url', server.url, '--user', 'grace']);
    expect({ code, err, lines: out.length }).toEqual({ code: 0, err: [], lines: 1 });
    expect(out[0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(decodeJwt(out[0]!)).toMatchObject({ sub: 'grace', aud: `${server.url}/api` });
  });

  it('--json prints every token and its lifetime, indented', async () => {
    server = await startServer({ port: 0, delayMs: 0, distDir: null });
    const { code, out } = await run(['--json', '--base-url', `${server.url}/`]);
    expect(code).toBe(0);
    const tokens = JSON.parse(out[0]!) as Record<string, unknown>;
    expect(Object.keys(tokens).sort()).toEqual(['accessToken', 'authorization', 'cookies', 'expiresIn', 'idToken', 'refreshToken']);
    expect(tokens.expiresIn).toBe(300);
    expect(decodeJwt(String(tokens.accessToken)).sub).toBe('ada');
    expect(out[0]).toBe(JSON.stringify(tokens, null, 2));
  });

  it('a wrong password or a bad option fails with the reason on stderr, nothing on stdout', async () => {
    server = await startServer({ port: 0, delayMs: 0, distDir: null });
    expect(await run(['--base-url', server.url, '--password', 'wrong'])).toEqual({
      code: 1,
      out: [],
      err: ["token: The provider refused the credentials of 'ada'"],
    });
    expect(await run(['--base-url'])).toEqual({ code: 1, out: [], err: ['token: --base-url needs a value'] });
    expect(await run(['--jsn'])).toEqual({ code: 1, out: [], err: ["token: unknown option '--jsn' (--help lists them)"] });
  });

  it('a server that is not running: says which address cannot be reached', async () => {
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => done(port));
      });
    });
    expect(await run(['--base-url', `http://127.0.0.1:${port}`])).toEqual({
      code: 1,
      out: [],
      err: [`token: cannot reach Error: connect ECONNREFUSED 127.0.0.1:${port}`],
    });
  });

  it('run as a script, it reads the arguments after the script’s path and sets the exit code', async () => {
    const argv = process.argv;
    const out: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void out.push(String(line)));
    // The script's own process, with its own exit code, so that the test run's is left alone.
    vi.stubGlobal(
      'process',
      Object.assign(Object.create(process) as NodeJS.Process, {
        argv: [argv[0]!, fileURLToPath(new URL('./token-cli.ts', import.meta.url)), '--help'],
      }),
    );
    try {
      // Its last line runs only when the module is loaded as the script, so it is loaded anew here.
      vi.resetModules();
      await import('./token-cli.ts');
      expect(out).toEqual([USAGE]);
      expect(process.exitCode).toBe(0);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('loaded by another script, or with no script named, it runs nothing', async () => {
    const argv = process.argv;
    const said: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: unknown) => void said.push(String(line)));
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void said.push(String(line)));
    const elsewhere = fileURLToPath(new URL('./sign-in-flow.ts', import.meta.url));
    for (const args of [[argv[0]!, elsewhere, '--help'], [argv[0]!]]) {
      const own = Object.assign(Object.create(process) as NodeJS.Process, { argv: args, exitCode: undefined });
      vi.stubGlobal('process', own);
      try {
        vi.resetModules();
        await expect(import('./token-cli.ts'), args.join(' ')).resolves.toHaveProperty('runTokenCommand');
        expect(own.exitCode, args.join(' ')).toBeUndefined();
      } finally {
        vi.unstubAllGlobals();
      }
    }
    expect(said).toEqual([]);
  });

  it('a base URL that is no URL: says so', async () => {
    const { code, err } = await run(['--base-url', 'nowhere']);
    expect(code).toBe(1);
    expect(err).toEqual(['token: cannot reach TypeError: Invalid URL']);
  });
});
