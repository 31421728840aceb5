// @vitest-environment node
import { getResponse, type HttpHandler } from 'msw';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createContract } from '../contract.ts';
import { createMockBackend, type MockBackend } from '../mock.ts';
import { loadSpecCached } from '../../openapi-kit/node.ts';
import { ANY_ORIGIN } from './index.ts';
import { error } from '../test/server.test-support.ts';

const contract = createContract(loadSpecCached());
let backend: MockBackend;
beforeEach(async () => {
  backend = await createMockBackend({ contract, delayMs: 0, anyOrigin: true, trustedHosts: ['mock.test'] });
});

/** The answer of the mock's handlers, as the browser's worker or the Node server gets it. */
async function answer(handlers: HttpHandler[], url: string, init?: RequestInit) {
  const response = await getResponse(handlers, new Request(url, init));
  if (!response) throw new Error(`No answer to ${url}`);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? null : (JSON.parse(text) as unknown) };
}
const call = (url: string, init?: RequestInit) => answer(backend.handlers, url, init);
const refusal = (why: string) => error(403, 'Forbidden', `The mock's control endpoints answer only its own origin: ${why}`);

describe('GET /__mock/requests', () => {
  it('answers the journal as JSON, never cached', async () => {
    backend.journal.record({ method: 'GET', path: '/api/accounts', status: 200, time: '2026-01-01T00:00:00.000Z', duration: 1.5 });
    const got = await call('http://localhost/__mock/requests');
    expect(got.status).toBe(200);
    expect(got.headers.get('cache-control')).toBe('no-store');
    expect(got.headers.get('content-type')).toBe('application/json');
    expect(got.body).toEqual([{ method: 'GET', path: '/api/accounts', status: 200, time: '2026-01-01T00:00:00.000Z', duration: 1.5 }]);
  });

  it('answers another method with 405 and Allow: GET', async () => {
    const got = await call('http://localhost/__mock/requests', { method: 'DELETE' });
    expect([got.status, got.headers.get('allow'), got.body]).toEqual([405, 'GET', error(405, 'Method Not Allowed', 'Method not allowed')]);
  });
});

describe('POST /__mock/reset', () => {
  it('restores the initial data and answers 204', async () => {
    backend.db.collections.symbols.clear();
    const got = await call('http://localhost/__mock/reset', { method: 'POST' });
    expect([got.status, got.body]).toEqual([204, null]);
    expect(backend.db.collections.symbols.count()).toBe(3);
  });

  it('answers another method with 405 and Allow: POST', async () => {
    const got = await call('http://localhost/__mock/reset', { method: 'PUT' });
    expect([got.status, got.headers.get('allow'), got.body]).toEqual([405, 'POST', error(405, 'Method Not Allowed', 'Method not allowed')]);
  });
});

describe('any other path under /__mock/', () => {
  it('answers 404 naming the path', async () => {
    const got = await call('http://localhost/__mock/nothing/here', { method: 'POST' });
    expect([got.status, got.body]).toEqual([404, error(404, 'Not Found', "No mock endpoint at '/__mock/nothing/here'")]);
  });
});

describe('the origin of a control request', () => {
  it('is accepted on IP literals, localhost and its subdomains, and the host the mock is started on', async () => {
    for (const host of ['127.0.0.1', '10.0.0.12:8080', '[::1]:3000', '[fe80::1]', 'localhost:8080', 'app.localhost', 'mock.test']) {
      expect([host, (await call(`http://${host}/__mock/requests`)).status]).toEqual([host, 200]);
    }
  });

  it('is refused with 403 on any other host name, which another site could point at this machine', async () => {
    for (const host of [
      'evil.example',
      'localhost.evil.example',
      'xlocalhost',
      'mock.test.evil',
      'bad.cafe',
      'cafe',
      'fade.ad:8080',
      '10.0.0.1.example',
      '1.2.3.4x',
    ]) {
      const got = await call(`http://${host}/__mock/reset`, { method: 'POST' });
      const name = host.replace(/:\d+$/, '');
      expect([host, got.status, got.body]).toEqual([host, 403, refusal(`Host '${name}' is not this machine's`)]);
    }
  });

  it('is refused with 403 when the browser says another site sent it, and nothing changes', async () => {
    backend.db.collections.symbols.clear();
    for (const site of ['cross-site', 'same-site']) {
      const got = await call('http://localhost/__mock/reset', { method: 'POST', headers: { 'sec-fetch-site': site } });
      expect([got.status, got.body]).toEqual([403, refusal(`Sec-Fetch-Site is '${site}'`)]);
    }
    const foreign = await call('http://localhost/__mock/requests', { headers: { origin: 'http://evil.example' } });
    expect([foreign.status, foreign.body]).toEqual([403, refusal('Origin http://evil.example is not http://localhost')]);
    expect(backend.db.collections.symbols.count()).toBe(0);
  });

  it('is accepted from the same origin, from the address bar, and from a client that is no browser', async () => {
    const senders: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'http://localhost' },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of senders) {
      expect((await call('http://localhost/__mock/requests', { headers })).status).toBe(200);
    }
  });
});

describe('the control endpoints, as the module builds them when it loads', () => {
  // Their path prefix and the test of a host name are made when control.ts loads: a change to them
  // is only seen by a test that loads it. What it imports is loaded afresh here, outside the test,
  // so that the test evaluates control.ts alone and no other module's load counts as this test's.
  beforeAll(async () => {
    vi.resetModules();
    await import('../errors.ts');
  });

  it('answer under /__mock/ on this machine and the host the mock is started on, and refuse any other host', async () => {
    const { controlHandlers } = await import('./control.ts');
    const handlers = controlHandlers({ db: backend.db, journal: backend.journal, origin: ANY_ORIGIN, trustedHosts: ['mock.test'] });
    for (const host of ['localhost:8080', '127.0.0.1', '[::1]:3000', 'app.localhost', 'mock.test']) {
      const got = await answer(handlers, `http://${host}/__mock/requests`);
      expect([host, got.status, got.body]).toEqual([host, 200, []]);
    }
    const foreign = await answer(handlers, 'http://evil.example/__mock/reset', { method: 'POST' });
    expect([foreign.status, foreign.body]).toEqual([403, refusal("Host 'evil.example' is not this machine's")]);
  });
});
