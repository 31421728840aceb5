/**
 * The embedded OpenID Connect provider under /oidc: standard discovery, the code flow with PKCE
 * for two members, refresh and revocation, sign-out at the provider, its pages, and the API's
 * check of the access tokens it issues.
 */
import { request } from 'node:http';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/index.ts';
import { refresh, signInAs, SignInError } from './support/sign-in.ts';

let server: RunningServer;
let other: RunningServer;

beforeAll(async () => {
  [server, other] = await Promise.all([
    startServer({ port: 0, delayMs: 0, distDir: null }),
    startServer({ port: 0, delayMs: 0, distDir: null, accessTokenTtl: 1 }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
});

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
/** Starts an authorization request as the app would (PKCE, its redirect URI), unfollowed; `params` adds or overrides. */
function authorize(params: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Response> {
  const query = new URLSearchParams({
    client_id: 'circle-web',
    response_type: 'code',
    scope: 'openid',
    redirect_uri: `${server.url}/auth/callback`,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...params,
  });
  for (const [key, value] of Object.entries(params)) if (value === '') query.delete(key);
  return fetch(`${server.url}/oidc/auth?${query}`, { redirect: 'manual', headers });
}

/** The caller's subject as the API sees it, or the 401 answer's status and challenge. */
async function who(on: RunningServer, authorization?: string): Promise<string> {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  try {
    return (await on.authenticate(new Request(`${on.url}/api/user/profile/myprofile`, { headers }))).subject;
  } catch (answer) {
    if (!(answer instanceof Response)) throw answer;
    return `${answer.status} ${answer.headers.get('www-authenticate')}`;
  }
}

describe('discovery', () => {
  it('names the issuer <origin>/oidc and every endpoint on the same origin, PKCE S256 only', async () => {
    const response = await fetch(`${server.url}/oidc/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const meta = (await response.json()) as Record<string, unknown>;
    expect(meta.issuer).toBe(`${server.url}/oidc`);
    for (const key of [
      'authorization_endpoint',
      'token_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
      'end_session_endpoint',
      'revocation_endpoint',
    ]) {
      expect(String(meta[key]), key).toMatch(new RegExp(`^${server.url}/oidc/`));
    }
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'offline_access']));
  });

  it('answers on localhost with that origin as the issuer, and refuses a host it is not', async () => {
    const port = new URL(server.url).port;
    const local = await fetch(`http://localhost:${port}/oidc/.well-known/openid-configuration`);
    expect(((await local.json()) as { issuer: string }).issuer).toBe(`http://localhost:${port}/oidc`);
    // fetch() will not send another Host header; node:http will.
    const status = await new Promise<number>((done, fail) => {
      request(`${server.url}/oidc/.well-known/openid-configuration`, { headers: { host: `evil.example:${port}` } }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      })
        .on('error', fail)
        .end();
    });
    expect(status).toBe(421);
  });
});

describe('sign-in', () => {
  it('gives each member tokens of their own: a JWT for the API, an ID token with name and e-mail', async () => {
    const [ada, grace] = await Promise.all([signInAs(server.url, 'ada'), signInAs(server.url, 'grace')]);
    const access = decodeJwt(ada.accessToken);
    expect(access).toMatchObject({ sub: 'ada', iss: `${server.url}/oidc`, aud: `${server.url}/api`, client_id: 'circle-web' });
    expect(ada.expiresIn).toBe(300);
    expect(decodeJwt(ada.idToken)).toMatchObject({ sub: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org' });
    expect(decodeJwt(grace.idToken)).toMatchObject({ sub: 'grace', name: 'Grace Hopper' });
    expect(await who(server, ada.authorization)).toBe('ada');
    expect(await who(server, grace.authorization)).toBe('grace');
  });

  it('refuses a wrong password on the page, keeping the name typed, and issues no code', async () => {
    const start = await authorize();
    expect(start.status).toBe(303);
    const page = new URL(start.headers.get('location')!, server.url);
    const cookie = cookiesOf(start);
    const form = await fetch(`${page.href}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'username=ada&password=wrong',
    });
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('role="alert"');
    expect(html).toMatch(/id="username"[^>]*value="ada"/);
    expect(html).toMatch(/<label for="password">/);
    await expect(signInAs(server.url, 'ada', 'wrong')).rejects.toThrow(SignInError);
    await expect(signInAs(server.url, 'nobody')).rejects.toThrow(/refused the credentials of 'nobody'/);
  });

  it('requires PKCE: an authorization request without a code challenge goes back with an error', async () => {
    const response = await authorize({ code_challenge: '', code_challenge_method: '' });
    const back = new URL(response.headers.get('location') ?? '', server.url);
    expect(back.pathname).toBe('/auth/callback');
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('cancelling on the sign-in page returns to the app with access_denied', async () => {
    const start = await authorize({ state: 's1' });
    const page = new URL(start.headers.get('location')!, server.url);
    const abort = await fetch(`${page.href}/abort`, { redirect: 'manual', headers: { cookie: cookiesOf(start) } });
    let next = new URL(abort.headers.get('location')!, server.url);
    if (next.pathname.startsWith('/oidc/')) {
      const resumed = await fetch(next, { redirect: 'manual', headers: { cookie: `${cookiesOf(start)}; ${cookiesOf(abort)}` } });
      next = new URL(resumed.headers.get('location')!, server.url);
    }
    expect(next.pathname).toBe('/auth/callback');
    expect(next.searchParams.get('error')).toBe('access_denied');
    expect(next.searchParams.get('state')).toBe('s1');
  });
});

describe('renewal, revocation and sign-out', () => {
  it('a refresh token gives a new access token for the same member; once revoked it gives none', async () => {
    const first = await signInAs(server.url, 'linus');
    const renewed = await refresh(server.url, first.refreshToken);
    expect(renewed.accessToken).not.toBe(first.accessToken);
    expect(decodeJwt(renewed.accessToken).sub).toBe('linus');
    expect(await who(server, renewed.authorization)).toBe('linus');
    const revoked = await fetch(`${server.url}/oidc/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: first.refreshToken, token_type_hint: 'refresh_token', client_id: 'circle-web' }),
    });
    expect(revoked.status).toBe(200);
    await expect(refresh(server.url, first.refreshToken)).rejects.toThrow(/invalid_grant/);
  });

  it('signs out at the provider as the app asks (with the ID token): no question, back to the app, and the session is gone', async () => {
    const tokens = await signInAs(server.url, 'ada');
    const end = await fetch(
      `${server.url}/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.idToken, post_logout_redirect_uri: `${server.url}/`, client_id: 'circle-web' })}`,
      { headers: { cookie: tokens.cookies } },
    );
    expect(end.status).toBe(200);
    expect(end.headers.get('content-security-policy')).toMatch(/^default-src 'none'; .*; script-src 'sha256-[A-Za-z0-9+/]+=*'$/);
    const html = await end.text();
    // The app has signed out already: the provider does not ask again, its form goes on by itself.
    expect(html).toMatch(/<h1>Signing you out…<\/h1>/);
    expect(html).not.toContain('Sign out of Circle?');
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    const fields = [...html.matchAll(/<input type="hidden"(?: form="op\.logoutForm")? name="(\w+)" value="([^"]*)"/g)].map(([, n, v]) => [
      n!,
      v!,
    ]);
    expect(fields.map(([name]) => name).sort()).toEqual(['logout', 'xsrf']);
    expect(action).toBeDefined();
    const confirm = await fetch(new URL(action!, server.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: [tokens.cookies, cookiesOf(end)].filter(Boolean).join('; '), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${server.url}/`);
    // The provider's session is over: the refresh token that was bound to it no longer works.
    await expect(refresh(server.url, tokens.refreshToken)).rejects.toThrow(/invalid_grant/);
  });
});

describe('the API reads the bearer token', () => {
  it('refuses a missing, malformed, tampered, foreign or expired token with 401 and an RFC 6750 challenge', async () => {
    const ada = await signInAs(server.url, 'ada');
    expect(await who(server)).toBe('401 Bearer realm="circle"');
    expect(await who(server, 'Basic YWRhOmNpcmNsZQ==')).toMatch(/^401 Bearer realm="circle", error="invalid_request"/);
    const [head, , signature] = ada.accessToken.split('.');
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...decodeJwt(ada.accessToken), sub: 'grace' })).toString('base64url')}.${signature}`;
    expect(await who(server, `Bearer ${forged}`)).toMatch(/^401 .*error="invalid_token"/);
    // Another server's provider signs with its own key: its tokens are not this API's.
    const elsewhere = await signInAs(other.url, 'ada');
    expect(await who(server, elsewhere.authorization)).toMatch(/^401 .*error="invalid_token"/);
    expect(await who(other, elsewhere.authorization)).toBe('ada');
    await new Promise((done) => setTimeout(done, 2100));
    expect(await who(other, elsewhere.authorization)).toMatch(
      /^401 .*error="invalid_token", error_description="The access token has expired/,
    );
  });

  it('the ID token is not an access token: it is for the app, not the API', async () => {
    const ada = await signInAs(server.url, 'ada');
    expect(await who(server, `Bearer ${ada.idToken}`)).toMatch(/^401 .*error="invalid_token"/);
  });
});

describe('the provider pages', () => {
  it('serve the sign-in page under a strict policy, with its one stylesheet from the same origin', async () => {
    const start = await authorize();
    const page = await fetch(new URL(start.headers.get('location')!, server.url), { headers: { cookie: cookiesOf(start) } });
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    const html = await page.text();
    expect(html).not.toMatch(/<script|style=/);
    expect(html).toMatch(/<html lang="en">/);
    const css = await fetch(`${server.url}/oidc/assets/pages.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toContain(':focus-visible');
  });
});

describe('another provider (--issuer)', () => {
  it("accepts that provider's tokens for the audience given, found through its discovery, and no other", async () => {
    const trusting = await startServer({ port: 0, delayMs: 0, distDir: null, issuer: `${server.url}/oidc`, audience: `${server.url}/api` });
    try {
      const fromIssuer = await signInAs(server.url, 'grace');
      expect(await who(trusting, fromIssuer.authorization)).toBe('grace');
      const ownTokens = await signInAs(trusting.url, 'ada');
      expect(await who(trusting, ownTokens.authorization)).toMatch(/^401 .*error="invalid_token"/);
    } finally {
      await trusting.close();
    }
  });

  it('a provider that cannot be reached refuses every token (401), and says why on the console', async () => {
    const lost = await startServer({ port: 0, delayMs: 0, distDir: null, issuer: 'http://127.0.0.1:9/oidc' });
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      const ada = await signInAs(server.url, 'ada');
      expect(await who(lost, ada.authorization)).toMatch(/^401 .*error="invalid_token"/);
      expect(errors.join('\n')).toMatch(/identity provider's keys cannot be read/);
    } finally {
      console.error = original;
      await lost.close();
    }
  });
});

describe('the pages in the member’s language', () => {
  it('follow the ui_locales the app sends, else the browser’s Accept-Language', async () => {
    const open = async (extra: Record<string, string>, headers: Record<string, string> = {}) => {
      const start = await authorize(extra, headers);
      const page = await fetch(new URL(start.headers.get('location')!, server.url), { headers: { ...headers, cookie: cookiesOf(start) } });
      return page.text();
    };
    const french = await open({ ui_locales: 'fr' }, { 'accept-language': 'de' });
    expect(french).toMatch(/<html lang="fr">/);
    expect(french).toContain('<label for="password">Mot de passe</label>');
    const chinese = await open({}, { 'accept-language': 'zh-CN,zh;q=0.9' });
    expect(chinese).toMatch(/<html lang="zh-Hans">/);
    expect(chinese).toContain('<button type="submit" class="primary">登录</button>');
    expect(await open({})).toMatch(/<html lang="en">/);
  });
});
