/**
 * What the tests of the embedded provider share: a server per test, an authorization as the app
 * opens it, the sign-in form posted, and what a page says.
 */
import { afterEach, expect, vi } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../server/index.ts';

/**
 * `start` for each test of the file it is called in: a server on a free port, closed after the
 * test, with the clock and every mock put back.
 */
export function serverPerTest(): (options?: ServerOptions) => Promise<RunningServer> {
  let server: RunningServer | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    await server?.close();
    server = undefined;
  });
  return async (options = {}) => {
    // The server loads the provider as it starts: a fresh module graph evaluates its constants (client, scopes, page headers) again.
    vi.resetModules();
    server = await startServer({ port: 0, delayMs: 0, distDir: null, ...options });
    return server;
  };
}

export const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/** An authorization request as the app makes it: the sign-in page's URL and the cookie that goes with it. */
export async function openSignIn(on: RunningServer, params: Record<string, string> = {}): Promise<{ page: URL; cookie: string }> {
  const query = new URLSearchParams({
    client_id: 'circle-web',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${on.url}/auth/callback`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...params,
  });
  const response = await fetch(`${on.url}/oidc/auth?${query}`, { redirect: 'manual' });
  expect(response.status).toBe(303);
  return { page: new URL(response.headers.get('location')!, on.url), cookie: cookiesOf(response) };
}

export const postForm = (url: string, cookie: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });

/** What a page says, as the member reads it: title, heading and alert. */
export function parts(html: string) {
  return {
    lang: /<html lang="([^"]+)">/.exec(html)?.[1],
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    heading: /<h1>([^<]*)<\/h1>/.exec(html)?.[1],
    alert: /role="alert">([^<]*)</.exec(html)?.[1],
  };
}
