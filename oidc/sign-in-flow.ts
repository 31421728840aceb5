/**
 * Signs a member in to the embedded provider over plain HTTP, the way a browser would: the
 * authorization request with PKCE, the sign-in form, the redirect back with a code, the code
 * exchanged for tokens. Tests, `npm run verify` and `npm run token` get real tokens this way.
 */
import { createHash, randomBytes } from 'node:crypto';
import { CLIENT_ID, SCOPES } from './configuration.ts';
import { OIDC_PREFIX } from './paths.ts';
import { DEMO_PASSWORD } from './accounts.ts';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  idToken: string;
  /** The Authorization header value: `Bearer <access token>`. */
  authorization: string;
  expiresIn: number;
  /** The provider's session cookies, as a Cookie header: what a browser would send on to /oidc afterwards. */
  cookies: string;
}

export class SignInError extends Error {}

/** Cookies by name: the provider's cookies have distinct names, so their paths can be ignored here. */
class CookieJar {
  readonly #cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      // Stryker disable next-line StringLiteral: split always answers at least one part, so the default is never used
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) this.#cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

function tokensOf(body: Record<string, unknown>, cookies = ''): Tokens {
  const { access_token, refresh_token, id_token, expires_in } = body;
  if (typeof access_token !== 'string' || typeof id_token !== 'string' || typeof refresh_token !== 'string') {
    throw new SignInError(`The token endpoint answered no tokens: ${JSON.stringify(body).slice(0, 200)}`);
  }
  return {
    accessToken: access_token,
    refreshToken: refresh_token,
    idToken: id_token,
    authorization: `Bearer ${access_token}`,
    expiresIn: typeof expires_in === 'number' ? expires_in : 0,
    cookies,
  };
}

/** Signs `user` in at the provider of the server at `origin` (e.g. http://127.0.0.1:8080). */
export async function signInAs(origin: string, user: string, password = DEMO_PASSWORD): Promise<Tokens> {
  const base = origin.replace(/\/$/, '');
  const jar = new CookieJar();
  const redirectUri = `${base}/auth/callback`;
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const step = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(new URL(url, base), {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.take(response);
    return response;
  };
  const follow = (response: Response, what: string) => {
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || !location) {
      throw new SignInError(`${what}: expected a redirect, got ${response.status}`);
    }
    return location;
  };

  const authorize = new URL(`${base}${OIDC_PREFIX}/auth`);
  authorize.search = new URLSearchParams({
    client_id: CLIENT_ID,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: SCOPES,
    state,
    nonce: randomBytes(16).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  const page = follow(await step(authorize.href), 'The authorization request');
  const uid = /\/interaction\/([\w-]+)$/.exec(new URL(page, base).pathname)?.[1];
  if (!uid) throw new SignInError(`The authorization request led to ${page}, not to the sign-in page`);
  // fetch labels a URLSearchParams body application/x-www-form-urlencoded itself, here and below.
  const login = await step(`${OIDC_PREFIX}/interaction/${uid}/login`, {
    method: 'POST',
    body: new URLSearchParams({ username: user, password }),
  });
  if (login.status === 200) throw new SignInError(`The provider refused the credentials of '${user}'`);
  let next = follow(login, 'The sign-in form');
  // The provider resumes the authorization, then redirects to the app with the code.
  for (let hops = 0; !next.startsWith(redirectUri) && hops < 5; hops++) next = follow(await step(next), 'The authorization');
  if (!next.startsWith(redirectUri)) throw new SignInError(`The authorization: still redirecting after 5 steps, to ${next}`);
  const back = new URL(next);
  if (back.searchParams.get('state') !== state) throw new SignInError('The redirect back carries another state');
  const code = back.searchParams.get('code');
  if (!code) throw new SignInError(`The redirect back carries no code: ${back.search}`);
  const token = await fetch(`${base}${OIDC_PREFIX}/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: CLIENT_ID,
      code_verifier: verifier,
    }),
  });
  const body = (await token.json()) as Record<string, unknown>;
  if (!token.ok) throw new SignInError(`The token endpoint answered ${token.status}: ${JSON.stringify(body)}`);
  return tokensOf(body, jar.header());
}

/** Revokes a token at the provider of the server at `origin` (RFC 7009), as the app's client. */
export async function revokeToken(origin: string, token: string): Promise<void> {
  const response = await fetch(`${origin.replace(/\/$/, '')}${OIDC_PREFIX}/token/revocation`, {
    method: 'POST',
    body: new URLSearchParams({ token, client_id: CLIENT_ID }),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new SignInError(`The revocation endpoint answered ${response.status}`);
}

/** New tokens for a refresh token. */
export async function refresh(origin: string, refreshToken: string): Promise<Tokens> {
  const response = await fetch(`${origin.replace(/\/$/, '')}${OIDC_PREFIX}/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CLIENT_ID }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new SignInError(`The token endpoint answered ${response.status}: ${JSON.stringify(body)}`);
  return tokensOf({ refresh_token: refreshToken, ...body });
}
