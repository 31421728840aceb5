import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StoredSession } from './session-store';

type OidcModule = typeof import('./oidc-client');
let oidc: OidcModule;

/** What the app sent to the provider, as the provider saw it. */
interface Sent {
  url: URL;
  method: string;
  form: URLSearchParams;
}

interface ProviderOptions {
  origin?: string;
  metadata?: Record<string, unknown>;
  /** The token endpoint's answer; by default a sign-in's tokens for Ada. */
  token?: (form: URLSearchParams) => Response | Promise<Response>;
  /** The discovery answers in turn; the last one is kept. */
  discovery?: Array<() => Response | Promise<Response>>;
}

const APP = 'https://app.example';
const CLIENT = 'circle-web';
const NOW = Date.UTC(2026, 0, 15, 9, 0, 0);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const b64u = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An ID token as the provider signs it; the app checks its claims, not its signature (it came over TLS from the token endpoint). */
function idToken(issuer: string, claims: Record<string, unknown>): string {
  const iat = Math.floor(NOW / 1000);
  return [b64u({ alg: 'RS256', typ: 'JWT' }), b64u({ iss: issuer, aud: CLIENT, iat, exp: iat + 600, ...claims }), 'c2ln'].join('.');
}

let sent: Sent[];

/** A provider at `${origin}/oidc` answering the app's requests the way a real one does. */
function provider(options: ProviderOptions = {}) {
  const origin = options.origin ?? APP;
  const issuer = `${origin}/oidc`;
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
    revocation_endpoint: `${issuer}/token/revocation`,
    end_session_endpoint: `${issuer}/session/end`,
    ...options.metadata,
  };
  const discovery = options.discovery ?? [() => json(metadata)];
  let discoveries = 0;
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const body = init?.body;
    sent.push({ url, method: init?.method ?? 'GET', form: new URLSearchParams(body == null ? '' : String(body)) });
    switch (url.pathname) {
      case '/oidc/.well-known/openid-configuration':
        return (discovery[Math.min(discoveries++, discovery.length - 1)] ?? (() => json({}, 500)))();
      case '/oidc/token': {
        const form = new URLSearchParams(String(body));
        return options.token ? options.token(form) : json({ access_token: 'access-1', token_type: 'Bearer', expires_in: 3600 });
      }
      case '/oidc/token/revocation':
        return new Response(null, { status: 200 });
      default:
        return json({ error: 'not_found' }, 404);
    }
  });
  vi.stubGlobal('fetch', fetch);
  const settings = { issuer: '/oidc', clientId: CLIENT, scope: 'openid profile email offline_access', origin };
  return { settings, issuer, metadata, metadataJson: () => json(metadata) };
}

const toProvider = () => sent.filter((request) => !request.url.pathname.endsWith('openid-configuration'));
function first(requests: Sent[]): Sent {
  const [request] = requests;
  if (!request) throw new Error('Nothing was sent to the provider');
  return request;
}
const discoveries = () => sent.filter((request) => request.url.pathname.endsWith('openid-configuration'));

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('base64url');
}

function pendingStored(): { verifier: string; state: string; nonce: string; next: string } {
  return JSON.parse(sessionStorage.getItem('circle.signIn') ?? 'null');
}

/** Starts a sign-in, then comes back from the provider with a code (or with `callback`'s parameters). */
async function signInAndReturn(settings: ReturnType<typeof provider>['settings'], next = '/people') {
  const url = await oidc.signInUrl(settings, next, 'fr');
  const state = url.searchParams.get('state') ?? '';
  return { url, state, callback: new URL(`${settings.origin}/auth/callback?code=the-code&state=${state}`) };
}

const stored = (overrides: Partial<StoredSession> = {}): StoredSession => ({
  accessToken: 'access-0',
  expiresAt: NOW - 1000,
  refreshToken: 'refresh-0',
  idToken: 'id-token-0',
  issuer: `${APP}/oidc`,
  subject: 'ada',
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  ...overrides,
});

beforeEach(async () => {
  sent = [];
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  // The discovered providers are remembered per module: each test starts with none.
  vi.resetModules();
  oidc = await import('./oidc-client');
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the sign-in page', () => {
  it('asks the provider for a code for this app, with a PKCE challenge, and keeps the verifier, state and nonce in this tab', async () => {
    const { settings } = provider();
    const url = await oidc.signInUrl(settings, '/people/42', 'fr');

    expect(`${url.origin}${url.pathname}`).toBe(`${APP}/oidc/auth`);
    const pending = pendingStored();
    expect(pending.next).toBe('/people/42');
    expect(pending.verifier.length).toBeGreaterThanOrEqual(43);
    expect(pending.state).not.toBe('');
    expect(pending.nonce).not.toBe('');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: CLIENT,
      response_type: 'code',
      redirect_uri: `${APP}/auth/callback`,
      scope: 'openid profile email offline_access',
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await sha256(pending.verifier),
      code_challenge_method: 'S256',
      ui_locales: 'fr',
    });
    expect(discoveries().map((request) => request.url.href)).toEqual([`${APP}/oidc/.well-known/openid-configuration`]);
  });

  it('asks the provider for its settings once, and again after a failed attempt', async () => {
    const { settings, metadataJson } = provider({
      discovery: [() => Promise.reject(new TypeError('Failed to fetch')), () => metadataJson()],
    });
    await expect(oidc.signInUrl(settings, '/home', 'en')).rejects.toThrow('Failed to fetch');
    expect(sessionStorage.getItem('circle.signIn')).toBeNull();

    await oidc.signInUrl(settings, '/home', 'en');
    await oidc.signInUrl(settings, '/home', 'en');
    await oidc.signOutUrl(settings, stored(), 'en');
    expect(discoveries()).toHaveLength(2);
  });

  it('is refused when the provider names no authorization endpoint, and nothing is kept', async () => {
    const { settings } = provider({ metadata: { authorization_endpoint: undefined } });
    const failure = await oidc.signInUrl(settings, '/home', 'en').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oidc.SignInFailure);
    expect((failure as Error).message).toBe('The provider names no authorization endpoint');
    expect(sessionStorage.getItem('circle.signIn')).toBeNull();
  });

  it('works with the plain-HTTP provider of development, from discovery to revocation', async () => {
    const { settings, issuer } = provider({
      origin: 'http://localhost:5173',
      token: () =>
        json({
          access_token: 'dev-access',
          token_type: 'Bearer',
          refresh_token: 'dev-refresh',
          id_token: idToken(issuer, { sub: 'dev', nonce: pendingNonce }),
        }),
    });
    let pendingNonce = '';
    const { callback } = await signInAndReturn(settings);
    pendingNonce = pendingStored().nonce;
    const { session } = await oidc.completeSignIn(settings, callback);
    expect(session).toMatchObject({ accessToken: 'dev-access', issuer: 'http://localhost:5173/oidc', subject: 'dev' });
    await oidc.revoke(settings, session);
    expect(toProvider().map((request) => request.url.href)).toEqual([
      'http://localhost:5173/oidc/token',
      'http://localhost:5173/oidc/token/revocation',
    ]);
  });

  it('does not talk to a provider endpoint over plain HTTP when the issuer is HTTPS', async () => {
    const { settings } = provider({ metadata: { token_endpoint: 'http://app.example/oidc/token' } });
    const { callback } = await signInAndReturn(settings);
    await expect(oidc.completeSignIn(settings, callback)).rejects.toBeInstanceOf(oidc.SignInFailure);
    expect(toProvider()).toEqual([]);
  });
});

describe('coming back from the provider', () => {
  function adaProvider(claims: Record<string, unknown> = {}, tokens: Record<string, unknown> = {}) {
    const setup = provider({
      token: () =>
        json({
          access_token: 'access-1',
          token_type: 'Bearer',
          expires_in: 3600,
          refresh_token: 'refresh-1',
          id_token: idToken(`${APP}/oidc`, { sub: 'ada', nonce: pendingNonce, ...claims }),
          ...tokens,
        }),
    });
    let pendingNonce = '';
    return {
      ...setup,
      async signIn(next = '/people') {
        const started = await signInAndReturn(setup.settings, next);
        pendingNonce = pendingStored().nonce;
        return started;
      },
    };
  }

  it('exchanges the code with the verifier and keeps the member it names, then forgets the sign-in under way', async () => {
    const ada = adaProvider({ name: 'Ada Lovelace', preferred_username: 'ada.l', email: 'ada@example.org' });
    const { callback } = await ada.signIn('/people/7');
    const verifier = pendingStored().verifier;

    const result = await oidc.completeSignIn(ada.settings, callback);

    expect(result.next).toBe('/people/7');
    expect(result.session).toEqual({
      accessToken: 'access-1',
      expiresAt: NOW + 3600 * 1000,
      refreshToken: 'refresh-1',
      idToken: expect.stringMatching(/^ey/),
      issuer: `${APP}/oidc`,
      subject: 'ada',
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      roles: [],
    });
    const token = first(toProvider());
    expect(token.method).toBe('POST');
    expect(token.url.href).toBe(`${APP}/oidc/token`);
    expect(Object.fromEntries(token.form)).toEqual({
      client_id: CLIENT,
      grant_type: 'authorization_code',
      code: 'the-code',
      redirect_uri: `${APP}/auth/callback`,
      code_verifier: verifier,
    });
    expect(sessionStorage.getItem('circle.signIn')).toBeNull();
    // The same callback again (a reload) is not a sign-in any more.
    await expect(oidc.completeSignIn(ada.settings, callback)).rejects.toThrow('No sign-in was started in this tab');
    expect(toProvider()).toHaveLength(1);
  });

  it('names the member by their username, then by their subject, and keeps no email or refresh token it was not given', async () => {
    const byUsername = adaProvider({ preferred_username: 'ada.l' }, { refresh_token: undefined, expires_in: undefined });
    const first = await oidc.completeSignIn(byUsername.settings, (await byUsername.signIn()).callback);
    expect(first.session).toMatchObject({ name: 'ada.l', email: null, refreshToken: null, expiresAt: NOW + 300 * 1000 });

    const bySubject = adaProvider({ name: 42, preferred_username: ['ada'], email: 7 });
    const second = await oidc.completeSignIn(bySubject.settings, (await bySubject.signIn()).callback);
    expect(second.session).toMatchObject({ name: 'ada', email: null, refreshToken: 'refresh-1' });
  });

  it("keeps the roles the ID token names, names only; a renewal without an ID token keeps the member's roles", async () => {
    const admin = adaProvider({ roles: ['member', 'admin', 7] });
    expect((await oidc.completeSignIn(admin.settings, (await admin.signIn()).callback)).session.roles).toEqual(['member', 'admin']);
    const odd = adaProvider({ roles: 'admin' });
    expect((await oidc.completeSignIn(odd.settings, (await odd.signIn()).callback)).session.roles).toEqual([]);
    const { settings } = provider({ token: () => json({ access_token: 'access-2', token_type: 'Bearer', expires_in: 600 }) });
    expect((await oidc.renewSession(settings, stored({ roles: ['member', 'admin'] }))).roles).toEqual(['member', 'admin']);
  });

  it('goes home when the sign-in kept no page to return to', async () => {
    const ada = adaProvider();
    const { callback } = await ada.signIn();
    sessionStorage.setItem('circle.signIn', JSON.stringify({ ...pendingStored(), next: 5 }));
    expect((await oidc.completeSignIn(ada.settings, callback)).next).toBe('/home');
  });

  it.each([
    ['nothing', null],
    ['something unreadable', '{not json'],
    ['no verifier', { verifier: 5 }],
    ['no state', { state: undefined }],
    ['no nonce', { nonce: null }],
  ])('is refused without asking for tokens when this tab kept %s', async (_, kept) => {
    const ada = adaProvider();
    const { callback } = await ada.signIn();
    if (kept === null) sessionStorage.removeItem('circle.signIn');
    else sessionStorage.setItem('circle.signIn', typeof kept === 'string' ? kept : JSON.stringify({ ...pendingStored(), ...kept }));

    const failure = await oidc.completeSignIn(ada.settings, callback).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oidc.SignInFailure);
    expect((failure as Error).message).toBe('No sign-in was started in this tab');
    expect(toProvider()).toEqual([]);
    expect(sessionStorage.getItem('circle.signIn')).toBeNull();
  });

  it('passes on what the provider refused with, and forgets the sign-in under way', async () => {
    const ada = adaProvider();
    const { state } = await ada.signIn();
    const described = await oidc
      .completeSignIn(ada.settings, new URL(`${APP}/auth/callback?error=access_denied&error_description=The+member+said+no&state=${state}`))
      .catch((error: unknown) => error);
    expect(described).toBeInstanceOf(oidc.SignInFailure);
    expect(described).toMatchObject({ message: 'The member said no', code: 'access_denied' });
    expect(sessionStorage.getItem('circle.signIn')).toBeNull();

    await ada.signIn();
    const bare = await oidc
      .completeSignIn(ada.settings, new URL(`${APP}/auth/callback?error=login_required`))
      .catch((error: unknown) => error);
    expect(bare).toMatchObject({ message: 'login_required', code: 'login_required' });
    expect(toProvider()).toEqual([]);
  });

  it('refuses a callback for another sign-in, and an ID token for another nonce', async () => {
    const ada = adaProvider();
    await ada.signIn();
    await expect(oidc.completeSignIn(ada.settings, new URL(`${APP}/auth/callback?code=c&state=forged`))).rejects.toBeInstanceOf(
      oidc.SignInFailure,
    );
    expect(toProvider()).toEqual([]);

    const replayed = adaProvider({ nonce: 'another-sign-in' });
    const { callback } = await replayed.signIn();
    const failure = await oidc.completeSignIn(replayed.settings, callback).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oidc.SignInFailure);
    expect(failure).toMatchObject({ code: null });
  });

  it('is refused when the provider sends no ID token', async () => {
    const ada = adaProvider({}, { id_token: undefined });
    const { callback } = await ada.signIn();
    await expect(oidc.completeSignIn(ada.settings, callback)).rejects.toBeInstanceOf(oidc.SignInFailure);
  });

  it("passes on the token endpoint's error code, and none for a network failure", async () => {
    const refused = provider({ token: () => json({ error: 'invalid_grant', error_description: 'code used' }, 400) });
    const { callback } = await signInAndReturn(refused.settings);
    const failure = await oidc.completeSignIn(refused.settings, callback).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oidc.SignInFailure);
    expect(failure).toMatchObject({ code: 'invalid_grant' });

    const offline = provider({ token: () => Promise.reject(new TypeError('Failed to fetch')) });
    const again = await signInAndReturn(offline.settings);
    const network = await oidc.completeSignIn(offline.settings, again.callback).catch((error: unknown) => error);
    expect(network).toBeInstanceOf(oidc.SignInFailure);
    expect(network).toMatchObject({ message: 'Failed to fetch', code: null });
  });
});

describe('renewing a session', () => {
  it('sends the refresh token and keeps what the provider did not send again', async () => {
    const { settings } = provider({ token: () => json({ access_token: 'access-2', token_type: 'Bearer', expires_in: 600 }) });
    const renewed = await oidc.renewSession(settings, stored());

    expect(renewed).toEqual({ ...stored(), accessToken: 'access-2', expiresAt: NOW + 600 * 1000, roles: [] });
    const token = first(toProvider());
    expect(token.url.href).toBe(`${APP}/oidc/token`);
    expect(Object.fromEntries(token.form)).toEqual({ client_id: CLIENT, grant_type: 'refresh_token', refresh_token: 'refresh-0' });
  });

  it('takes the rotated refresh token and a new ID token, keeping the name and email it does not carry', async () => {
    const { settings, issuer } = provider({
      token: () =>
        json({ access_token: 'access-2', token_type: 'Bearer', refresh_token: 'refresh-2', id_token: idToken(issuer, { sub: 'ada' }) }),
    });
    const renewed = await oidc.renewSession(settings, stored());
    expect(renewed).toMatchObject({
      refreshToken: 'refresh-2',
      idToken: expect.stringMatching(/^ey/),
      subject: 'ada',
      name: 'Ada Lovelace',
      email: 'ada@example.org',
    });
  });

  it('cannot renew without a refresh token, and asks nothing', async () => {
    const { settings } = provider();
    const failure = await oidc.renewSession(settings, stored({ refreshToken: null })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oidc.SignInFailure);
    expect(failure).toMatchObject({ message: 'The session has no refresh token', code: 'invalid_grant' });
    expect(sent).toEqual([]);
  });

  it("passes on the provider's refusal code, and none for a network failure", async () => {
    const refused = provider({ token: () => json({ error: 'invalid_grant' }, 400) });
    await expect(oidc.renewSession(refused.settings, stored())).rejects.toMatchObject({ code: 'invalid_grant' });

    provider({ token: () => Promise.reject(new TypeError('Failed to fetch')) });
    const failure = await oidc.renewSession(refused.settings, stored()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(oidc.SignInFailure);
    expect(failure).toMatchObject({ message: 'Failed to fetch', code: null });
  });
});

describe('signing out', () => {
  it('revokes the refresh token', async () => {
    const { settings } = provider();
    await oidc.revoke(settings, stored());
    const revocation = first(toProvider());
    expect(revocation.url.href).toBe(`${APP}/oidc/token/revocation`);
    expect(revocation.form.get('token')).toBe('refresh-0');
    expect(revocation.form.get('client_id')).toBe(CLIENT);
  });

  it('revokes nothing without a refresh token or a revocation endpoint', async () => {
    const { settings } = provider();
    await oidc.revoke(settings, stored({ refreshToken: null }));
    expect(sent).toEqual([]);

    const bare = provider({ metadata: { revocation_endpoint: undefined } });
    await oidc.revoke(bare.settings, stored());
    expect(toProvider()).toEqual([]);
  });

  it('everywhere: posts the access token to the provider; true once it ended every session, false when it has no such endpoint', async () => {
    const { settings } = provider();
    const calls: Array<[string, RequestInit | undefined]> = [];
    vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
      calls.push([String(input), init]);
      return new Response(null, { status: calls.length === 1 ? 204 : 404 });
    });
    expect(await oidc.signOutEverywhere(settings, stored())).toBe(true);
    expect(await oidc.signOutEverywhere(settings, stored())).toBe(false);
    const [url, init] = calls[0]!;
    expect([url, init?.method, new Headers(init?.headers).get('authorization')]).toEqual([
      `${APP}/oidc/session/everywhere`,
      'POST',
      `Bearer ${stored().accessToken}`,
    ]);
  });

  it("goes through the provider's sign-out page back to the app's home", async () => {
    const { settings } = provider();
    const url = await oidc.signOutUrl(settings, stored(), 'de');
    expect(`${url?.origin}${url?.pathname}`).toBe(`${APP}/oidc/session/end`);
    expect(Object.fromEntries(url?.searchParams ?? [])).toEqual({
      client_id: CLIENT,
      id_token_hint: 'id-token-0',
      post_logout_redirect_uri: `${APP}/`,
      ui_locales: 'de',
    });
  });

  it('has no sign-out page when the provider names none', async () => {
    const { settings } = provider({ metadata: { end_session_endpoint: undefined } });
    expect(await oidc.signOutUrl(settings, stored(), 'de')).toBeNull();
  });
});
