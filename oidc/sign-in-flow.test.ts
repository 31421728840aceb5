// @vitest-environment node
/**
 * How signInAs and refresh fail, against a stand-in provider whose every answer a test chooses:
 * the messages are what `npm run token`, `npm run verify` and the tests print.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { refresh, SignInError, signInAs } from './sign-in-flow.ts';

type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

let fake: Server | undefined;
afterEach(async () => {
  await new Promise((done) => fake?.close(done) ?? done(undefined));
  fake = undefined;
});

/** A provider answering by path ("GET /oidc/auth"); what it is not told to answer is 404. */
async function provider(routes: Record<string, Route>): Promise<string> {
  fake = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const route = routes[`${req.method} ${url.pathname}`];
    if (route) route(req, res, url);
    else res.writeHead(404).end();
  });
  await new Promise<void>((done) => fake!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
}

const redirect = (res: ServerResponse, location: string, cookie?: string) =>
  res.writeHead(303, { location, ...(cookie ? { 'set-cookie': cookie } : {}) }).end();
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

interface FlowOptions {
  /** The status of the authorization request's redirect to the sign-in page. */
  status?: number;
  /** The cookie lines that redirect sets. */
  cookies?: string[];
  /** How many times the provider redirects to itself after the form before going back to the app. */
  resumes?: number;
  /** Counts those redirects. */
  seen?: { resumes: number };
}

/** The happy path up to the code; `back` says where the provider finally redirects (given the request's state). */
function flow(
  back: (origin: string, state: string) => string,
  token: Route,
  { status = 303, cookies = ['session=s1; Path=/oidc; HttpOnly'], resumes = 0, seen = { resumes: 0 } }: FlowOptions = {},
): Record<string, Route> {
  let state = '';
  let origin = '';
  return {
    'GET /oidc/auth': (req, res, url) => {
      state = url.searchParams.get('state') ?? '';
      origin = `http://${req.headers.host}`;
      res.writeHead(status, { location: '/oidc/interaction/uid-1', 'set-cookie': cookies }).end();
    },
    'POST /oidc/interaction/uid-1/login': (req, res) => {
      // The cookie the provider set comes back with the form, as from a browser.
      if (req.headers.cookie !== 'session=s1') return void res.writeHead(400).end();
      redirect(res, resumes > 0 ? '/oidc/auth/resume' : back(origin, state));
    },
    'GET /oidc/auth/resume': (_req, res) => {
      seen.resumes++;
      redirect(res, seen.resumes < resumes ? '/oidc/auth/resume' : back(origin, state));
    },
    'POST /oidc/token': token,
  };
}

const TOKENS = { access_token: 'a.b.c', id_token: 'i.d.t', refresh_token: 'r1', expires_in: 60 };

describe('signInAs', () => {
  it('walks the flow and answers the tokens, the header and the cookies', async () => {
    const base = await provider(
      flow(
        (origin, state) => `${origin}/auth/callback?code=c1&state=${state}`,
        (_req, res) => json(res, 200, TOKENS),
      ),
    );
    expect(await signInAs(`${base}/`, 'ada')).toEqual({
      accessToken: 'a.b.c',
      idToken: 'i.d.t',
      refreshToken: 'r1',
      authorization: 'Bearer a.b.c',
      expiresIn: 60,
      cookies: 'session=s1',
    });
  });

  it('an authorization request that is not redirected, or redirected nowhere', async () => {
    let base = await provider({ 'GET /oidc/auth': (_req, res) => res.writeHead(200).end('a page') });
    await expect(signInAs(base, 'ada')).rejects.toThrow(new SignInError('The authorization request: expected a redirect, got 200'));
    await new Promise((done) => fake!.close(done));
    base = await provider({ 'GET /oidc/auth': (_req, res) => res.writeHead(302).end() });
    await expect(signInAs(base, 'ada')).rejects.toThrow('The authorization request: expected a redirect, got 302');
    await new Promise((done) => fake!.close(done));
    base = await provider({ 'GET /oidc/auth': (_req, res) => res.writeHead(400, { location: '/x' }).end() });
    await expect(signInAs(base, 'ada')).rejects.toThrow('The authorization request: expected a redirect, got 400');
  });

  it('an authorization request that leads elsewhere than the sign-in page', async () => {
    const base = await provider({ 'GET /oidc/auth': (_req, res) => redirect(res, '/oidc/consent') });
    await expect(signInAs(base, 'ada')).rejects.toThrow(
      new SignInError('The authorization request led to /oidc/consent, not to the sign-in page'),
    );
  });

  it('a redirect back with another state, or without a code', async () => {
    let base = await provider(
      flow(
        (origin) => `${origin}/auth/callback?code=c1&state=forged`,
        () => {},
      ),
    );
    await expect(signInAs(base, 'ada')).rejects.toThrow(new SignInError('The redirect back carries another state'));
    await new Promise((done) => fake!.close(done));
    base = await provider(
      flow(
        (origin, state) => `${origin}/auth/callback?error=access_denied&state=${state}`,
        () => {},
      ),
    );
    await expect(signInAs(base, 'ada')).rejects.toThrow(/^The redirect back carries no code: \?error=access_denied&state=[\w-]+$/);
  });

  it('the token endpoint refusing the code, or answering without tokens', async () => {
    const back = (origin: string, state: string) => `${origin}/auth/callback?code=c1&state=${state}`;
    let base = await provider(flow(back, (_req, res) => json(res, 400, { error: 'invalid_grant' })));
    await expect(signInAs(base, 'ada')).rejects.toThrow(new SignInError('The token endpoint answered 400: {"error":"invalid_grant"}'));
    await new Promise((done) => fake!.close(done));
    const long = { token_type: 'Bearer', note: 'n'.repeat(300) };
    base = await provider(flow(back, (_req, res) => json(res, 200, long)));
    await expect(signInAs(base, 'ada')).rejects.toThrow(
      new SignInError(`The token endpoint answered no tokens: ${JSON.stringify(long).slice(0, 200)}`),
    );
  });

  it('a provider that keeps redirecting inside itself gives up', async () => {
    const base = await provider({
      ...flow(
        (origin) => `${origin}/oidc/auth/resume`,
        () => {},
      ),
      'GET /oidc/auth/resume': (_req, res) => res.writeHead(500).end(),
    });
    await expect(signInAs(base, 'ada')).rejects.toThrow(new SignInError('The authorization: expected a redirect, got 500'));
  });
});

describe('signInAs, as a browser would', () => {
  const back = (origin: string, state: string) => `${origin}/auth/callback?code=c1&state=${state}`;
  const tokens = (_req: IncomingMessage, res: ServerResponse) => json(res, 200, TOKENS);

  it('keeps each cookie by its name, trimmed, and leaves out what is no cookie', async () => {
    const cookies = ['session = s1 ; Path=/oidc', 'flag; Path=/', '=anonymous; Path=/'];
    const base = await provider(flow(back, tokens, { cookies }));
    expect((await signInAs(base, 'ada')).cookies).toBe('session=s1');
  });

  it('sends the form and the code exchange as forms', async () => {
    const sent: (string | undefined)[] = [];
    const routes = flow(back, (req, res) => {
      sent.push(req.headers['content-type']);
      tokens(req, res);
    });
    const login = routes['POST /oidc/interaction/uid-1/login']!;
    routes['POST /oidc/interaction/uid-1/login'] = (req, res, url) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        sent.push(req.headers['content-type'], body);
        login(req, res, url);
      });
    };
    await signInAs(await provider(routes), 'grace', 'pw');
    expect(sent).toEqual([
      'application/x-www-form-urlencoded;charset=UTF-8',
      'username=grace&password=pw',
      'application/x-www-form-urlencoded;charset=UTF-8',
    ]);
  });

  it('a redirect is any 3xx with a location: 300 and 399 lead on, a 200 with a location does not', async () => {
    for (const status of [300, 399]) {
      const base = await provider(flow(back, tokens, { status }));
      expect((await signInAs(base, 'ada')).accessToken, String(status)).toBe('a.b.c');
      await new Promise((done) => fake!.close(done));
    }
    const base = await provider(flow(back, tokens, { status: 200 }));
    await expect(signInAs(base, 'ada')).rejects.toThrow(new SignInError('The authorization request: expected a redirect, got 200'));
  });

  it('the sign-in page is /interaction/<id> exactly', async () => {
    const base = await provider({ 'GET /oidc/auth': (_req, res) => redirect(res, '/oidc/interaction/uid-1/extra') });
    await expect(signInAs(base, 'ada')).rejects.toThrow(
      new SignInError('The authorization request led to /oidc/interaction/uid-1/extra, not to the sign-in page'),
    );
  });

  it('a sign-in form answered with neither the page again nor a redirect', async () => {
    const base = await provider({
      ...flow(back, tokens),
      'POST /oidc/interaction/uid-1/login': (_req, res) => res.writeHead(500).end(),
    });
    await expect(signInAs(base, 'ada')).rejects.toThrow(new SignInError('The sign-in form: expected a redirect, got 500'));
  });

  it('follows the provider’s own redirects, five at most', async () => {
    const seen = { resumes: 0 };
    let base = await provider(flow(back, tokens, { resumes: 5, seen }));
    expect((await signInAs(base, 'ada')).accessToken).toBe('a.b.c');
    expect(seen.resumes).toBe(5);
    await new Promise((done) => fake!.close(done));
    seen.resumes = 0;
    base = await provider(flow(back, tokens, { resumes: 8, seen }));
    await expect(signInAs(base, 'ada')).rejects.toThrow(
      new SignInError('The authorization: still redirecting after 5 steps, to /oidc/auth/resume'),
    );
    expect(seen.resumes).toBe(5);
  });

  it('a token answer that lacks any one of the three tokens', async () => {
    for (const missing of ['access_token', 'id_token', 'refresh_token'] as const) {
      const rest: Record<string, unknown> = { ...TOKENS };
      delete rest[missing];
      const base = await provider(flow(back, (_req, res) => json(res, 200, rest)));
      await expect(signInAs(base, 'ada'), missing).rejects.toThrow(
        new SignInError(`The token endpoint answered no tokens: ${JSON.stringify(rest)}`),
      );
      await new Promise((done) => fake!.close(done));
    }
  });
});

describe('refresh', () => {
  it('keeps the refresh token the endpoint does not renew; says what a refusal was', async () => {
    const base = await provider({
      'POST /oidc/token': (req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          const form = new URLSearchParams(body);
          if (form.get('refresh_token') !== 'r1') return json(res, 400, { error: 'invalid_grant' });
          json(res, 200, { access_token: 'a2', id_token: 'i2' });
        });
      },
    });
    expect(await refresh(`${base}/`, 'r1')).toEqual({
      accessToken: 'a2',
      idToken: 'i2',
      refreshToken: 'r1',
      authorization: 'Bearer a2',
      expiresIn: 0,
      cookies: '',
    });
    await expect(refresh(base, 'r0')).rejects.toThrow(new SignInError('The token endpoint answered 400: {"error":"invalid_grant"}'));
  });
});
