import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import { OpenApiSpec } from '../../openapi-kit/index.ts';
import { startServer } from '../../server/index.ts';
import { signInAs } from '../../oidc/index.ts';
import { loadSpec } from '../../openapi-kit/node.ts';
import { freePort } from '../../testkit/index.ts';
import type { RunResults } from '../results.ts';
import { runVerifyProcess } from '../../testkit/index.ts';

const spec = new OpenApiSpec(loadSpec());
const dir = mkdtempSync(join(tmpdir(), 'verify-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs verify as `npm run verify` does; `nodeArgs` go to Node first (e.g. `--import` a module that breaks something). */
const verify = (args: string[], nodeArgs: string[] = []) => runVerifyProcess(args, { nodeArgs });

describe('npm run verify, end to end', () => {
  it('finds the embedded mock conformant (exit 0), one line per operation, and writes its reports', { timeout: 180_000 }, async () => {
    const files = { junit: join(dir, 'verify.xml'), json: join(dir, 'verify.json'), html: join(dir, 'verify.html') };
    const run = await verify(['--seed', '7', '--junit', files.junit, '--json', files.json, '--html', files.html]);
    console.log(`[verify-cli] npm run verify on the embedded mock: ${(run.ms / 1000).toFixed(1)} s`);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);

    const lines = run.stdout.split('\n');
    for (const op of spec.operations) {
      const line = lines.find((l) => new RegExp(`^(PASS|FAIL|SKIP)\\s+${op.id}\\s`).test(l));
      expect(line, op.id).toMatch(new RegExp(`^PASS\\s+${op.id}\\s+${op.method} ${op.path.replace(/[.{}]/g, '\\$&')}\\s+\\(.+\\)$`));
    }
    const summary = `verify: ${spec.operations.length} operations, ${spec.operations.length} passed, 0 failed, 0 not exercised, `;
    expect(lines.find((l) => l.startsWith('verify: ') && l.includes(' operations, '))).toMatch(
      new RegExp(`^${summary}\\d+ requests; \\d+ of \\d+ documented statuses answered, 18 of 18 links followed$`),
    );
    expect(run.stdout).toContain('Coverage (operation × documented status');

    const json = JSON.parse(readFileSync(files.json, 'utf8')) as RunResults;
    expect(json.summary).toMatchObject({ operations: spec.operations.length, failed: 0, notExercised: 0 });
    expect(json.seed).toBe(7);
    // Every documented success status is seen on the mock, the destructive command included.
    for (const o of json.operations)
      for (const s of o.documented.filter((d) => d.startsWith('2'))) expect(o.seen[s], `${o.operationId} ${s}`).toBeGreaterThan(0);

    const xml = readFileSync(files.junit, 'utf8');
    const doc = new new Window().DOMParser().parseFromString(xml, 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    // One test case per operation and check, and one per link (every one followed: none skipped).
    expect(doc.getElementsByTagName('testcase')).toHaveLength(spec.operations.length * 6 + spec.links.length);
    expect(doc.getElementsByTagName('failure')).toHaveLength(0);
    expect(json.links).toHaveLength(spec.links.length);
    for (const l of json.links) expect(l.followed, l.key).toBeGreaterThan(0);

    const html = readFileSync(files.html, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script|<link|src=/);
    for (const op of spec.operations) expect(html).toContain(op.id);
  });

  it("leaves a shared server as it found it: its records, the member's marks on them, its full collections, the member's profile; never resets it", {
    timeout: 180_000,
  }, async () => {
    const server = await startServer({ port: 0, delayMs: 0, distDir: null });
    const api = `${server.url}/api`;
    // verify acts as ada, who already has a profile, with grace as the other member.
    const [ada, grace] = [await signInAs(server.url, 'ada'), await signInAs(server.url, 'grace')];
    const send = async (method: string, path: string, body?: unknown) => {
      const init: RequestInit = { method, headers: { authorization: ada.authorization } };
      if (body !== undefined) init.body = JSON.stringify(body);
      if (body !== undefined) init.headers = { authorization: ada.authorization, 'content-type': 'application/json' };
      const response = await fetch(`${api}${path}`, init);
      return { status: response.status, text: await response.text() };
    };
    try {
      // Someone's data that a reset would wipe: an extra notification and the member's profile.
      expect(
        (
          await send('POST', '/notifications', {
            title: 'Keep me',
            body: '',
            level: 'info',
            read: false,
            createdAt: '2026-11-22T10:00:00Z',
          })
        ).status,
      ).toBe(201);
      expect((await send('POST', '/user/profile', { displayName: 'Ada', username: 'ada_l', email: 'ada@example.org' })).status).toBe(201);
      // The member's own marks, which verify's mark operations (one, and all at once) change on records
      // it did not create: one notification marked read by the member, one stored read marked unread,
      // the others as stored. They must come back as they were, with the unread count.
      expect((await send('PUT', '/notifications/1/read')).status).toBe(200);
      expect((await send('DELETE', '/notifications/3/read')).status).toBe(200);
      const snapshot = async () =>
        await Promise.all(
          ['/accounts', '/notifications', '/notifications/unread-count', '/subscription', '/symbols', '/user/profile/myprofile'].map((p) =>
            send('GET', p),
          ),
        );
      const before = await snapshot();
      const members = ['--header', `Authorization: ${ada.authorization}`, '--other-header', `Authorization: ${grace.authorization}`];
      const run = await verify(['--base-url', api, ...members, '--seed', '11', '--runs', '10', '--quiet']);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(await snapshot()).toEqual(before);
    } finally {
      await server.close();
    }
  });

  it('deletes what it made without credentials with the key the create answered: a member who is no admin leaves no subscription behind', {
    timeout: 120_000,
  }, async () => {
    const server = await startServer({ port: 0, delayMs: 0, distDir: null });
    const api = `${server.url}/api`;
    const [grace, linus, ada] = await Promise.all(['grace', 'linus', 'ada'].map((user) => signInAs(server.url, user)));
    // Only an admin lists them; verify stores some without credentials (its rate limit's creates among them).
    const subscriptions = async () => (await fetch(`${api}/subscription`, { headers: { authorization: ada!.authorization } })).text();
    try {
      const before = await subscriptions();
      const run = await verify([
        '--base-url',
        api,
        '--header',
        `Authorization: ${grace!.authorization}`,
        '--other-header',
        `Authorization: ${linus!.authorization}`,
        '--admin-header',
        `Authorization: ${ada!.authorization}`,
        '--seed',
        '3',
        '--runs',
        '2',
        '--quiet',
      ]);
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
      expect(await subscriptions()).toBe(before);
    } finally {
      await server.close();
    }
  });

  it('an error nothing awaits (a bug) ends the run with exit 2 and one line, no stack', { timeout: 60_000 }, async () => {
    // Any server will do: the run is under way when the error strikes.
    const server = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
      const bug = 'data:text/javascript,setTimeout(() => { throw new TypeError("a bug inside verify") }, 1500);';
      const run = await verify(['--base-url', url, '--quiet'], ['--import', bug]);
      expect(run.code, run.stderr).toBe(2);
      // The per-operation progress lines come first; the run ends with the one line, and no stack.
      expect(run.stderr.trimEnd().split('\n').at(-1)).toBe('verify: internal error: a bug inside verify');
      expect(run.stderr).not.toMatch(/^\s+at /m);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('an embedded mock that does not load is exit 2 and one line; a URL to check does not need it', { timeout: 120_000 }, async () => {
    const hook = join(dir, 'no-mock.mjs');
    writeFileSync(
      hook,
      `import { registerHooks } from 'node:module';\nregisterHooks({ resolve(s, c, next) { if (s.endsWith('/server/index.ts')) throw new Error('the mock does not load'); return next(s, c); } });\n`,
    );
    const without = await verify(['--quiet'], ['--import', hook]);
    expect(without.code, without.stderr).toBe(2);
    expect(without.stdout).toBe('');
    expect(without.stderr).toBe('verify: cannot start the embedded mock: the mock does not load\n');

    const server = await startServer({ port: 0, delayMs: 0, distDir: null });
    try {
      const { authorization } = await signInAs(server.url, 'ada');
      const run = await verify(
        ['--base-url', `${server.url}/api`, '--header', `Authorization: ${authorization}`, '--read-only', '--runs', '1', '--quiet'],
        ['--import', hook],
      );
      expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('stops at once with exit 2 and a one-line reason when nothing answers at the URL', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const run = await verify(['--base-url', `http://127.0.0.1:${port}/api`]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(new RegExp(`^verify: cannot reach http://127\\.0\\.0\\.1:${port}/api/\\S+: ECONNREFUSED.*\\n$`));
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});
