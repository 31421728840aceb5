// @vitest-environment node
/**
 * The tokens the embedded provider issues and the sessions it keeps, as its configuration sets
 * them: the claims, the audience and scope of access tokens, the signing key, PKCE, the lifetimes,
 * renewal without rotation, revocation of a grant's tokens, and RP-initiated sign-out. Each test
 * starts its own server.
 */
import { createHash, randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../server/index.ts';
import { PAGE_MESSAGES } from './messages.ts';
import { cookiesOf, openSignIn, parts, postForm, serverPerTest } from './provider.test-support.ts';
import { refresh, signInAs } from './sign-in-flow.ts';

const start = serverPerTest();

/** Where an answer redirects to, resolved against the server. */
const locationOf = (on: RunningServer, response: Response) => new URL(response.headers.get('location') ?? '', on.url);

/**
 * An authorization as the app makes it once the member has a session at the provider: the
 * session's cookies go with it, and with prompt=none it must come back without a page.
 */
async function authorizeAgain(on: RunningServer, cookies: string) {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: 'circle-web',
    response_type: 'code',
    scope: 'openid profile email offline_access',
    redirect_uri: `${on.url}/auth/callback`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    prompt: 'none',
  });
  let answer = await fetch(`${on.url}/oidc/auth?${query}`, { redirect: 'manual', headers: { cookie: cookies } });
  // oidc-provider may resume once on its own path before sending the member back.
  while (locationOf(on, answer).pathname.startsWith('/oidc/')) {
    answer = await fetch(locationOf(on, answer), { redirect: 'manual', headers: { cookie: cookies } });
  }
  const back = locationOf(on, answer);
  const code = back.searchParams.get('code');
  if (!code) return { back, body: null };
  const token = await fetch(`${on.url}/oidc/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: `${on.url}/auth/callback`,
      client_id: 'circle-web',
      code_verifier: verifier,
    }),
  });
  return { back, body: (await token.json()) as Record<string, unknown> };
}
describe('sign-in and its tokens', () => {
  it('the ID token names the member and their verified e-mail; the access token is for the API, with its one scope', async () => {
    const on = await start();
    const ada = await signInAs(on.url, 'ada');
    expect(decodeJwt(ada.idToken)).toMatchObject({
      iss: `${on.url}/oidc`,
      aud: 'circle-web',
      sub: 'ada',
      name: 'Ada Lovelace',
      preferred_username: 'ada',
      email: 'ada@circle.example.org',
      email_verified: true,
    });
    expect(decodeJwt(ada.accessToken)).toMatchObject({ sub: 'ada', aud: `${on.url}/api`, scope: 'profile', client_id: 'circle-web' });
    expect(ada.refreshToken).not.toBe('');
    expect(
      await on.authenticate(new Request(`${on.url}/api/user/profile/myprofile`, { headers: { authorization: ada.authorization } })),
    ).toEqual({
      subject: 'ada',
      roles: ['member', 'admin'],
    });
  });

  it("both tokens carry the member's roles: ada is an admin, grace a member; a renewal carries them again", async () => {
    const on = await start();
    const [ada, grace] = [await signInAs(on.url, 'ada'), await signInAs(on.url, 'grace')];
    expect(decodeJwt(ada.idToken).roles).toEqual(['member', 'admin']);
    expect(decodeJwt(ada.accessToken).roles).toEqual(['member', 'admin']);
    expect(decodeJwt(grace.idToken).roles).toEqual(['member']);
    expect(decodeJwt(grace.accessToken).roles).toEqual(['member']);
    const renewed = await refresh(on.url, grace.refreshToken);
    expect(decodeJwt(renewed.accessToken).roles).toEqual(['member']);
    expect(decodeJwt(renewed.idToken).roles).toEqual(['member']);
  });

  it('a token made on localhost is good for the API on localhost, and the other way round', async () => {
    const on = await start();
    const local = on.url.replace('127.0.0.1', 'localhost');
    const numeric = await signInAs(on.url, 'ada');
    const named = await signInAs(local, 'grace');
    expect(decodeJwt(named.accessToken)).toMatchObject({ iss: `${local}/oidc`, aud: `${local}/api` });
    const who = async (authorization: string) =>
      (await on.authenticate(new Request(`${on.url}/api/user/profile/myprofile`, { headers: { authorization } }))).subject;
    expect(await who(numeric.authorization)).toBe('ada');
    expect(await who(named.authorization)).toBe('grace');
  });

  it('publishes the public half of its signing key: EC P-256 for ES256 signatures, under the kid its tokens name', async () => {
    const on = await start();
    const ada = await signInAs(on.url, 'ada');
    const { kid } = JSON.parse(Buffer.from(ada.idToken.split('.')[0]!, 'base64url').toString()) as { kid: string };
    const { keys } = (await (await fetch(`${on.url}/oidc/jwks`)).json()) as { keys: Record<string, unknown>[] };
    expect(keys).toEqual([{ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid, alg: 'ES256', use: 'sig' }]);
  });

  it('requires PKCE: a request without a code challenge goes back to the app with an error', async () => {
    const on = await start();
    const query = new URLSearchParams({
      client_id: 'circle-web',
      response_type: 'code',
      scope: 'openid',
      redirect_uri: `${on.url}/auth/callback`,
    });
    const back = locationOf(on, await fetch(`${on.url}/oidc/auth?${query}`, { redirect: 'manual' }));
    expect(back.pathname).toBe('/auth/callback');
    expect(back.searchParams.get('error')).toBe('invalid_request');
  });

  it('cancelling goes back to the app with access_denied and says the sign-in was cancelled', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on);
    const abort = await fetch(`${page.href}/abort`, { redirect: 'manual', headers: { cookie } });
    const both = `${cookie}; ${cookiesOf(abort)}`;
    let answer = abort;
    while (locationOf(on, answer).pathname.startsWith('/oidc/'))
      answer = await fetch(locationOf(on, answer), { redirect: 'manual', headers: { cookie: both } });
    const back = locationOf(on, answer);
    expect(back.pathname).toBe('/auth/callback');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBe('The sign-in was cancelled');
  });

  it('a member who cancels and then signs in on the same page after all is signed in', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on);
    await fetch(`${page.href}/abort`, { redirect: 'manual', headers: { cookie } });
    const login = await postForm(`${page.href}/login`, cookie, 'username=ada&password=circle');
    expect(login.status).toBe(303);
    const both = `${cookie}; ${cookiesOf(login)}`;
    let answer = login;
    while (locationOf(on, answer).pathname.startsWith('/oidc/'))
      answer = await fetch(locationOf(on, answer), { redirect: 'manual', headers: { cookie: both } });
    const back = locationOf(on, answer);
    expect(back.searchParams.get('error')).toBeNull();
    expect(back.searchParams.get('code')).toMatch(/\w/);
  });

  it('a sign-in page left open longer than 10 minutes has expired', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 9 * 60_000 });
    expect((await fetch(page, { headers: { cookie } })).status).toBe(200);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    const late = await postForm(`${page.href}/login`, cookie, 'username=ada&password=circle');
    expect(late.status).toBe(400);
    expect(parts(await late.text()).heading).toBe(PAGE_MESSAGES.en.expiredTitle);
  });

  it('the session’s cookies are signed: one with another’s signature is refused', async () => {
    const on = await start();
    const first = await openSignIn(on);
    const second = await openSignIn(on);
    const named = (cookie: string) => Object.fromEntries(cookie.split('; ').map((c) => c.split('=') as [string, string]));
    const [a, b] = [named(first.cookie), named(second.cookie)];
    const signatures = Object.keys(a).filter((name) => name.endsWith('.sig'));
    expect(signatures.length).toBeGreaterThan(0);
    const mixed = Object.entries(b)
      .map(([name, value]) => `${name}=${name.endsWith('.sig') ? a[name] : value}`)
      .join('; ');
    expect((await fetch(second.page, { headers: { cookie: mixed } })).status).toBe(400);
    expect((await fetch(second.page, { headers: { cookie: second.cookie } })).status).toBe(200);
  });
});

describe('the session, renewal and sign-out', () => {
  it('a refresh token is not rotated: it renews again and again, and comes back unchanged', async () => {
    const on = await start();
    const ada = await signInAs(on.url, 'ada');
    const renew = () =>
      fetch(`${on.url}/oidc/token`, {
        method: 'POST',
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: ada.refreshToken, client_id: 'circle-web' }),
      });
    for (const answer of [await renew(), await renew()]) {
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as Record<string, unknown>;
      expect(body.refresh_token).toBe(ada.refreshToken);
      expect(decodeJwt(String(body.access_token)).sub).toBe('ada');
    }
  });

  it('the session, its refresh token and its grant last 14 days', async () => {
    const on = await start();
    const ada = await signInAs(on.url, 'ada');
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 13 * 24 * 3600_000 });
    expect((await refresh(on.url, ada.refreshToken)).idToken).not.toBe('');
    const again = await authorizeAgain(on, ada.cookies);
    expect(again.back.searchParams.get('error')).toBeNull();
    expect(decodeJwt(String(again.body?.access_token)).sub).toBe('ada');
    vi.setSystemTime(Date.now() + 2 * 24 * 3600_000);
    await expect(refresh(on.url, ada.refreshToken)).rejects.toThrow(/invalid_grant/);
  });

  it('revoking one refresh token revokes the others of the same grant, given by the same session', async () => {
    const on = await start();
    const first = await signInAs(on.url, 'ada');
    const second = await authorizeAgain(on, first.cookies);
    const secondRefresh = String(second.body?.refresh_token);
    expect(secondRefresh).not.toBe(first.refreshToken);
    expect((await refresh(on.url, secondRefresh)).accessToken).not.toBe('');
    const revoked = await fetch(`${on.url}/oidc/token/revocation`, {
      method: 'POST',
      body: new URLSearchParams({ token: first.refreshToken, token_type_hint: 'refresh_token', client_id: 'circle-web' }),
    });
    expect(revoked.status).toBe(200);
    await expect(refresh(on.url, secondRefresh)).rejects.toThrow(/invalid_grant/);
  });

  it('signing in again through the session shares its grant: signing out ends the refresh tokens of both', async () => {
    const on = await start();
    const first = await signInAs(on.url, 'ada');
    const second = await authorizeAgain(on, first.cookies);
    const secondRefresh = String(second.body?.refresh_token);
    expect(decodeJwt(String(second.body?.id_token)).sub).toBe('ada');
    const end = await fetch(
      `${on.url}/oidc/session/end?${new URLSearchParams({ id_token_hint: first.idToken, post_logout_redirect_uri: `${on.url}/` })}`,
      {
        headers: { cookie: first.cookies },
      },
    );
    expect(end.status).toBe(200);
    const html = await end.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
    const fields = [...html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)"/g)].map(([, n, v]) => [n!, v!]);
    const confirm = await fetch(new URL(action, on.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: [first.cookies, cookiesOf(end)].filter(Boolean).join('; ') },
      body: new URLSearchParams([...fields, ['logout', 'yes']]),
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${on.url}/`);
    await expect(refresh(on.url, first.refreshToken)).rejects.toThrow(/invalid_grant/);
    await expect(refresh(on.url, secondRefresh)).rejects.toThrow(/invalid_grant/);
  });
});

describe('RP-initiated sign-out', () => {
  /** The provider's sign-out endpoint as the app calls it, with the session's cookies. */
  const endSession = (on: RunningServer, cookies: string, idTokenHint?: string) =>
    fetch(
      `${on.url}/oidc/session/end?${new URLSearchParams({
        ...(idTokenHint ? { id_token_hint: idTokenHint } : { client_id: 'circle-web' }),
        post_logout_redirect_uri: `${on.url}/`,
        ui_locales: 'de',
      })}`,
      { headers: { cookie: cookies } },
    );

  it("asked with the member's own ID token (the app has signed out): goes on by itself, with one script its policy allows by hash", async () => {
    const on = await start();
    const ada = await signInAs(on.url, 'ada');
    const end = await endSession(on, ada.cookies, ada.idToken);
    expect(end.status).toBe(200);
    const html = await end.text();
    expect(parts(html).heading).toBe(PAGE_MESSAGES.de.signingOut);
    expect(html).not.toContain(PAGE_MESSAGES.de.signOutHeading('Circle'));
    expect(html).not.toContain(PAGE_MESSAGES.de.staySignedIn);
    const script = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(script).toContain('op.logoutForm');
    const hash = createHash('sha256').update(script).digest('base64');
    expect(end.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; script-src 'sha256-${hash}'`,
    );
    // What the script sends: the provider's form with logout=yes; the session ends and the app is next.
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
    const xsrf = /name="xsrf" value="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(html).toContain('<input type="hidden" form="op.logoutForm" name="logout" value="yes">');
    const confirm = await fetch(new URL(action, on.url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: [ada.cookies, cookiesOf(end)].filter(Boolean).join('; ') },
      body: new URLSearchParams({ xsrf, logout: 'yes' }),
    });
    expect([confirm.status, confirm.headers.get('location')]).toEqual([303, `${on.url}/`]);
    await expect(refresh(on.url, ada.refreshToken)).rejects.toThrow(/invalid_grant/);
  });

  it("asked without an ID token, or with another member's: asks first, under the strict policy (no script)", async () => {
    const on = await start();
    const ada = await signInAs(on.url, 'ada');
    const grace = await signInAs(on.url, 'grace');
    for (const hint of [undefined, grace.idToken]) {
      const end = await endSession(on, ada.cookies, hint);
      const html = await end.text();
      expect(parts(html).heading, String(hint)).toBe(PAGE_MESSAGES.de.signOutHeading('Circle'));
      expect(html).not.toContain('<script>');
      expect(end.headers.get('content-security-policy')).not.toContain('script-src');
    }
  });
});
