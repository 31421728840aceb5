import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Instance = typeof import('./instance');
let instance: Instance;
let sent: Request[];

beforeEach(async () => {
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      sent.push(request);
      return new Response(null, { status: 204 });
    }),
  );
  // The client is built once per module load: each test starts with none.
  vi.resetModules();
  instance = await import('./instance');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the app API client', () => {
  it("is built on first use from the configuration's API base, on the page's origin", async () => {
    expect(instance.apiBaseUrl()).toBe(`${location.origin}/api/`);
    await instance.api.reset();
    expect(sent.map((request) => [request.method, request.url])).toEqual([['POST', `${location.origin}/api/commands/reset`]]);
  });

  it('is the same client on every use', () => {
    expect(instance.api.client()).toBe(instance.api.client());
  });

  it('hands out the client and the collections, both speaking to the configured base', async () => {
    instance.configureApi('https://api.example/v1/');
    await instance.api.client().DELETE('/symbols/{id}', { params: { path: { id: 's1' } } });
    await instance.api.collections().remove('symbols', 's2');
    expect(sent.map((request) => [request.method, request.url])).toEqual([
      ['DELETE', 'https://api.example/v1/symbols/s1'],
      ['DELETE', 'https://api.example/v1/symbols/s2'],
    ]);
  });

  it('speaks to the base it was configured with', async () => {
    instance.configureApi('https://api.example/v1/');
    expect(instance.apiBaseUrl()).toBe('https://api.example/v1/');
    await instance.api.reset();
    expect(sent.map((request) => request.url)).toEqual(['https://api.example/v1/commands/reset']);
  });

  it('resolves a relative base against localhost where there is no page address', () => {
    vi.stubGlobal('location', undefined);
    instance.configureApi('/api/');
    expect(instance.apiBaseUrl()).toBe('http://localhost/api/');
  });

  it('throws what the server refused a reset with', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ status: 403, error: 'Forbidden', message: 'Admins only' }), {
            status: 403,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(instance.api.reset()).rejects.toMatchObject({ status: 403, message: 'Admins only' });
  });
});
