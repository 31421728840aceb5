// @vitest-environment node
import { createServer, type Server } from 'node:http';
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Authenticate } from './auth.ts';
import type { EmbeddedProvider } from '../oidc/index.ts';
import { discoveredTokenAuthenticator, jwtAuthenticator, remembering, type TokenIssuer, tokenAuthenticator } from './jwt.ts';

const ISSUER = 'https://idp.example/realm';
const AUDIENCE = 'https://circle.example/api';
let sign: (claims: JWTPayload, typ?: string) => Promise<string>;
let check: Authenticate;
let publicJwk: JWK;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
  publicJwk = jwk;
  sign = (claims, typ = 'at+jwt') =>
    new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ, kid: 'k1' }).setIssuedAt().setExpirationTime('5m').sign(privateKey);
});
// Made for each test, so that how the check is built is part of what the test covers.
beforeEach(() => {
  check = jwtAuthenticator(createLocalJWKSet({ keys: [publicJwk] }), (issuer) => (issuer === ISSUER ? AUDIENCE : null));
});
afterEach(() => vi.restoreAllMocks());

/** The identity, or the refusal's status, challenge and message. */
async function answer(authenticate: Authenticate, authorization?: string) {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  try {
    return await authenticate(new Request('http://circle.example/api/user/profile/myprofile', { headers }));
  } catch (refusal) {
    if (!(refusal instanceof Response)) throw refusal;
    const { message } = (await refusal.json()) as { message: string };
    return { status: refusal.status, challenge: refusal.headers.get('www-authenticate'), message };
  }
}

const refused = (message: string, error = 'invalid_token') => ({
  status: 401,
  challenge: `Bearer realm="circle", error="${error}", error_description="${message}"`,
  message,
});

describe('the API’s check of a bearer access token', () => {
  it('answers the member and the roles of a good token', async () => {
    const token = await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada', scope: 'profile  email' });
    expect(await answer(check, `Bearer ${token}`)).toEqual({ subject: 'ada', roles: [] });
    expect(await answer(check, `bearer  ${token}`)).toEqual({ subject: 'ada', roles: [] });
    const listed = await sign({ iss: ISSUER, aud: ['other', AUDIENCE], sub: 'grace' });
    expect(await answer(check, `Bearer ${listed}`)).toEqual({ subject: 'grace', roles: [] });
  });

  it('answers the roles the token names, and only names: a claim of another shape grants nothing', async () => {
    const admin = await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada', roles: ['member', 'admin'] });
    expect(await answer(check, `Bearer ${admin}`)).toEqual({ subject: 'ada', roles: ['member', 'admin'] });
    const odd = await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada', roles: ['member', 7, { admin: true }] });
    expect(await answer(check, `Bearer ${odd}`)).toEqual({ subject: 'ada', roles: ['member'] });
    const text = await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada', roles: 'admin' });
    expect(await answer(check, `Bearer ${text}`)).toEqual({ subject: 'ada', roles: [] });
  });

  it('no header: asks for a token, without an error code', async () => {
    expect(await answer(check)).toEqual({
      status: 401,
      challenge: 'Bearer realm="circle"',
      message: 'Sign in: this operation needs a bearer access token',
    });
  });

  it('another scheme or no token: invalid_request', async () => {
    for (const header of ['Basic YWRhOmNpcmNsZQ==', 'Bearer', 'Bearer a b']) {
      expect(await answer(check, header), header).toEqual({
        status: 401,
        // The quotes of the message are left out of the quoted challenge.
        challenge:
          'Bearer realm="circle", error="invalid_request", error_description="The Authorization header must be Bearer <access token>"',
        message: 'The Authorization header must be "Bearer <access token>"',
      });
    }
  });

  it('a token that is not for this API, or names nobody: invalid_token with the reason', async () => {
    const cases: [JWTPayload, string][] = [
      [{ iss: 'https://elsewhere', aud: AUDIENCE, sub: 'ada' }, 'The access token is not for this API'],
      [{ aud: AUDIENCE, sub: 'ada' }, 'The access token is not for this API'],
      [{ iss: 'https://elsewhere', aud: null as unknown as string, sub: 'ada' }, 'The access token is not for this API'],
      [{ iss: ISSUER, aud: 'https://other/api', sub: 'ada' }, 'The access token is not for this API'],
      [{ iss: ISSUER, aud: AUDIENCE }, 'The access token names no member'],
      [{ iss: ISSUER, aud: AUDIENCE, sub: '' }, 'The access token names no member'],
    ];
    for (const [claims, message] of cases) {
      expect(await answer(check, `Bearer ${await sign(claims)}`), JSON.stringify(claims)).toEqual(refused(message));
    }
  });

  it('an ID token, a forged or an expired token: invalid_token', async () => {
    const claims = { iss: ISSUER, aud: AUDIENCE, sub: 'ada' };
    expect(await answer(check, `Bearer ${await sign(claims, 'JWT')}`)).toEqual(refused('The access token is not one this server issued'));
    const [head, body] = (await sign(claims)).split('.');
    const other = (await sign({ ...claims, sub: 'grace' })).split('.')[2];
    expect(await answer(check, `Bearer ${head}.${body}.${other}`)).toEqual(refused('The access token is not one this server issued'));
    vi.useFakeTimers({ now: Date.now() - 3_600_000, toFake: ['Date'] });
    const old = await sign(claims);
    vi.useRealTimers();
    expect(await answer(check, `Bearer ${old}`)).toEqual(refused('The access token has expired: renew it'));
  });
});

describe('the embedded provider’s tokens', () => {
  it('are checked with its public keys, for the audience it names for their issuer', async () => {
    const provider = {
      publicKeys: { keys: [publicJwk] },
      audienceOfIssuer: (issuer: string) => (issuer === ISSUER ? AUDIENCE : null),
    } as EmbeddedProvider;
    const embedded = tokenAuthenticator(provider);
    expect(await answer(embedded, `Bearer ${await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada', scope: 'profile' })}`)).toEqual({
      subject: 'ada',
      roles: [],
    });
    expect(await answer(embedded, `Bearer ${await sign({ iss: 'https://elsewhere', aud: AUDIENCE, sub: 'ada' })}`)).toEqual(
      refused('The access token is not for this API'),
    );
  });
});

describe('the tokens whose signature held, remembered', () => {
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as JWTPayload;

  it('checks a token sent again without its signature, until it expires; then afresh', async () => {
    const verify = vi.fn(async (token: string) => {
      const claims = claimsOf(token);
      if (claims.exp! <= Math.floor(Date.now() / 1000)) throw new Error('expired');
      return claims;
    });
    const remember = remembering(verify);
    const token = await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada' });
    const first = await remember(token);
    expect(await remember(token)).toBe(first);
    expect(verify).toHaveBeenCalledTimes(1);
    // A token expires at its `exp` second, as jose has it: one second left still holds.
    vi.useFakeTimers({ now: (first.exp! - 1) * 1000, toFake: ['Date'] });
    expect(await remember(token)).toBe(first);
    expect(verify).toHaveBeenCalledTimes(1);
    vi.setSystemTime(first.exp! * 1000);
    await expect(remember(token)).rejects.toThrow('expired');
    expect(verify).toHaveBeenCalledTimes(2);
    vi.useRealTimers();
  });

  it('forgets the oldest past its size, and never remembers a token that failed', async () => {
    let refuse = true;
    const verify = vi.fn(async (token: string) => {
      if (refuse) throw new Error('forged');
      return claimsOf(token);
    });
    const remember = remembering(verify, 2);
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((sub) => sign({ iss: ISSUER, aud: AUDIENCE, sub })));
    await expect(remember(a!)).rejects.toThrow('forged');
    refuse = false;
    for (const token of [a, b, c, b, c, a]) await remember(token!);
    // a (refused, then checked), b, c, then a again once c pushed it out.
    expect(verify.mock.calls.map(([token]) => claimsOf(token).sub)).toEqual(['a', 'a', 'b', 'c', 'a']);
  });

  it('still refuses a remembered token once it is revoked, or no longer for this API', async () => {
    const revoked = new Set<string>();
    let audience: string | null = AUDIENCE;
    const provider = {
      publicKeys: { keys: [publicJwk] },
      audienceOfIssuer: () => audience,
      isRevoked: (claims: Record<string, unknown>) => revoked.has(String(claims.sub)),
    } satisfies TokenIssuer;
    const embedded = tokenAuthenticator(provider);
    const token = `Bearer ${await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada' })}`;
    expect(await answer(embedded, token)).toEqual({ subject: 'ada', roles: [] });
    revoked.add('ada');
    expect(await answer(embedded, token)).toEqual(refused('The access token has been revoked: sign in again'));
    revoked.clear();
    audience = 'https://other/api';
    expect(await answer(embedded, token)).toEqual(refused('The access token is not for this API'));
  });

  it('the embedded provider’s check refuses a remembered token once expired, as expired', async () => {
    const provider = { publicKeys: { keys: [publicJwk] }, audienceOfIssuer: () => AUDIENCE } as unknown as EmbeddedProvider;
    const embedded = tokenAuthenticator(provider);
    const token = await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada' });
    expect(await answer(embedded, `Bearer ${token}`)).toEqual({ subject: 'ada', roles: [] });
    vi.useFakeTimers({ now: claimsOf(token).exp! * 1000, toFake: ['Date'] });
    expect(await answer(embedded, `Bearer ${token}`)).toEqual(refused('The access token has expired: renew it'));
    vi.useRealTimers();
  });
});

describe('another provider’s tokens, its keys found through discovery', () => {
  const discovery = (status: number, body: unknown) => async () => Response.json(body, { status });
  let keyServer: Server | undefined;
  afterEach(async () => {
    await new Promise((done) => keyServer?.close(done) ?? done(undefined));
    keyServer = undefined;
  });

  it('takes the tokens of that issuer for the audience given, and no other issuer’s', async () => {
    keyServer = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] })),
    );
    await new Promise<void>((done) => keyServer!.listen(0, '127.0.0.1', done));
    const jwksUri = `http://127.0.0.1:${(keyServer.address() as { port: number }).port}/jwks`;
    const fetcher = vi.fn<typeof fetch>(discovery(200, { issuer: ISSUER, jwks_uri: jwksUri }));
    const authenticate = discoveredTokenAuthenticator(ISSUER, AUDIENCE, fetcher);
    expect(await answer(authenticate, `Bearer ${await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'grace' })}`)).toEqual({
      subject: 'grace',
      roles: [],
    });
    expect(await answer(authenticate, `Bearer ${await sign({ iss: 'https://other', aud: AUDIENCE, sub: 'grace' })}`)).toEqual(
      refused('The access token is not for this API'),
    );
    expect(fetcher).toHaveBeenCalledTimes(1);
  });

  it('an issuer given with a trailing slash: its discovery is read without a double slash', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetcher = vi.fn<typeof fetch>(discovery(503, {}));
    const authenticate = discoveredTokenAuthenticator(`${ISSUER}/`, AUDIENCE, fetcher);
    await answer(authenticate, `Bearer ${await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada' })}`);
    expect(fetcher.mock.calls.map(([url]) => String(url))).toEqual([`${ISSUER}/.well-known/openid-configuration`]);
  });

  it('a discovery that fails refuses the token and says why on the console, then is read again', async () => {
    const said: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void said.push(String(line)));
    const url = `${ISSUER}/.well-known/openid-configuration`;
    const token = `Bearer ${await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada' })}`;
    const cases: [() => Promise<Response>, string][] = [
      [discovery(503, {}), `${url} answered 503`],
      [discovery(200, { issuer: 'https://other' }), `${url} names the issuer https://other, not ${ISSUER}`],
      [discovery(200, {}), `${url} names the issuer undefined, not ${ISSUER}`],
      [discovery(200, { issuer: ISSUER, jwks_uri: 42 }), `${url} names no jwks_uri`],
    ];
    const fetcher = vi.fn<typeof fetch>();
    const authenticate = discoveredTokenAuthenticator(ISSUER, AUDIENCE, fetcher);
    for (const [respond, reason] of cases) {
      fetcher.mockImplementationOnce(respond);
      expect(await answer(authenticate, token)).toEqual(refused('The access token is not one this server issued'));
      expect(said.pop()).toBe(`The identity provider's keys cannot be read: ${reason}`);
    }
    expect(fetcher.mock.calls.map(([called]) => String(called))).toEqual(cases.map(() => url));
  });
});

describe('the header’s pattern, as the module makes it when it loads', () => {
  // The pattern is made when jwt.ts loads: a change to it is only seen by a test that loads it.
  // What it imports is loaded afresh here, outside the test, so that the test evaluates jwt.ts
  // alone and no other module's load counts as this test's.
  beforeAll(async () => {
    vi.resetModules();
    await import('./auth.ts');
  });

  it('the header is "Bearer", one or more spaces, and the token: nothing before, nothing after', async () => {
    const fresh = await import('./jwt.ts');
    const strict = fresh.jwtAuthenticator(createLocalJWKSet({ keys: [publicJwk] }), (issuer) => (issuer === ISSUER ? AUDIENCE : null));
    const token = await sign({ iss: ISSUER, aud: AUDIENCE, sub: 'ada' });
    const malformed = refused('The Authorization header must be Bearer <access token>', 'invalid_request');
    for (const header of [`xBearer ${token}`, `Bearer ${token} x`]) {
      expect(await answer(strict, header), header).toEqual({
        ...malformed,
        message: 'The Authorization header must be "Bearer <access token>"',
      });
    }
    expect(await answer(strict, `Bearer ${token}`)).toEqual({ subject: 'ada', roles: [] });
    expect(await answer(strict, `Bearer   ${token}`)).toEqual({ subject: 'ada', roles: [] });
  });
});
