/**
 * The mock's own endpoints under /__mock/ (outside the API's base path): a reset back to the
 * initial data, the last exchanges, and the refusal of any request another site's page could send.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../mock-api/index.ts';
import { type RunningServer, startServer } from '../server/index.ts';
import { signInAs } from './support/sign-in.ts';

let server: RunningServer;
/** ada's Authorization: the admin, who may delete a symbol. */
let admin = '';
beforeAll(async () => {
  server = await startServer({ port: 0, delayMs: 0, distDir: null, journalSize: 3 });
  admin = (await signInAs(server.url, 'ada')).authorization;
});
afterAll(() => server?.close());

const api = (path: string, init?: RequestInit) => fetch(`${server.url}/api${path}`, init);
const requests = async (headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.url}/__mock/requests`, { headers });
  return { status: response.status, body: (await response.json()) as unknown };
};

/** A request with a Host header of our choosing, which fetch does not let us set. */
const withHost = (path: string, host: string, method = 'GET') =>
  new Promise<number>((done, fail) => {
    const { port } = new URL(server.url);
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers: { host } }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', fail);
    req.end();
  });

describe('POST /__mock/reset', () => {
  it('restores the initial data: the seed records, and no profile', async () => {
    expect((await api('/symbols/1', { method: 'DELETE', headers: { authorization: admin } })).status).toBe(204);
    const profile = { displayName: 'Ada', username: 'ada_l', email: 'ada@example.org' };
    const { authorization } = await signInAs(server.url, 'ada');
    expect(
      (
        await api('/user/profile', {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify(profile),
        })
      ).status,
    ).toBe(201);
    expect((await fetch(`${server.url}/__mock/reset`, { method: 'POST' })).status).toBe(204);
    expect(((await (await api('/symbols')).json()) as unknown[]).length).toBe(3);
    expect((await api('/user/profile/myprofile', { headers: { authorization } })).status).toBe(204);
  });

  it('answers other methods with 405 and Allow, and unknown endpoints with 404', async () => {
    const get = await fetch(`${server.url}/__mock/reset`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await fetch(`${server.url}/__mock/nothing`)).status).toBe(404);
  });
});

describe('GET /__mock/requests', () => {
  it('lists the last N API exchanges (N = --log-size), newest first: method, path, status, time, duration', async () => {
    await api('/accounts');
    await api('/accounts/9');
    await api('/symbols?code=MSFT');
    await api('/nowhere', { method: 'POST' });
    const { status, body } = await requests();
    expect(status).toBe(200);
    const list = body as Exchange[];
    expect(list.map(({ method, path, status: s }) => [method, path, s])).toEqual([
      ['POST', '/api/nowhere', 404],
      ['GET', '/api/symbols?code=MSFT', 200],
      ['GET', '/api/accounts/9', 404],
    ]);
    for (const exchange of list) {
      expect(Date.now() - Date.parse(exchange.time)).toBeLessThan(60_000);
      expect(exchange.duration).toBeGreaterThanOrEqual(0);
    }
    // Its own exchanges are not listed.
    expect(((await requests()).body as Exchange[])[0]?.path).toBe('/api/nowhere');
  });
});

describe('from another origin', () => {
  it('refuses with 403 a request a page of another site sends (Origin, Sec-Fetch-Site), and changes nothing', async () => {
    await api('/symbols/2', { method: 'DELETE', headers: { authorization: admin } });
    const cross = await fetch(`${server.url}/__mock/reset`, { method: 'POST', headers: { origin: 'http://evil.example' } });
    expect(cross.status).toBe(403);
    expect(await cross.json()).toMatchObject({ status: 403, error: 'Forbidden' });
    expect((await fetch(`${server.url}/__mock/reset`, { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    expect((await requests({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await requests({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await api('/symbols/2')).status).toBe(404);
  });

  it('refuses a host name another site could point at this machine (DNS rebinding)', async () => {
    // Refused by the server before the control endpoints see it, as every path is (421).
    expect(await withHost('/__mock/requests', 'evil.example:80')).toBe(421);
    expect(await withHost('/__mock/reset', 'evil.example:80', 'POST')).toBe(421);
    expect(await withHost('/__mock/requests', 'localhost')).toBe(200);
  });

  it("answers the mock's own origin, and a client that is no browser", async () => {
    expect((await requests({ origin: server.url, 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await fetch(`${server.url}/__mock/reset`, { method: 'POST' })).status).toBe(204);
  });
});
