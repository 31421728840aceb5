import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import { bearerMiddleware, onUnauthorized } from './credentials';

const BASE = 'https://app.example/api/';

function clientWith(token: () => Promise<string | null>, answer = 200) {
  const seen: Request[] = [];
  const fetch = vi.fn(async (request: Request) => {
    seen.push(request);
    return new Response(answer === 204 ? null : '{}', { status: answer, headers: { 'content-type': 'application/json' } });
  });
  const client = createApiClient({ baseUrl: BASE, fetch, log: () => undefined, use: [bearerMiddleware(() => BASE, token)] });
  return { client, seen };
}

describe('bearerMiddleware', () => {
  it('adds the access token to requests for the API', async () => {
    const { client, seen } = clientWith(async () => 'tok-1');
    await client.GET('/user/profile/myprofile');
    expect(seen[0]!.headers.get('authorization')).toBe('Bearer tok-1');
  });

  it('sends no Authorization without a session, and never one to another URL', async () => {
    const signedOut = clientWith(async () => null);
    await signedOut.client.GET('/symbols');
    expect(signedOut.seen[0]!.headers.has('authorization')).toBe(false);

    const token = vi.fn(async () => 'tok-1');
    const elsewhere = createApiClient({
      baseUrl: 'https://other.example/api/',
      fetch: async () => new Response('[]', { headers: { 'content-type': 'application/json' } }),
      use: [
        bearerMiddleware(() => BASE, token),
        {
          onRequest({ request }) {
            expect(request.headers.has('authorization')).toBe(false);
          },
        },
      ],
    });
    await elsewhere.GET('/symbols');
    expect(token).not.toHaveBeenCalled();
  });

  it('tells the session of a 401 to a request that carried a token, and only then', async () => {
    const refused = vi.fn();
    onUnauthorized(refused);
    await clientWith(async () => 'stale', 401).client.GET('/user/profile/myprofile');
    expect(refused).toHaveBeenCalledTimes(1);
    await clientWith(async () => null, 401).client.GET('/user/profile/myprofile');
    expect(refused).toHaveBeenCalledTimes(1);
  });
});
