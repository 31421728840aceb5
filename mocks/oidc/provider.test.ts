// @vitest-environment node
/**
 * The embedded provider's own answers that the contract tests leave out: its pages in each
 * language, the interaction's failure pages, its error page, the signed-out page, CORS on the
 * token endpoint and the paths at its mount point. Each test starts its own server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server.ts';
import { PAGE_MESSAGES } from './messages.ts';
import { signInAs } from './sign-in-flow.ts';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<RunningServer> {
  server = await startServer({ port: 0, delayMs: 0, distDir: null });
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
