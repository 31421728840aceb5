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

/** The happy path up to the code; `back` says where the sign-in form redirects (given the request's state). */
function flow(back: (origin: string, state: string) => string, token: Route): Record<string, Route> {
  let state = '';
  let origin = '';
  return {
    'GET /oidc/auth': (req, res, url) => {
      state = url.searchParams.get('state') ?? '';
      origin = `http://${req.headers.host}`;
      redirect(res, '/oidc/interaction/uid-1', 'session=s1; Path=/oidc; HttpOnly');
    },
    'POST /oidc/interaction/uid-1/login': (req, res) => {
      // The cookie the provider set comes back with the form, as from a browser.
      if (req.headers.cookie !== 'session=s1') return void res.writeHead(400).end();
      redirect(res, back(origin, state));
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
