// @vitest-environment node
/**
 * The embedded provider's own answers that the contract tests leave out: its pages' protection,
 * its error page, the signed-out page, CORS on the token endpoint, the paths at its mount point,
 * and the providers it makes for the names the server answers to. Each test starts its own server.
 */
import { createServer, request, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../server/index.ts';
import { PAGE_MESSAGES } from './messages.ts';
import { openSignIn, parts, serverPerTest } from './provider.test-support.ts';
import { signInAs } from './sign-in-flow.ts';

const start = serverPerTest();

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
