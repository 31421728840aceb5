// @vitest-environment node
/**
 * Who may call what: another site's page may change nothing, the shared collections' writes and
 * the commands need an admin, and the reads stay open. Through a running server (each test starts
 * from the seed), with the test stand-in for the provider's check.
 */
import { describe, expect, it } from 'vitest';
import { COLLECTION_NAMES, SEED } from '../db.ts';
import { foreignSite } from './gate.ts';
import { error, serverPerTest } from '../test/server.test-support.ts';
import { bearerOf, testAuthenticate } from '../../testkit/index.ts';

/** ada, the admin (as the embedded provider has her). */
const ADMIN = bearerOf('ada');

const server = serverPerTest({ authenticate: testAuthenticate });
const { api } = server;
const MEMBER = bearerOf('grace');
const symbol = { code: 'IBM', entity: 'IBM' };
const crossSiteRefusal = (why: string) =>
  error(403, 'Forbidden', `Refused: a request from another site (${why}) without a bearer token cannot change anything`);

/** Every collection holds exactly the seed's records: nothing was changed, not even a field. */
async function expectSeed() {
  for (const name of COLLECTION_NAMES) {
    const listed = (await api(`/${name}`, { headers: ADMIN })).body as Array<{ id: string }>;
    const byId = (rows: Array<{ id: string }>) => [...rows].sort((a, b) => a.id.localeCompare(b.id));
    expect([name, byId(listed)]).toEqual([name, byId(SEED.collections[name])]);
  }
}

/** Every write of the shared collections, and a command: [method, path, body]. */
const ADMIN_WRITES: Array<[string, string, unknown]> = [
  ['POST', '/accounts', { name: 'Trips', currency: 'EUR', balance: 1 }],
  ['PUT', '/accounts/1', { name: 'Trips', currency: 'EUR', balance: 1 }],
  ['DELETE', '/accounts/1', undefined],
  ['POST', '/notifications', { title: 'T', body: '', level: 'info', read: false, createdAt: '2026-01-01T00:00:00Z' }],
  ['PUT', '/notifications/1', { title: 'T', body: '', level: 'info', read: false, createdAt: '2026-01-01T00:00:00Z' }],
  ['DELETE', '/notifications/1', undefined],
  ['PUT', '/subscription/1', { endpoint: 'https://push.example/a', keys: { p256dh: 'k', auth: 'a' } }],
  ['POST', '/symbols', symbol],
  ['PUT', '/symbols/1', symbol],
  ['DELETE', '/symbols/1', undefined],
  ['POST', '/commands/reset', undefined],
];

describe('the roles', () => {
  it('a member is refused every write of the shared collections and every command (403), and nothing changes', async () => {
    for (const [method, path, json] of ADMIN_WRITES) {
      const answer = await api(path, { method, headers: MEMBER, ...(json === undefined ? {} : { json }) });
      expect([method, path, answer.status, answer.body]).toEqual([
        method,
        path,
        403,
        error(403, 'Forbidden', 'This operation needs the admin role'),
      ]);
    }
    await expectSeed();
  });

  it('an anonymous caller is asked to sign in (401 with its challenge) before anything else, even an id that does not exist', async () => {
    for (const [method, path, json] of [...ADMIN_WRITES, ['DELETE', '/symbols/999', undefined] as [string, string, unknown]]) {
      const answer = await api(path, { method, ...(json === undefined ? {} : { json }) });
      expect([method, path, answer.status, answer.headers.get('www-authenticate')]).toEqual([method, path, 401, 'Bearer realm="circle"']);
    }
  });

  it('an admin writes them', async () => {
    expect((await api('/symbols/1', { method: 'DELETE', headers: ADMIN })).status).toBe(204);
    expect((await api('/symbols', { method: 'POST', headers: ADMIN, json: symbol })).status).toBe(201);
    expect((await api('/commands/reset', { method: 'POST', headers: ADMIN })).status).toBe(204);
    expect(((await api('/symbols')).body as Array<{ code: string }>).map((s) => s.code)).toEqual(['MSFT', 'AAPL', 'GOOG']);
  });

  it('reads stay open to anyone but push subscriptions, and a device stores and removes its push subscription without signing in', async () => {
    for (const path of ['/accounts', '/accounts/1', '/notifications', '/notifications/own', '/symbols', '/symbols/2']) {
      expect([path, (await api(path)).status]).toEqual([path, 200]);
    }
    const stored = await api('/subscription', {
      method: 'POST',
      json: { endpoint: 'https://push.example/a', keys: { p256dh: 'k', auth: 'a' } },
    });
    expect(stored.status).toBe(201);
    const id = (stored.body as { id: string }).id;
    for (const path of ['/subscription', `/subscription/${id}`]) {
      expect([path, (await api(path)).status, (await api(path, { headers: MEMBER })).status]).toEqual([path, 401, 403]);
    }
    const key = stored.headers.get('subscription-key')!;
    expect((await api(`/subscription/${id}`, { method: 'DELETE', headers: { 'subscription-key': key } })).status).toBe(204);
  });
});

describe("another site's page", () => {
  it('may change nothing without a token: Origin of another host, or Sec-Fetch-Site cross-site or same-site, answers 403', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ origin: 'http://evil.example' }, 'Origin http://evil.example'],
      [{ origin: 'null' }, 'Origin null'],
      [{ 'sec-fetch-site': 'cross-site' }, 'Sec-Fetch-Site cross-site'],
      [{ 'sec-fetch-site': 'same-site', origin: server.url }, 'Sec-Fetch-Site same-site'],
    ];
    for (const [headers, why] of cases) {
      for (const [method, path] of [
        ['POST', '/commands/reset'],
        ['POST', '/subscription'],
        ['DELETE', '/subscription/1'],
        ['DELETE', '/symbols/1'],
        ['POST', '/user/profile'],
        ['PATCH', '/user/profile/p-1'],
        ['DELETE', '/user/profile/p-1'],
      ]) {
        const answer = await api(path!, { method, headers, ...(method === 'DELETE' ? {} : { json: {} }) });
        expect([method, path, why, answer.status, answer.body]).toEqual([method, path, why, 403, crossSiteRefusal(why)]);
      }
    }
    await expectSeed();
  });

  it('is not what a same-origin page, a tool (no Origin) or a request with a token is taken for', async () => {
    const body = { endpoint: 'https://push.example/a', keys: { p256dh: 'k', auth: 'a' } };
    const allowed: Array<Record<string, string>> = [
      { origin: server.url, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of allowed) {
      expect((await api('/subscription', { method: 'POST', headers, json: body })).status).toBe(201);
    }
    // A page of another site cannot attach a token: a request that carries one is judged by it.
    const withToken = await api('/symbols/1', { method: 'DELETE', headers: { ...ADMIN, origin: 'http://evil.example' } });
    expect(withToken.status).toBe(204);
    // Reads are no change: another site may send them (without CORS headers its page cannot read the answer).
    expect((await api('/symbols', { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });

  it('is not taken for a request with a token unless it carries a well-formed bearer token', async () => {
    for (const authorization of ['Basic YWRhOmNpcmNsZQ==', 'Bearer', 'Bearer two words', 'Bearer <script>', 'admin']) {
      const answer = await api('/subscription', {
        method: 'POST',
        headers: { authorization, origin: 'http://evil.example' },
        json: { endpoint: 'https://push.example/a', keys: { p256dh: 'k', auth: 'a' } },
      });
      expect([authorization, answer.status, answer.body]).toEqual([authorization, 403, crossSiteRefusal('Origin http://evil.example')]);
    }
  });

  it('an operation that documents no 403 answers as it would (a PATCH of a collection item is 405 whoever sends it)', async () => {
    const answer = await api('/symbols/1', { method: 'PATCH', headers: { 'sec-fetch-site': 'cross-site' }, json: {} });
    expect(answer.status).toBe(405);
  });
});

describe('foreignSite', () => {
  const request = (headers: Record<string, string>) => new Request('http://127.0.0.1:8080/api/symbols', { headers });
  it('compares the Origin host with the request host, not the scheme (a TLS proxy in front)', () => {
    expect(foreignSite(request({ origin: 'https://127.0.0.1:8080' }))).toBeNull();
    expect(foreignSite(request({ origin: 'http://127.0.0.1:8081' }))).toBe('Origin http://127.0.0.1:8081');
    expect(foreignSite(request({ origin: 'not a url' }))).toBe('Origin not a url');
    expect(foreignSite(request({ 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8080' }))).toBeNull();
    expect(foreignSite(request({}))).toBeNull();
  });
});
