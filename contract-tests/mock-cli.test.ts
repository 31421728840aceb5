/**
 * `npm run serve` and `npm start` as a developer types them: --help, a mistyped flag, a data file
 * (good and bad).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Finished, run, runServer, startServerProcess, tinyBuild } from './support/mock-process.ts';

const work = mkdtempSync(join(tmpdir(), 'circle-mock-cli-'));
const file = (name: string, content: unknown) => {
  const path = join(work, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
/** What the server itself printed on stderr (npm prints its own lines around it). */
const ownLines = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('npm '));
const expectOneLineFailure = (run: Finished, code: number, pattern: RegExp) => {
  expect(run.code, `${run.stdout}${run.stderr}`).toBe(code);
  const lines = ownLines(run.stderr);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/^\s+at /m);
};
const json = async (url: string, init?: RequestInit) => {
  const response = await fetch(url, init);
  return { status: response.status, body: response.status === 204 ? null : ((await response.json()) as unknown) };
};
const ACCOUNT = { id: 'fx', name: 'Fixture account', currency: 'CHF', balance: 10 };
/** Every option of the server, with its environment variable. */
const OPTIONS = [
  ['--port', 'PORT'],
  ['--host', 'HOST'],
  ['--delay', 'MOCK_DELAY_MS'],
  ['--dist', 'DIST_DIR'],
  ['--strict', 'MOCK_STRICT'],
  ['--data', 'MOCK_DATA'],
];

describe('npm run serve and npm start on the command line', () => {
  it('npm run serve -- --help lists every option with its variable and exits 0', { timeout: 60_000 }, async () => {
    const help = await run('npm', ['run', '--silent', 'serve', '--', '--help']);
    expect(help.code, help.stderr).toBe(0);
    for (const [flag, variable] of OPTIONS) {
      expect(help.stdout).toContain(flag);
      expect(help.stdout).toContain(variable);
    }
  });

  it('npm start -- with a mistyped flag stops at once, before building, with one line and exit 2', { timeout: 60_000 }, async () => {
    const start = await run('npm', ['start', '--', '--presist', 'db.json']);
    expectOneLineFailure(start, 2, /^start: unknown option '--presist' \(--help lists them\)$/);
    expect(start.stdout).not.toContain('vite');
    expectOneLineFailure(await runServer(['--port', 'eighty']), 2, /^serve: --port must be a port number/);
  });

  it('without a build, says to build first (exit 1)', async () => {
    expectOneLineFailure(await runServer(['--dist', work]), 1, /^serve: no build in .*: run 'npm run build' first/);
  });
});

describe('--data FILE (MOCK_DATA): fixtures', () => {
  it('serves the records of the file, keeps the seed of the collections it leaves out, and resets to the file', async () => {
    const fixtures = file('fixtures.json', { accounts: [ACCOUNT], notifications: [] });
    const server = await startServerProcess(['--data', fixtures]);
    try {
      expect(await json(`${server.url}/api/accounts`)).toEqual({ status: 200, body: [ACCOUNT] });
      expect(await json(`${server.url}/api/notifications`)).toEqual({ status: 200, body: [] });
      expect((await json(`${server.url}/api/symbols`)).body).toHaveLength(3);
      expect((await json(`${server.url}/api/accounts/fx`, { method: 'DELETE' })).status).toBe(204);
      expect((await json(`${server.url}/api/commands/reset`, { method: 'POST' })).status).toBe(204);
      expect(await json(`${server.url}/api/accounts`)).toEqual({ status: 200, body: [ACCOUNT] });
    } finally {
      await server.kill('SIGTERM');
    }
  });

  it('is read from MOCK_DATA too', async () => {
    const server = await startServerProcess([], { MOCK_DATA: file('env-fixtures.json', { symbols: [] }) });
    try {
      expect(await json(`${server.url}/api/symbols`)).toEqual({ status: 200, body: [] });
    } finally {
      await server.kill('SIGTERM');
    }
  });

  it('refuses a file with a record that breaks its schema: one line naming the file, the record and the schema path, exit 1', async () => {
    const bad = file('bad.json', { accounts: [ACCOUNT, { id: '2', name: 'Fund', currency: 'eur', balance: 2 }] });
    const refused = await runServer(['--data', bad, '--dist', tinyBuild()]);
    expectOneLineFailure(
      refused,
      1,
      /^serve: .*bad\.json: accounts\[1\] \(id '2'\): currency must match pattern "\^\[A-Z\]\{3\}\$" \(schema path #\/components\/schemas\/AccountInput\/properties\/currency\/pattern\)$/,
    );
    expect(refused.stdout).not.toContain('Circle is served');
    expectOneLineFailure(
      await runServer(['--data', join(work, 'missing.json'), '--dist', tinyBuild()]),
      1,
      /missing\.json: the data file cannot be read \(ENOENT\)$/,
    );
  });
});
