import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import { bearerMiddleware, isApiUrl, setTokenKeeper } from './credentials';

const BASE = 'https://app.example/api/';

/** A client whose server answers each request with the next status of `answers` (the last one repeats). */
function clientWith(token: () => Promise<string | null>, answers: number[] = [200], baseUrl = BASE) {
  const seen: Request[] = [];
  const bodies: string[] = [];
  const fetch = vi.fn(async (request: Request) => {
    seen.push(request);
    bodies.push(await request.text());
    const status = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    return new Response(status === 204 ? null : '{}', { status, headers: { 'content-type': 'application/json' } });
  });
  const client = createApiClient({ baseUrl, fetch, log: () => undefined, use: [bearerMiddleware(() => BASE, token)] });
  return { client, seen, bodies, fetch };
}

afterEach(() => {
  setTokenKeeper(null);
});

describe('isApiUrl', () => {
  it('takes the API base and what is under it, on the same origin only', () => {
    expect(isApiUrl('https://app.example/api/user/profile', BASE)).toBe(true);
    expect(isApiUrl('https://app.example/api/', BASE)).toBe(true);
    expect(isApiUrl('https://app.example/api', 'https://app.example/api')).toBe(true);
    expect(isApiUrl('https://app.example/apix/user', 'https://app.example/api')).toBe(false);
    expect(isApiUrl('https://app.example/oidc/token', BASE)).toBe(false);
    expect(isApiUrl('http://app.example/api/user', BASE)).toBe(false);
    expect(isApiUrl('https://app.example:8443/api/user', BASE)).toBe(false);
    expect(isApiUrl('https://app.example.evil.example/api/user', BASE)).toBe(false);
    expect(isApiUrl('https://evil.example/api/user', BASE)).toBe(false);
    expect(isApiUrl('not a url', BASE)).toBe(false);
  });
});

describe('bearerMiddleware', () => {
  it('adds the access token to requests for the API', async () => {
    const { client, seen } = clientWith(async () => 'tok-1');
    await client.GET('/user/profile/myprofile');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-1');
  });

  it('sends no Authorization without a session, and never one to another host', async () => {
    const signedOut = clientWith(async () => null);
    await signedOut.client.GET('/symbols');
    expect(signedOut.seen[0]!.headers.has('authorization')).toBe(false);

    for (const other of ['https://other.example/api/', 'https://app.example.other.example/api/', 'http://app.example/api/']) {
      const token = vi.fn(async () => 'tok-1');
      const elsewhere = clientWith(token, [200], other);
      await elsewhere.client.GET('/symbols');
      expect(elsewhere.seen[0]!.headers.has('authorization'), other).toBe(false);
      expect(token, other).not.toHaveBeenCalled();
    }
  });

  it('on a 401 renews once and sends the request again, body and all, with the new token', async () => {
    const renewer = vi.fn(async () => 'tok-2');
    const refused = vi.fn();
    setTokenKeeper({ renewRefused: renewer, refusedAgain: refused });
    const { client, seen, bodies } = clientWith(async () => 'tok-1', [401, 200]);
    const { response } = await client.PUT('/symbols/{id}', {
      params: { path: { id: '1' } },
      body: { id: '1', code: 'MSFT', entity: 'Microsoft' },
    });
    expect(response.status).toBe(200);
    expect(renewer).toHaveBeenCalledExactlyOnceWith('tok-1');
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(seen.map((r) => r.method)).toEqual(['PUT', 'PUT']);
    expect(bodies[1]).toBe(bodies[0]);
    expect(JSON.parse(bodies[1]!)).toEqual({ id: '1', code: 'MSFT', entity: 'Microsoft' });
    expect(refused).not.toHaveBeenCalled();
  });

  it('does not send again when no new token can be had: the 401 is the answer', async () => {
    const renewer = vi.fn(async () => null);
    const refused = vi.fn();
    setTokenKeeper({ renewRefused: renewer, refusedAgain: refused });
    const { client, seen } = clientWith(async () => 'tok-1', [401]);
    const { response } = await client.GET('/user/profile/myprofile');
    expect(response.status).toBe(401);
    expect(renewer).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(1);
    // The session model handled the failed renewal itself (signed out, or kept while offline).
    expect(refused).not.toHaveBeenCalled();
  });

  it('a new token refused too: one retry only, and the session model hears of it', async () => {
    const refused = vi.fn();
    setTokenKeeper({ renewRefused: async () => 'tok-2', refusedAgain: refused });
    const { client, seen } = clientWith(async () => 'tok-1', [401]);
    const { response } = await client.GET('/user/profile/myprofile');
    expect(response.status).toBe(401);
    expect(seen).toHaveLength(2);
    expect(refused).toHaveBeenCalledTimes(1);
  });

  it('a 401 to a request without a token renews nothing', async () => {
    const renewer = vi.fn(async () => 'tok-2');
    setTokenKeeper({ renewRefused: renewer });
    const { client, seen } = clientWith(async () => null, [401]);
    await client.GET('/user/profile/myprofile');
    expect(renewer).not.toHaveBeenCalled();
    expect(seen).toHaveLength(1);
  });

  it('the retry goes through the fetch the request was made with (the progress transport of a save)', async () => {
    setTokenKeeper({ renewRefused: async () => 'tok-2' });
    const { client, fetch } = clientWith(async () => 'tok-1', [200]);
    const own = vi.fn(
      async (request: Request) => new Response('{}', { status: request.headers.get('authorization') === 'Bearer tok-2' ? 200 : 401 }),
    );
    const { response } = await client.GET('/user/profile/myprofile', { fetch: own });
    expect(response.status).toBe(200);
    expect(own).toHaveBeenCalledTimes(2);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('leaves a request that names its own Authorization as it is', async () => {
    const token = vi.fn(async () => 'tok-1');
    const { client, seen } = clientWith(token);
    await client.GET('/symbols', { headers: { Authorization: 'Basic c3lzOnB3' } });
    expect(seen[0]!.headers.get('authorization')).toBe('Basic c3lzOnB3');
    expect(token).not.toHaveBeenCalled();
  });

  it('renews nothing for an answer that is not a 401', async () => {
    const renewer = vi.fn(async () => 'tok-2');
    setTokenKeeper({ renewRefused: renewer });
    const { client, seen } = clientWith(async () => 'tok-1', [403]);
    const { response } = await client.GET('/symbols');
    expect(response.status).toBe(403);
    expect(renewer).not.toHaveBeenCalled();
    expect(seen).toHaveLength(1);
  });

  it('does not send again with the very token that was refused', async () => {
    const renewer = vi.fn(async () => 'tok-1');
    const refused = vi.fn();
    setTokenKeeper({ renewRefused: renewer, refusedAgain: refused });
    const { client, seen } = clientWith(async () => 'tok-1', [401, 200]);
    const { response } = await client.GET('/symbols');
    expect(response.status).toBe(401);
    expect(renewer).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(1);
    expect(refused).not.toHaveBeenCalled();
  });

  it('sends a bodiless request again without a body', async () => {
    setTokenKeeper({ renewRefused: async () => 'tok-2' });
    const { client, seen } = clientWith(async () => 'tok-1', [401, 204]);
    const { response } = await client.DELETE('/symbols/{id}', { params: { path: { id: '1' } } });
    expect(response.status).toBe(204);
    expect(seen.map((r) => [r.method, r.headers.get('authorization'), r.body])).toEqual([
      ['DELETE', 'Bearer tok-1', null],
      ['DELETE', 'Bearer tok-2', null],
    ]);
  });
});

describe('as the module loads', () => {
  // The defaults are the module's own: a fresh load sees them before any session model replaces them.
  async function fresh() {
    vi.resetModules();
    const [credentials, store] = await Promise.all([import('./credentials'), import('./session-store')]);
    return { ...credentials, ...store };
  }

  it("takes the stored session's token, and none without a session", async () => {
    const { authorizationHeader, writeSession, clearSession } = await fresh();
    await clearSession();
    expect(await authorizationHeader()).toEqual({});
    await writeSession({
      accessToken: 'stored-token',
      expiresAt: Date.now() + 60_000,
      refreshToken: null,
      idToken: 'id-token',
      issuer: 'https://app.example/oidc',
      subject: 'ada',
      name: 'Ada',
      email: null,
    });
    expect(await authorizationHeader()).toEqual({ Authorization: 'Bearer stored-token' });
    await clearSession();
  });

  it("a keeper that leaves a part out takes the stored session's for it; none gives all of it back", async () => {
    const { authorizationHeader, setTokenKeeper: keep, writeSession, clearSession } = await fresh();
    await writeSession({
      accessToken: 'stored-token',
      expiresAt: Date.now() + 60_000,
      refreshToken: null,
      idToken: 'id-token',
      issuer: 'https://app.example/oidc',
      subject: 'ada',
      name: 'Ada',
      email: null,
    });
    keep({ renewRefused: async () => 'tok-2' });
    expect(await authorizationHeader()).toEqual({ Authorization: 'Bearer stored-token' });
    keep({ accessToken: async () => 'kept-token' });
    expect(await authorizationHeader()).toEqual({ Authorization: 'Bearer kept-token' });
    keep(null);
    expect(await authorizationHeader()).toEqual({ Authorization: 'Bearer stored-token' });
    await clearSession();
  });

  it('renews nothing without a session model: the 401 is the answer', async () => {
    const { bearerMiddleware: bearer } = await fresh();
    const seen: Request[] = [];
    const client = createApiClient({
      baseUrl: BASE,
      log: () => undefined,
      fetch: async (request) => {
        seen.push(request);
        return new Response('{}', { status: 401, headers: { 'content-type': 'application/json' } });
      },
      use: [
        bearer(
          () => BASE,
          async () => 'tok-1',
        ),
      ],
    });
    const { response } = await client.GET('/symbols');
    expect(response.status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});
