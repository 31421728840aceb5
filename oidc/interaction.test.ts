// @vitest-environment node
/**
 * The sign-in page of an authorization, as a member uses it: the form in the language asked for,
 * a wrong password, failed attempts slowed and then refused, the form's size and its pieces, the
 * steps the page answers. Each test starts its own server.
 */
import { createServer, request, type Server } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../server/index.ts';
import { PAGE_MESSAGES } from './messages.ts';
import { openSignIn, parts, postForm, serverPerTest } from './provider.test-support.ts';
import { signInAs } from './sign-in-flow.ts';

const start = serverPerTest();

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
