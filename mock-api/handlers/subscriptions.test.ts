// @vitest-environment node
/**
 * Push subscriptions are the devices': only an admin reads them, a device removes its own with the
 * key its create answered (or the member's token that stored it), and anonymous creates are
 * limited per client address.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '../rate.ts';
import { error, serverPerTest } from '../test/server.test-support.ts';
import { bearerOf, testAuthenticate } from '../../testkit/index.ts';

/** ada, the admin (as the embedded provider has her). */
const ADMIN = bearerOf('ada');

const server = serverPerTest({ authenticate: testAuthenticate, subscriptionCreates: { burst: 3, intervalMs: 60_000, now: () => 0 } });
const { api } = server;
const GRACE = bearerOf('grace');
const LINUS = bearerOf('linus');
const device = (n: number) => ({ endpoint: `https://push.example/device-${n}`, expirationTime: null, keys: { p256dh: 'k', auth: 'a' } });

const store = async (n: number, headers: Record<string, string> = {}) => {
  const answer = await api('/subscription', { method: 'POST', headers, json: device(n) });
  expect(answer.status).toBe(201);
  return { id: (answer.body as { id: string }).id, key: answer.headers.get('subscription-key')! };
};
const remove = (id: string, headers: Record<string, string>) => api(`/subscription/${id}`, { method: 'DELETE', headers });
const stored = async () => ((await api('/subscription', { headers: ADMIN })).body as Array<{ endpoint: string }>).map((s) => s.endpoint);

describe('push subscriptions', () => {
  it('are listed and read by an admin only: 401 without a token, 403 to a member', async () => {
    const { id } = await store(1);
    for (const path of ['/subscription', `/subscription/${id}`, '/subscription?endpoint=https%3A%2F%2Fpush.example%2Fdevice-1']) {
      expect([path, (await api(path)).status]).toEqual([path, 401]);
      expect([path, (await api(path, { headers: GRACE })).body]).toEqual([
        path,
        error(403, 'Forbidden', 'This operation needs the admin role'),
      ]);
    }
    expect(await stored()).toEqual(['https://push.example/device-1']);
    expect((await api(`/subscription/${id}`, { headers: ADMIN })).body).toEqual({ id, ...device(1) });
  });

  it('answer a key of 43 base64url characters on create, a new one each time', async () => {
    const first = await store(1);
    const second = await store(2);
    expect(first.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.key).not.toBe(second.key);
  });

  it("are removed with their own key only: another's key, none, or a member who did not store it gets 403 and nothing changes", async () => {
    const mine = await store(1);
    const theirs = await store(2);
    const refused = (id: string) => error(403, 'Forbidden', `Subscription '${id}' belongs to another device: send its Subscription-Key`);
    const attempts: Array<Record<string, string>> = [
      {},
      { 'subscription-key': theirs.key },
      GRACE,
      { ...GRACE, 'subscription-key': theirs.key },
    ];
    for (const headers of attempts) {
      expect([headers, (await remove(mine.id, headers)).body]).toEqual([headers, refused(mine.id)]);
    }
    expect(await stored()).toEqual(['https://push.example/device-1', 'https://push.example/device-2']);
    expect((await remove(mine.id, { 'subscription-key': mine.key })).status).toBe(204);
    expect(await stored()).toEqual(['https://push.example/device-2']);
    // The key removed its subscription once; it proves nothing for the next record under that id.
    expect((await remove(mine.id, { 'subscription-key': mine.key })).status).toBe(404);
  });

  it("stay their device's and member's after an admin replaces them", async () => {
    const graces = await store(1, GRACE);
    const device2 = await store(2);
    for (const { id } of [graces, device2]) {
      expect((await api(`/subscription/${id}`, { method: 'PUT', headers: ADMIN, json: device(9) })).status).toBe(200);
    }
    expect((await remove(graces.id, GRACE)).status).toBe(204);
    expect((await remove(device2.id, { 'subscription-key': device2.key })).status).toBe(204);
  });

  it('a key that is no key answers 400; a bad token 401', async () => {
    const { id } = await store(1);
    expect((await remove(id, { 'subscription-key': 'short' })).status).toBe(400);
    expect((await remove(id, { authorization: 'Basic x' })).status).toBe(401);
    expect(await stored()).toEqual(['https://push.example/device-1']);
  });

  it("stored with a member's token, are that member's to remove, and an admin removes any", async () => {
    const graces = await store(1, GRACE);
    const anonymous = await store(2);
    expect((await remove(graces.id, LINUS)).status).toBe(403);
    expect((await remove(graces.id, GRACE)).status).toBe(204);
    expect((await remove(anonymous.id, ADMIN)).status).toBe(204);
    expect(await stored()).toEqual([]);
  });

  it('without a token, are created at most `burst` at once per client, then 429 with Retry-After; a member is not limited', async () => {
    for (const n of [1, 2, 3]) await store(n);
    const refused = await api('/subscription', { method: 'POST', json: device(4) });
    expect([refused.status, refused.headers.get('retry-after'), refused.body]).toEqual([
      429,
      '60',
      error(429, 'Too Many Requests', 'Too many push subscriptions stored from this client: try again in 60 s'),
    ]);
    // A header claiming another client changes nothing: the address is the connection's.
    expect((await api('/subscription', { method: 'POST', headers: { 'x-circle-mock-client': 'elsewhere' }, json: device(4) })).status).toBe(
      429,
    );
    await store(4, GRACE);
    expect(await stored()).toHaveLength(4);
  });

  it('without a token, counts only the subscriptions stored: a create refused otherwise is given back', async () => {
    for (const n of [1, 2]) await store(n);
    // An id that exists: 409, which does not count.
    expect((await api('/subscription', { method: 'POST', json: { ...device(3), id: '1' } })).status).toBe(409);
    expect((await api('/subscription', { method: 'POST', json: device(3) })).status).toBe(201);
    expect((await api('/subscription', { method: 'POST', json: device(4) })).status).toBe(429);
  });
});

describe('after a reset', () => {
  const dir = mkdtempSync(join(tmpdir(), 'circle-subscriptions-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const data = join(dir, 'data.json');
  writeFileSync(data, JSON.stringify({ subscription: [{ id: '5', ...device(5) }] }));
  const { api: call } = serverPerTest({ authenticate: testAuthenticate, dataFile: data });

  it("a key proves nothing for the record the reset put back under its id (another device's)", async () => {
    expect((await call('/subscription/5', { method: 'DELETE', headers: ADMIN })).status).toBe(204);
    const created = await call('/subscription', { method: 'POST', json: { id: '5', ...device(1) } });
    expect(created.status).toBe(201);
    const key = created.headers.get('subscription-key')!;
    expect((await call('/commands/reset', { method: 'POST', headers: ADMIN })).status).toBe(204);
    expect((await call('/subscription/5', { method: 'DELETE', headers: { 'subscription-key': key } })).status).toBe(403);
    expect(((await call('/subscription/5', { headers: ADMIN })).body as { endpoint: string }).endpoint).toBe(device(5).endpoint);
  });
});

describe('createRateLimiter', () => {
  it('allows a burst, then one per interval, and says how many seconds to wait', () => {
    let now = 0;
    const limiter = createRateLimiter({ burst: 2, intervalMs: 10_000, now: () => now });
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 10]);
    expect(limiter.take('b')).toBe(0);
    now = 4_000;
    expect(limiter.take('a')).toBe(6);
    now = 10_000;
    expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 10]);
    now = 1_000_000;
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 10]);
  });

  it('takes back a refunded request, and forgets a client whose bucket is full again', () => {
    let now = 0;
    const limiter = createRateLimiter({ burst: 2, intervalMs: 10_000, now: () => now });
    expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 0]);
    limiter.refund('a');
    expect([limiter.take('a'), limiter.take('a')]).toEqual([0, 10]);
    limiter.refund('b');
    expect(limiter.size).toBe(1);
    now = 15_000;
    limiter.refund('a');
    expect(limiter.size).toBe(0);
    expect([limiter.take('a'), limiter.take('a'), limiter.take('a')]).toEqual([0, 0, 10]);
  });

  it('remembers at most maxClients, forgetting the one touched longest ago', () => {
    const limiter = createRateLimiter({ burst: 1, intervalMs: 10_000, maxClients: 2, now: () => 0 });
    expect([limiter.take('a'), limiter.take('b'), limiter.take('c')]).toEqual([0, 0, 0]);
    expect(limiter.size).toBe(2);
    expect([limiter.take('c'), limiter.take('b'), limiter.take('a')]).toEqual([10, 10, 0]);
  });
});
