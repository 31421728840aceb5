import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiClientOptions } from './client';

type ClientModule = typeof import('./client');
let api: ClientModule;

let sent: Request[];
let answer: () => Response;

beforeEach(async () => {
  sent = [];
  answer = () => new Response(null, { status: 204 });
  // Which methods count as mutating is decided when the module loads.
  vi.resetModules();
  api = await import('./client');
});

// A stubbed document must be gone before the shared cleanup looks for what was rendered.
afterEach(() => {
  vi.unstubAllGlobals();
});

function client(options: Partial<ApiClientOptions> = {}) {
  return api.createApiClient({
    baseUrl: 'https://app.example/api/',
    log: () => undefined,
    fetch: async (request) => {
      sent.push(request);
      return answer();
    },
    ...options,
  });
}

const xsrf = () => sent.map((request) => request.headers.get('x-xsrf-token'));

describe('the XSRF token', () => {
  const onPage = { pageOrigin: () => 'https://app.example', cookies: () => 'theme=dark; XSRF-TOKEN=a%2Bb=c; other=1' };

  it('is echoed on every mutating request to the page own origin, as the cookie holds it', async () => {
    const c = client(onPage);
    await c.POST('/accounts', { body: { name: 'Savings', currency: 'EUR', balance: 1 } });
    await c.PUT('/accounts/{id}', { params: { path: { id: 'a-1' } }, body: { name: 'Savings', currency: 'EUR', balance: 1 } });
    await c.PATCH('/user/profile/{id}', { params: { path: { id: 'p-1' }, header: { 'If-Match': '"v1"' } }, body: {} });
    await c.DELETE('/accounts/{id}', { params: { path: { id: 'a-1' } } });
    expect(sent.map((request) => request.method)).toEqual(['POST', 'PUT', 'PATCH', 'DELETE']);
    expect(xsrf()).toEqual(['a+b=c', 'a+b=c', 'a+b=c', 'a+b=c']);
  });

  it('is not sent on a read, to another host, or without a page', async () => {
    await client(onPage).GET('/accounts');
    await client({ ...onPage, baseUrl: 'https://api.other.example' }).POST('/accounts', {
      body: { name: 'S', currency: 'EUR', balance: 1 },
    });
    await client({ ...onPage, pageOrigin: () => null }).DELETE('/accounts/{id}', { params: { path: { id: 'a-1' } } });
    expect(xsrf()).toEqual([null, null, null]);
  });

  it("reads the page's origin and cookie by default", async () => {
    vi.stubGlobal('document', { cookie: 'XSRF-TOKEN=from-the-page' });
    await client({ baseUrl: location.origin }).DELETE('/accounts/{id}', { params: { path: { id: 'a-1' } } });
    expect(xsrf()).toEqual(['from-the-page']);
  });

  it('sends none from a worker, which has no document', async () => {
    vi.stubGlobal('document', undefined);
    await client({ pageOrigin: () => 'https://app.example' }).DELETE('/accounts/{id}', { params: { path: { id: 'a-1' } } });
    expect(xsrf()).toEqual([null]);
  });
});

describe('the error log', () => {
  it('logs each error answer with its status, error and message', async () => {
    const log = vi.fn();
    answer = () =>
      new Response(JSON.stringify({ status: 409, error: 'Conflict', message: 'Username taken' }), {
        status: 409,
        headers: { 'content-type': 'application/json' },
      });
    const { error } = await client({ log }).GET('/accounts');
    expect(log.mock.calls).toEqual([['Backend Error ! 409, Conflict, Username taken']]);
    // The caller still reads the body the log read.
    expect(error).toEqual({ status: 409, error: 'Conflict', message: 'Username taken' });
  });

  it('logs a body that is not JSON from the answer alone, and nothing for a success', async () => {
    const log = vi.fn();
    answer = () => new Response('<html>down</html>', { status: 503, statusText: 'Service Unavailable' });
    await client({ log }).GET('/accounts');
    answer = () => new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    await client({ log }).GET('/accounts');
    expect(log.mock.calls).toEqual([['Backend Error ! 503, Service Unavailable, Service Unavailable']]);
  });

  it('logs nothing for a 412: an edit conflict the app shows, not a failure', async () => {
    const log = vi.fn();
    answer = () =>
      new Response(JSON.stringify({ status: 412, error: 'Precondition Failed', message: 'The profile changed' }), {
        status: 412,
        headers: { 'content-type': 'application/json' },
      });
    const { error } = await client({ log }).GET('/accounts');
    expect(log).not.toHaveBeenCalled();
    expect(error).toMatchObject({ status: 412 });
  });

  it('goes to the console by default', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answer = () => new Response(null, { status: 500 });
    await api.createApiClient({ baseUrl: 'https://app.example', fetch: async () => answer() }).GET('/accounts');
    expect(error).toHaveBeenCalledWith('Backend Error ! 500, Error, HTTP 500');
  });
});
