// @vitest-environment node
/**
 * The embedded provider's own answers that the contract tests leave out: its pages in each
 * language, the interaction's failure pages, its error page, the signed-out page, CORS on the
 * token endpoint and the paths at its mount point. Each test starts its own server.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import { decodeJwt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer, type ServerOptions } from '../server/index.ts';
import { PAGE_MESSAGES } from './messages.ts';
import { refresh, signInAs } from './sign-in-flow.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await server?.close();
  server = undefined;
});

async function start(options: ServerOptions = {}): Promise<RunningServer> {
  // The server loads the provider as it starts: a fresh module graph evaluates its constants (client, scopes, page headers) again.
  vi.resetModules();
  server = await startServer({ port: 0, delayMs: 0, distDir: null, ...options });
  return server;
}

const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/** An authorization request as the app makes it: the sign-in page's URL and the cookie that goes with it. */
async function openSignIn(on: RunningServer, params: Record<string, string> = {}): Promise<{ page: URL; cookie: string }> {
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

const postForm = (url: string, cookie: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });

/** What a page says, as the member reads it: title, heading and alert. */
function parts(html: string) {
  return {
    lang: /<html lang="([^"]+)">/.exec(html)?.[1],
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    heading: /<h1>([^<]*)<\/h1>/.exec(html)?.[1],
    alert: /role="alert">([^<]*)</.exec(html)?.[1],
  };
}

describe('repeated failed sign-ins', () => {
  const QUICK = { baseDelayMs: 40, maxDelayMs: 80, lockMs: 120_000 };

  it('are answered slower after the first few, then refused with 429 and Retry-After, the right password too', async () => {
    // The clock stands still (timers still run): the lock's 120 s are whole when the refusal counts them.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-20T10:00:00Z') });
    const on = await start({ signInThrottle: QUICK });
    const { page, cookie } = await openSignIn(on, { ui_locales: 'en' });
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      const answer = await postForm(`${page.href}/login`, cookie, 'username=ada&password=wrong');
      times.push(performance.now() - started);
      expect(answer.status).toBe(200);
      expect(parts(await answer.text()).alert).toBe(PAGE_MESSAGES.en.failed);
    }
    expect(Math.min(...times.slice(3))).toBeGreaterThanOrEqual(35);
    const refused = await postForm(`${page.href}/login`, cookie, 'username=ada&password=circle');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('120');
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(parts(await refused.text()).alert).toBe(PAGE_MESSAGES.en.throttled(2));
    // The refusal signed no one in: no redirect onwards.
    expect(refused.headers.get('location')).toBeNull();
  });

  it('tell no one which names exist: a name no member has is answered and refused the same way', async () => {
    /** Eleven wrong passwords for `name` on a server of its own (the client's count starts afresh): status and alert of each. */
    const shape = async (name: string) => {
      const on = await start({ signInThrottle: { ...QUICK, baseDelayMs: 1, maxDelayMs: 1 } });
      const { page, cookie } = await openSignIn(on);
      const answers: Array<[number, string | undefined]> = [];
      for (let i = 0; i < 11; i++) {
        const answer = await postForm(`${page.href}/login`, cookie, `username=${name}&password=wrong`);
        answers.push([answer.status, parts(await answer.text()).alert]);
      }
      await on.close();
      return answers;
    };
    const grace = await shape('grace');
    expect(await shape('nobody')).toEqual(grace);
    expect(grace.at(-1)).toEqual([429, PAGE_MESSAGES.en.throttled(2)]);
  });

  it('from one client, are counted across the names it tries', async () => {
    const on = await start({ signInThrottle: { ...QUICK, baseDelayMs: 1, maxDelayMs: 1 } });
    const { page, cookie } = await openSignIn(on);
    for (let i = 0; i < 10; i++) await postForm(`${page.href}/login`, cookie, `username=guess${i}&password=wrong`);
    expect((await postForm(`${page.href}/login`, cookie, 'username=linus&password=circle')).status).toBe(429);
  });
});

describe('the sign-in form', () => {
  it('a wrong password shows the form again, in the language asked for, with the name kept', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on, { ui_locales: 'de' });
    const answer = await postForm(`${page.href}/login`, cookie, 'username=grace&password=nope');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const html = await answer.text();
    expect(parts(html)).toEqual({
      lang: 'de',
      title: `${PAGE_MESSAGES.de.signInTitle} · Circle`,
      heading: PAGE_MESSAGES.de.signInHeading('Circle'),
      alert: PAGE_MESSAGES.de.failed,
    });
    expect(html).toMatch(/id="username"[^>]*value="grace" aria-invalid="true"/);
    expect(html).toContain(`action="/oidc/interaction/${page.pathname.split('/').pop()}/login"`);
  });

  it('a form without a name keeps the name field empty', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on);
    const html = await (await postForm(`${page.href}/login`, cookie, 'password=circle')).text();
    expect(html).toMatch(/id="username"[^>]*value=""/);
    expect(parts(html).alert).toBe(PAGE_MESSAGES.en.failed);
  });

  it('the right password goes on to the app with a code', async () => {
    const on = await start();
    const tokens = await signInAs(on.url, 'linus');
    expect(tokens.authorization).toMatch(/^Bearer /);
  });

  it('a form larger than 4 KB is cut off: the connection closes and nobody is signed in', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on);
    await expect(postForm(`${page.href}/login`, cookie, `username=ada&password=circle&pad=${'x'.repeat(5000)}`)).rejects.toThrow();
    // The same sign-in still waits for the form: a small one is answered.
    const retry = await postForm(`${page.href}/login`, cookie, 'username=ada&password=wrong');
    expect(retry.status).toBe(200);
  });

  it('a form of exactly 4 KB is still read', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on);
    const fields = 'username=ada&password=wrong&pad=';
    const answer = await postForm(`${page.href}/login`, cookie, `${fields}${'x'.repeat(4096 - fields.length)}`);
    expect(answer.status).toBe(200);
    expect(parts(await answer.text()).alert).toBe(PAGE_MESSAGES.en.failed);
  });

  it('answers only GET on the page and POST on its form: anything else is "not allowed", in the language asked for', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on, { ui_locales: 'fr' });
    for (const answer of [
      await fetch(`${page.href}/login`, { headers: { cookie } }),
      await postForm(page.href, cookie, 'username=ada&password=circle'),
    ]) {
      expect(answer.status).toBe(405);
      expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
      const html = await answer.text();
      expect(parts(html)).toEqual({
        lang: 'fr',
        title: `${PAGE_MESSAGES.fr.notAllowedTitle} · Circle`,
        heading: PAGE_MESSAGES.fr.notAllowedTitle,
        alert: PAGE_MESSAGES.fr.notAllowedDetail,
      });
      expect(html).toContain('<a href="/">');
    }
  });

  it('a sign-in page without its session, or of another session, has expired (400), in the browser’s language', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on);
    const uid = page.pathname.split('/').pop();
    const answers = [
      await fetch(page, { headers: { 'accept-language': 'es' } }),
      await fetch(`${on.url}/oidc/interaction/another-${uid}`, { headers: { cookie, 'accept-language': 'es' } }),
      await postForm(`${page.href}/login`, '', 'username=ada&password=circle', { 'accept-language': 'es' }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(parts(await answer.text())).toEqual({
        lang: 'es',
        title: `${PAGE_MESSAGES.es.expiredTitle} · Circle`,
        heading: PAGE_MESSAGES.es.expiredTitle,
        alert: PAGE_MESSAGES.es.expiredDetail,
      });
    }
  });
});

describe('the provider’s other pages', () => {
  it('an authorization request it cannot send back shows "sign-in failed" with the protocol’s reason', async () => {
    const on = await start();
    const answer = await fetch(`${on.url}/oidc/auth?client_id=nobody&ui_locales=zh-Hans`, { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await answer.text();
    expect(parts(html)).toEqual({
      lang: 'zh-Hans',
      title: `${PAGE_MESSAGES['zh-Hans'].failedTitle} · Circle`,
      heading: PAGE_MESSAGES['zh-Hans'].failedTitle,
      alert: PAGE_MESSAGES['zh-Hans'].failedDetail,
    });
    expect(html).toContain(`<summary>${PAGE_MESSAGES['zh-Hans'].technical}</summary><p><code>invalid_client: client is invalid</code>`);
    expect(html).toContain('<a href="/">');
  });

  it('an authorization resumed that the provider no longer knows: "sign-in failed", in the language of its address', async () => {
    const on = await start();
    const answer = await fetch(`${on.url}/oidc/auth/gone?ui_locales=fr`, { headers: { accept: 'text/html' } });
    expect(answer.status).toBe(400);
    expect(parts(await answer.text())).toMatchObject({ lang: 'fr', heading: PAGE_MESSAGES.fr.failedTitle });
  });

  it('after signing out without a way back to the app: the signed-out page, linking home', async () => {
    const on = await start();
    for (const [query, headers, language] of [
      ['', {}, 'en'],
      ['?ui_locales=fr', { 'accept-language': 'de' }, 'fr'],
      ['', { 'accept-language': 'es;q=0.5, de' }, 'de'],
    ] as const) {
      const answer = await fetch(`${on.url}/oidc/session/end/success${query}`, { headers });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await answer.text();
      const m = PAGE_MESSAGES[language];
      expect(parts(html)).toMatchObject({ lang: language, title: `${m.signedOutTitle} · Circle`, heading: m.signedOutHeading });
      expect(html).toContain(`<p><a href="/">${m.back}</a></p>`);
    }
  });

  it('the token endpoint allows calls from the app’s own origin only', async () => {
    const on = await start();
    const exchange = (origin: string) =>
      fetch(`${on.url}/oidc/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'unknown', client_id: 'circle-web' }),
      });
    const own = await exchange(on.url);
    expect(own.headers.get('access-control-allow-origin')).toBe(on.url);
    expect(((await own.json()) as { error: string }).error).toBe('invalid_grant');
    const port = new URL(on.url).port;
    for (const origin of ['http://evil.example', `http://localhost:${port}`]) {
      const foreign = await exchange(origin);
      expect(foreign.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect(await foreign.json(), origin).toEqual({
        error: 'invalid_request',
        error_description: `origin ${origin} not allowed for client: circle-web`,
      });
    }
  });

  it('the bare mount point, with or without a query, is not found (not a server error)', async () => {
    const on = await start();
    for (const path of ['/oidc', '/oidc?ui_locales=fr', '/oidc/']) {
      const answer = await fetch(`${on.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('x-frame-options'), path).toBe('DENY');
    }
    const discovery = await fetch(`${on.url}/oidc/.well-known/openid-configuration?x=1`);
    expect(discovery.status).toBe(200);
  });
});

/** What a header-less fetch cannot do: ask with another Host header. */
function askAs(on: RunningServer, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    request(`${on.url}${path}`, { headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
    })
      .on('error', fail)
      .end();
  });
}

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

describe('the pages’ protection', () => {
  it('the sign-in page: a strict policy, no sniffing, no referrer, no framing, no caching, no opener, and a way to cancel', async () => {
    const on = await start();
    const { page, cookie } = await openSignIn(on);
    const answer = await fetch(page, { headers: { cookie } });
    expect(answer.status).toBe(200);
    expect(
      Object.fromEntries(
        [
          'content-security-policy',
          'x-content-type-options',
          'referrer-policy',
          'x-frame-options',
          'cache-control',
          'cross-origin-opener-policy',
          'cross-origin-resource-policy',
        ].map((h) => [h, answer.headers.get(h)]),
      ),
    ).toEqual({
      'content-security-policy':
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    });
    const html = await answer.text();
    expect(parts(html)).toMatchObject({
      title: `${PAGE_MESSAGES.en.signInTitle} · Circle`,
      heading: PAGE_MESSAGES.en.signInHeading('Circle'),
    });
    expect(html).toContain(`<a href="${page.pathname}/abort" class="secondary">${PAGE_MESSAGES.en.cancel}</a>`);
  });

  it('the stylesheet: CSS, revalidated, not sniffed', async () => {
    const on = await start();
    const css = await fetch(`${on.url}/oidc/assets/pages.css`);
    expect(css.status).toBe(200);
    expect(
      ['content-type', 'cache-control', 'x-content-type-options', 'cross-origin-resource-policy'].map((h) => css.headers.get(h)),
    ).toEqual(['text/css; charset=utf-8', 'no-cache', 'nosniff', 'same-origin']);
  });

  it('a host or port the server is not: 421, in the language asked for, linking home', async () => {
    const on = await start();
    const port = Number(new URL(on.url).port);
    // A name the server does not answer to is refused before the provider sees it, as every path is (JSON).
    const named = await askAs(on, `evil.example:${port}`, '/oidc/.well-known/openid-configuration?ui_locales=fr');
    expect([named.status, JSON.parse(named.body).status]).toEqual([421, 421]);
    for (const host of [`127.0.0.1:${port + 1}`]) {
      const answer = await askAs(on, host, '/oidc/.well-known/openid-configuration?ui_locales=fr');
      expect(answer.status, host).toBe(421);
      expect(parts(answer.body), host).toEqual({
        lang: 'fr',
        title: `${PAGE_MESSAGES.fr.unknownHostTitle} · Circle`,
        heading: PAGE_MESSAGES.fr.unknownHostTitle,
        alert: PAGE_MESSAGES.fr.unknownHostDetail(port),
      });
      expect(answer.body, host).toContain('<a href="/">');
    }
    const local = await askAs(on, `localhost:${port}`, '/oidc/.well-known/openid-configuration');
    expect(JSON.parse(local.body)).toMatchObject({ issuer: `http://localhost:${port}/oidc` });
  });

  it('the expired page follows the ui_locales of its address and links home', async () => {
    const on = await start();
    const answer = await fetch(`${on.url}/oidc/interaction/gone?ui_locales=de`);
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(parts(html)).toMatchObject({ lang: 'de', heading: PAGE_MESSAGES.de.expiredTitle });
    expect(html).toContain('<a href="/">');
  });

  it('only /oidc/interaction/<id>, /login and /abort are sign-in steps: other paths are the provider’s (404)', async () => {
    const on = await start();
    for (const path of ['/oidc/other/oidc/interaction/abc', '/oidc/interaction/abc/other', '/oidc/interaction/abc/login/more']) {
      expect((await fetch(`${on.url}${path}`)).status, path).toBe(404);
    }
  });

  it('starts and signs in without a development-only warning on the console', async () => {
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const on = await start();
    await signInAs(on.url, 'ada');
    expect(warnings.mock.calls.flat().join('\n')).not.toMatch(/oidc-provider/);
  });
});

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
      scopes: ['profile'],
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

describe('a provider made for the host names the server listens on', () => {
  let own: Server | undefined;
  afterEach(async () => {
    await new Promise((done) => own?.close(done) ?? done(undefined));
    own = undefined;
  });

  /** A provider on a server of its own; the statuses of its discovery document for each Host header. */
  async function statuses(hosts: string[] | undefined, asked: string[]): Promise<Record<string, number>> {
    vi.resetModules();
    const { createEmbeddedProvider } = await import('./provider.ts');
    let provider: Awaited<ReturnType<typeof createEmbeddedProvider>> | undefined;
    own = createServer((req, res) => void provider?.handle(req, res, `http://${req.headers.host}`));
    await new Promise<void>((done) => own!.listen(0, '127.0.0.1', done));
    const port = (own.address() as { port: number }).port;
    provider = await createEmbeddedProvider(port, hosts ? { hosts } : {});
    const on = { url: `http://127.0.0.1:${port}` } as RunningServer;
    const answers: Record<string, number> = {};
    for (const host of asked) {
      const answer = await askAs(on, `${host}:${port}`, '/oidc/.well-known/openid-configuration');
      answers[host] = answer.status;
      if (answer.status === 200) expect(JSON.parse(answer.body), host).toMatchObject({ issuer: `http://${host}:${port}/oidc` });
    }
    return answers;
  }

  it('answers on 127.0.0.1 and localhost, and on the names it is given besides', async () => {
    const asked = ['127.0.0.1', 'localhost', 'circle.test', 'other.test'];
    expect(await statuses(['circle.test'], asked)).toEqual({ '127.0.0.1': 200, localhost: 200, 'circle.test': 200, 'other.test': 421 });
    await new Promise((done) => own!.close(done));
    own = undefined;
    expect(await statuses(undefined, asked)).toEqual({ '127.0.0.1': 200, localhost: 200, 'circle.test': 421, 'other.test': 421 });
  });

  it('keeps the providers of the loopback names and its own names, and at most 16 of any other name, the one used longest ago dropped', async () => {
    vi.resetModules();
    const { createEmbeddedProvider, MAX_OTHER_PROVIDERS } = await import('./provider.ts');
    expect(MAX_OTHER_PROVIDERS).toBe(16);
    let provider: Awaited<ReturnType<typeof createEmbeddedProvider>> | undefined;
    own = createServer((req, res) => void provider?.handle(req, res, `http://${req.headers.host}`));
    await new Promise<void>((done) => own!.listen(0, '127.0.0.1', done));
    const port = (own.address() as { port: number }).port;
    provider = await createEmbeddedProvider(port, { hosts: ['circle.test'], allowHost: () => true });
    const on = { url: `http://127.0.0.1:${port}` } as RunningServer;
    const visit = async (host: string) =>
      expect((await askAs(on, `${host}:${port}`, '/oidc/.well-known/openid-configuration')).status).toBe(200);
    const kept = (host: string) => provider!.audienceOfIssuer(`http://${host}:${port}/oidc`) !== null;

    for (const host of ['127.0.0.1', 'localhost', '[::1]', 'circle.test', 'first.localhost', 'second.localhost']) await visit(host);
    // Used again: now the latest, not the oldest.
    for (let i = 0; i < MAX_OTHER_PROVIDERS - 2; i++) await visit(`n${i}.localhost`);
    await visit('first.localhost');
    await visit('10.0.0.9');
    expect(kept('first.localhost')).toBe(true);
    expect(kept('second.localhost')).toBe(false);
    for (let i = 0; i < 300; i++) await visit(`flood${i}.localhost`);
    expect(['127.0.0.1', 'localhost', '[::1]', 'circle.test'].map(kept)).toEqual([true, true, true, true]);
    expect(kept('first.localhost')).toBe(false);
    expect(kept('flood299.localhost')).toBe(true);
    expect(kept('flood283.localhost')).toBe(false);
    // Over 300 providers are made and dropped: seconds of CPU on a busy two-core machine.
  }, 60_000);
});

describe('the sign-in form as it arrives, in pieces', () => {
  interface Form {
    /** Settles once the provider has read the form's first piece. */
    firstPiece: Promise<void>;
    /** The provider's handling of the form, settled once it is done with the request. */
    handled: Promise<void>;
  }
  let own: Server | undefined;
  afterEach(async () => {
    own?.closeAllConnections();
    await new Promise((done) => own?.close(done) ?? done(undefined));
    own = undefined;
  });

  /** A provider on a server of its own, which tells when a posted form's first piece is read and when its handling ends. */
  async function formServer(): Promise<{ on: RunningServer; nextForm(): Promise<Form> }> {
    vi.resetModules();
    const { createEmbeddedProvider } = await import('./provider.ts');
    let provider: Awaited<ReturnType<typeof createEmbeddedProvider>> | undefined;
    let posted: ((form: Form) => void) | undefined;
    own = createServer((req, res) => {
      let read: () => void = () => {};
      const firstPiece = new Promise<void>((done) => (read = done));
      const emit = req.emit.bind(req);
      req.emit = ((event: string | symbol, ...args: unknown[]) => {
        if (event === 'data') read();
        return emit(event, ...args);
      }) as typeof req.emit;
      const handled = provider!.handle(req, res, `http://${req.headers.host}`);
      if (req.method === 'POST') posted?.({ firstPiece, handled });
    });
    await new Promise<void>((done) => own!.listen(0, '127.0.0.1', done));
    const port = (own.address() as { port: number }).port;
    provider = await createEmbeddedProvider(port);
    return {
      on: { url: `http://127.0.0.1:${port}` } as RunningServer,
      nextForm: () => new Promise<Form>((done) => (posted = done)),
    };
  }

  /** A form post whose body the test writes itself; its answer's status and page. */
  function post(url: string, cookie: string, length: number) {
    const sending = request(url, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(length) },
    });
    const answer = new Promise<{ status: number; html: string }>((done, fail) => {
      sending.on('error', fail).on('response', (res) => {
        let html = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (html += chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, html }));
      });
    });
    return { sending, answer };
  }

  it('a character whose bytes come in two pieces is read whole', async () => {
    const { on, nextForm } = await formServer();
    const { page, cookie } = await openSignIn(on);
    // Sent as written, as curl --data does: the name's ë is two bytes, cut between them.
    const body = Buffer.from('username=Zoë&password=wrong');
    const cut = body.indexOf(0xc3) + 1;
    const form = nextForm();
    const { sending, answer } = post(`${page.href}/login`, cookie, body.length);
    sending.write(body.subarray(0, cut));
    await (await form).firstPiece;
    sending.end(body.subarray(cut));
    const { status, html } = await answer;
    expect(status).toBe(200);
    expect(html).toMatch(/id="username"[^>]*value="Zoë" aria-invalid="true"/);
  });

  it('a form the browser stops sending midway is given up, and the sign-in still waits for the form', async () => {
    const { on, nextForm } = await formServer();
    const { page, cookie } = await openSignIn(on);
    const form = nextForm();
    const { sending, answer } = post(`${page.href}/login`, cookie, 100);
    answer.catch(() => {});
    sending.write('username=ada&pass');
    const { firstPiece, handled } = await form;
    await firstPiece;
    sending.destroy();
    // The provider stops waiting for the rest: nothing is left pending for a connection that is gone.
    await expect(handled).resolves.toBeUndefined();
    const retry = await postForm(`${page.href}/login`, cookie, 'username=ada&password=wrong');
    expect(retry.status).toBe(200);
    expect(parts(await retry.text()).alert).toBe(PAGE_MESSAGES.en.failed);
  });
});
