// @vitest-environment node
import { getResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContract } from '../contract.ts';
import { createMockBackend } from '../mock.ts';
import { loadSpecCached } from '../../openapi-kit/node.ts';
import notifications from '../data/notifications.json' with { type: 'json' };
import { rewriteAlias } from './aliases.ts';
import { error, serverPerTest } from '../test/server.test-support.ts';
import { bearerOf, testAuthenticate } from '../../testkit/index.ts';

/** ada, the admin (as the embedded provider has her). */
const ADMIN = bearerOf('ada');

const { api, call } = serverPerTest({ authenticate: testAuthenticate });
const notFound = (message: string) => error(404, 'Not Found', message);

describe('the legacy aliases', () => {
  it('rewrite a path at or below an alias to its collection, and leave any other path alone', () => {
    expect(rewriteAlias('notifications/own')).toBe('notifications');
    expect(rewriteAlias('notifications/own/3')).toBe('notifications/3');
    expect(rewriteAlias('datapower/serviceproxy/a/b')).toBe('serviceproxy/a/b');
    expect(rewriteAlias('nas/cluster')).toBe('cluster');
    expect(rewriteAlias('layer7/my.cnf/1')).toBe('mycnf/1');
    expect(rewriteAlias('notifications/owned')).toBe('notifications/owned');
    expect(rewriteAlias('x/notifications/own')).toBe('x/notifications/own');
    expect(rewriteAlias('notifications')).toBe('notifications');
  });

  it('GET /notifications/own is the notifications list, newest first, with its filters', async () => {
    const answer = await api('/notifications/own');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([notifications[2], notifications[1], notifications[0]]);
    expect((await api('/notifications/own?level=success')).body).toEqual([notifications[1]]);
  });

  it('answers a path below /notifications/own as the notification it names, for every method', async () => {
    const read = await api('/notifications/own/2');
    expect([read.status, read.body]).toEqual([200, notifications[1]]);
    const changed = { ...notifications[1], read: true };
    const put = await api('/notifications/own/2', { method: 'PUT', json: changed, headers: ADMIN });
    expect([put.status, put.body]).toEqual([200, changed]);
    expect((await api('/notifications/2')).body).toEqual(changed);
    const missing = await api('/notifications/own/9');
    expect([missing.status, missing.body]).toEqual([404, notFound("Record '9' not found in collection 'notifications'")]);
  });

  it('answer 404 naming the collection the three others stand for, which this backend does not hold', async () => {
    for (const [path, name] of [
      ['/datapower/serviceproxy', 'serviceproxy'],
      ['/nas/cluster', 'cluster'],
      ['/layer7/my.cnf', 'mycnf'],
      ['/nas/cluster/7', 'cluster'],
      ['/datapower/serviceproxy/a/b', 'serviceproxy'],
    ]) {
      const answer = await api(path!);
      expect([path, answer.status, answer.headers.get('content-type'), answer.body]).toEqual([
        path,
        404,
        'application/json',
        notFound(`Collection '${name}' not found`),
      ]);
    }
  });
});

describe('a path that is no route', () => {
  it('answers 404 naming the collection that does not exist', async () => {
    expect((await api('/nothing')).body).toEqual(notFound("Collection 'nothing' not found"));
    expect((await api('/nothing/1')).body).toEqual(notFound("Collection 'nothing' not found"));
    expect((await api('/foo%20bar')).body).toEqual(notFound("Collection 'foo bar' not found"));
    expect((await api('/user/things')).body).toEqual(notFound("Collection 'user' not found"));
    expect((await api('/other/profile/x')).body).toEqual(notFound("Collection 'other' not found"));
    expect((await api('/notifications/owned/1')).body).toEqual(notFound("No resource at 'notifications/owned/1'"));
  });

  it('takes a segment that is no valid %-encoding as it is', async () => {
    const answer = await api('/%E0%A4%A');
    expect([answer.status, answer.body]).toEqual([404, notFound("Collection '%E0%A4%A' not found")]);
  });

  it('takes such a segment as it is in the browser too, where no server escapes the URL first', async () => {
    const { handlers } = await createMockBackend({ contract: createContract(loadSpecCached()), delayMs: 0, anyOrigin: true });
    const response = await getResponse(handlers, new Request('http://localhost/api/%E0%A4%A/1'));
    expect([response?.status, await response?.json()]).toEqual([404, notFound("Collection '%E0%A4%A' not found")]);
  });

  it('answers 404 for a documented path repeated or nested below the API, not the resource it ends with', async () => {
    expect((await api('/symbols/api/symbols')).body).toEqual(notFound("No resource at 'symbols/api/symbols'"));
    expect((await api('/symbols/api/symbols/1')).body).toEqual(notFound("No resource at 'symbols/api/symbols/1'"));
    expect((await api('/x/api/accounts')).body).toEqual(notFound("Collection 'x' not found"));
    expect((await api('/api/user/profile/myprofile')).body).toEqual(notFound("Collection 'api' not found"));
    const control = await call('/x/__mock/requests');
    expect([control.status, control.body]).toEqual([404, notFound("No file at '/x/__mock/requests'")]);
  });

  it('answers the API on any scheme and host in Node, where the server only sees its own requests', async () => {
    const { handlers } = await createMockBackend({ contract: createContract(loadSpecCached()), delayMs: 0, anyOrigin: true });
    const status = async (url: string) => (await getResponse(handlers, new Request(url)))?.status;
    expect(await status('http://127.0.0.1:8080/api/symbols/1')).toBe(200);
    expect(await status('https://circle.example/api/symbols/1')).toBe(200);
    expect(await status('http://[::1]:9000/__mock/requests')).toBe(200);
    expect(await status('http://localhost/api/symbols/api/symbols/1')).toBe(404);
    expect(await status('http://localhost/elsewhere/api/symbols/1')).toBeUndefined();
    expect(await status('http://localhost/elsewhere/__mock/requests')).toBeUndefined();
  });

  it('answers 404 with the empty name for the API root', async () => {
    const answer = await api('/');
    expect([answer.status, answer.body]).toEqual([404, notFound("Collection '' not found")]);
  });

  it('answers 404 naming the path below a collection that has no resource there', async () => {
    const answer = await api('/symbols/1/extra');
    expect([answer.status, answer.body]).toEqual([404, notFound("No resource at 'symbols/1/extra'")]);
    expect((await api('/accounts/a%20b/c', { method: 'POST' })).body).toEqual(notFound("No resource at 'accounts/a b/c'"));
  });

  it('answers 404 naming the path below /user/profile that has no resource there', async () => {
    const answer = await api('/user/profile/p1/avatar/x');
    expect([answer.status, answer.body]).toEqual([404, notFound("No profile resource at 'p1/avatar/x'")]);
  });

  it('answers another method on a documented path with 405 and the methods it has', async () => {
    for (const [method, path, allow] of [
      ['PATCH', '/accounts/1', 'GET, PUT, DELETE'],
      ['DELETE', '/accounts', 'GET, POST'],
      ['GET', '/commands/reset', 'POST'],
    ]) {
      const answer = await api(path!, { method: method! });
      expect([method, path, answer.status, answer.headers.get('allow'), answer.body]).toEqual([
        method,
        path,
        405,
        allow,
        error(405, 'Method Not Allowed', 'Method not allowed'),
      ]);
    }
  });
});

describe('the handlers in the browser', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("answer the page's own origin only, the API and the control endpoints alike", async () => {
    vi.stubGlobal('location', new URL('http://localhost:4200/'));
    const { handlers } = await createMockBackend({ contract: createContract(loadSpecCached()), delayMs: 0 });
    const status = async (url: string) => (await getResponse(handlers, new Request(url)))?.status;
    expect(await status('http://localhost:4200/api/symbols/1')).toBe(200);
    expect(await status('http://localhost:4200/__mock/requests')).toBe(200);
    expect(await status('http://other.example/api/symbols/1')).toBeUndefined();
    expect(await status('http://other.example/__mock/requests')).toBeUndefined();
  });

  it('refuse every secured operation when no identity provider is given', async () => {
    const { handlers } = await createMockBackend({ contract: createContract(loadSpecCached()), delayMs: 0, anyOrigin: true });
    const response = await getResponse(handlers, new Request('http://localhost/api/user/profile/myprofile'));
    expect([response?.status, response?.headers.get('www-authenticate'), await response?.json()]).toEqual([
      401,
      'Bearer realm="circle"',
      error(401, 'Unauthorized', 'Sign in: this operation needs a bearer access token'),
    ]);
  });
});

describe('the handlers, as the module builds them when it loads', () => {
  // The prefix that matches any scheme and host is made when index.ts loads: a change to it is only
  // seen by a test that loads it. What it imports is loaded afresh here, outside the test, so that
  // the test evaluates index.ts alone and no other module's load counts as this test's (the identity
  // provider too, which each server start imports).
  let fresh: { db: typeof import('../db.ts'); journal: typeof import('../journal.ts') };
  beforeAll(async () => {
    vi.resetModules();
    fresh = { db: await import('../db.ts'), journal: await import('../journal.ts') };
    await Promise.all(
      [
        '../auth.ts',
        '../errors.ts',
        './aliases.ts',
        './collections.ts',
        './commands.ts',
        './control.ts',
        './gate.ts',
        './profile.ts',
        './route.ts',
        './scenarios.ts',
        '../../oidc/index.ts',
      ].map((path) => import(path)),
    );
  });

  it('answer the API and the control endpoints on any scheme and host in Node, and nothing outside them', async () => {
    const { createHandlers } = await import('./index.ts');
    const contract = createContract(loadSpecCached());
    const handlers = createHandlers({
      contract,
      db: await fresh.db.createDatabase(contract),
      journal: fresh.journal.createJournal(10),
      basePath: '/api',
      anyOrigin: true,
      delayMs: 0,
      scenario: {},
    });
    const status = async (url: string) => (await getResponse(handlers, new Request(url)))?.status;
    expect(await status('http://127.0.0.1:8080/api/symbols/1')).toBe(200);
    expect(await status('https://circle.example/api/symbols/1')).toBe(200);
    expect(await status('http://[::1]:9000/__mock/requests')).toBe(200);
    expect(await status('http://localhost/elsewhere/api/symbols/1')).toBeUndefined();
  });
});
