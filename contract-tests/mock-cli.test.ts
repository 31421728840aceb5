/**
 * `npm run serve` and `npm start` as a developer types them: --help, a mistyped flag, a data file
 * (good and bad), a persisted file across restarts (and a corrupted one), a bad scenario file.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '../openapi-kit/node.ts';
import { type Finished, run, runServer, startServerProcess, tinyBuild } from '../testkit/index.ts';
import { signInAs } from './support/sign-in.ts';

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
  ['--persist', 'MOCK_PERSIST'],
  ['--scenario', 'MOCK_SCENARIO'],
  ['--log-size', 'MOCK_LOG_SIZE'],
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
      // The admin's changes and command.
      const headers = { authorization: (await signInAs(server.url, 'ada')).authorization };
      expect((await json(`${server.url}/api/accounts/fx`, { method: 'DELETE', headers })).status).toBe(204);
      expect((await json(`${server.url}/api/commands/reset`, { method: 'POST', headers })).status).toBe(204);
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

describe('--persist FILE (MOCK_PERSIST)', () => {
  it('creates the file, keeps every change across a restart (the avatar too), and resets to the seed', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'circle-persist-')), 'db.json');
    const first = await startServerProcess(['--persist', path]);
    const png = Buffer.from(makePng());
    let profileId: string;
    try {
      expect(JSON.parse(readFileSync(path, 'utf8')).symbols).toHaveLength(3);
      // The members' e-mails and avatars: the file is readable by its owner only.
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const { authorization } = await signInAs(first.url, 'ada');
      expect((await json(`${first.url}/api/accounts/1`, { method: 'DELETE', headers: { authorization } })).status).toBe(204);
      const form = new FormData();
      form.set('displayName', 'Ada Lovelace');
      form.set('username', 'ada_l');
      form.set('email', 'ada@example.org');
      form.set('avatar', new Blob([png], { type: 'image/png' }), 'ada.png');
      const created = await json(`${first.url}/api/user/profile`, { method: 'POST', body: form, headers: { authorization } });
      expect(created.status).toBe(201);
      profileId = (created.body as { id: string }).id;
    } finally {
      await first.kill('SIGTERM');
    }
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles).toMatchObject([{ owner: 'ada', version: 1, profile: { id: profileId } }]);
    const second = await startServerProcess([], { MOCK_PERSIST: path });
    try {
      expect(((await json(`${second.url}/api/accounts`)).body as { id: string }[]).map((a) => a.id)).toEqual(['2', '3']);
      // The profile is still ada's: signed in again at the restarted server, she reads it as hers.
      const { authorization } = await signInAs(second.url, 'ada');
      const headers = { authorization };
      expect((await json(`${second.url}/api/user/profile/myprofile`, { headers })).body).toMatchObject({
        id: profileId,
        username: 'ada_l',
      });
      const avatar = await fetch(`${second.url}/api/user/profile/${profileId}/avatar`, { headers });
      expect(avatar.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await avatar.arrayBuffer())).toEqual(png);
      expect((await fetch(`${second.url}/api/commands/reset`, { method: 'POST', headers })).status).toBe(204);
      expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ profiles: [] });
      expect(JSON.parse(readFileSync(path, 'utf8')).accounts).toHaveLength(3);
    } finally {
      await second.kill('SIGTERM');
    }
  });

  it('refuses a corrupted file (exit 1, one line) and leaves it as it was, rather than starting afresh', async () => {
    const torn = file('torn.json', '{"accounts": [{"id": "1", "name": "Fe');
    expectOneLineFailure(await runServer(['--persist', torn, '--dist', tinyBuild()]), 1, /^serve: .*torn\.json: not valid JSON \(/);
    expect(readFileSync(torn, 'utf8')).toBe('{"accounts": [{"id": "1", "name": "Fe');
    const wrong = file('wrong.json', { symbols: [{ id: '1', code: 'lower', entity: 'x' }] });
    expectOneLineFailure(
      await runServer(['--persist', wrong, '--dist', tinyBuild()]),
      1,
      /wrong\.json: symbols\[0\] \(id '1'\): code must/,
    );
  });
});

describe('--scenario FILE (MOCK_SCENARIO)', () => {
  it('refuses a file it cannot carry out: one line naming the file and the rule, exit 1', async () => {
    const scenario = file('scenario.json', { listAccounts: { status: 503, rate: 1.5 } });
    expectOneLineFailure(
      await runServer(['--dist', tinyBuild()], { MOCK_SCENARIO: scenario }),
      1,
      /^serve: .*scenario\.json: listAccounts: rate must be a number above 0 and at most 1, not 1\.5$/,
    );
    expectOneLineFailure(
      await runServer(['--scenario', file('broken.json', '{'), '--dist', tinyBuild()]),
      1,
      /broken\.json: not valid JSON/,
    );
  });
});
