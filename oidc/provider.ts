/**
 * The embedded OpenID Connect provider, mounted under /oidc on the mock server's own origin
 * (issuer `<origin>/oidc`), built on oidc-provider. It serves the standard endpoints (discovery,
 * authorization with PKCE, token, userinfo, revocation, JWKS, RP-initiated logout) and its own
 * sign-in pages (pages.ts). Access tokens are JWTs for the audience `<origin>/api`, which
 * mock-api/jwt.ts checks for the mock API.
 *
 * One provider is made per origin the server is reached on (127.0.0.1, localhost and the host it
 * listens on, at its port), so that the issuer a page discovers is always its own origin's; they
 * share one signing key, so a token is good on whichever of them the API is called. Those of the
 * loopback names and the names given in `hosts` are kept; those of the other names the server
 * answers (any IP address, any *.localhost, a domain's names) are made on demand and at most
 * MAX_OTHER_PROVIDERS of them kept, the one used longest ago dropped first.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import './runtime-notice.ts';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { checkCredentials, findAccount } from './accounts.ts';
import { PAGE_MESSAGES, pageLanguage, type PageLanguage } from './messages.ts';
import { memoryStore } from './store.ts';
import { type JWTPayload, jwtVerify, createLocalJWKSet } from 'jose';
import { PassThrough } from 'node:stream';
import { attemptKeys, createThrottle, type ThrottleOptions } from './throttle.ts';
import {
  errorPage,
  SIGN_OUT_SCRIPT,
  signedOutPage,
  signingOutPage,
  signInPage,
  signOutPage,
  STYLESHEET,
  STYLESHEET_PATH,
} from './pages.ts';

/**
 * Providers kept for names besides the loopback ones and those configured (see above). A sign-in
 * under a dropped one is lost, and its tokens are refused until the name makes a provider again.
 */
export const MAX_OTHER_PROVIDERS = 16;

export { OIDC_PREFIX } from './paths.ts';
import { OIDC_PREFIX } from './paths.ts';
export const CLIENT_ID = 'circle-web';
const CLIENT_NAME = 'Circle';
/** The scopes a member grants the app: identity, name, e-mail, and a refresh token. */
export const SCOPES = 'openid profile email offline_access';
/** The one scope of the API's access tokens. */
const API_SCOPE = 'profile';

export interface IdentityProviderOptions {
  /** Access token lifetime in seconds (default 300). */
  accessTokenTtl?: number;
  /** Host names the server answers to (besides 127.0.0.1 and localhost). */
  hosts?: readonly string[];
  /** Any other host name the server answers to (its allow-list: --allowed-hosts). */
  allowHost?: (hostname: string) => boolean;
  /** How failed sign-ins are slowed and then refused (./throttle.ts); tests make it quicker. */
  signInThrottle?: Partial<ThrottleOptions>;
}

export interface EmbeddedProvider {
  /** The issuer and API audience of tokens made for pages on this origin. */
  issuerFor(origin: string): string;
  audienceFor(origin: string): string;
  /** Whether `issuer` is one of this provider's, and the audience its tokens carry. */
  audienceOfIssuer(issuer: string): string | null;
  /** The public key set tokens are signed with. */
  readonly publicKeys: { keys: JWK[] };
  /** Answers a request whose path starts with /oidc; `origin` is the one the request came to. */
  handle(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void>;
  /**
   * Whether an access token (its verified claims) no longer holds: revoked itself, its grant revoked
   * (the refresh token revoked at sign-out, a session ended), or its member signed out everywhere since.
   */
  isRevoked(claims: Record<string, unknown>): boolean;
}

/** Where the app ends every session of the member, on every device: POST with the member's access token. */
export const SIGN_OUT_EVERYWHERE_PATH = `${OIDC_PREFIX}/session/everywhere`;

const PAGE_POLICY = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The sign-out that goes on by itself runs one script, allowed by its hash alone. */
const SIGNING_OUT_POLICY = `${PAGE_POLICY}; script-src 'sha256-${createHash('sha256').update(SIGN_OUT_SCRIPT).digest('base64')}'`;

const PAGE_HEADERS = {
  'content-security-policy': PAGE_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  // A page of another site that opened this one (window.open) keeps no handle on it, and none
  // of the provider's answers may be embedded by another site.
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The pages' language: the request's ui_locales (the app sends its own), else the browser's. */
function languageOf(ctx: KoaContextWithOIDC): PageLanguage {
  const params = ctx.oidc?.params as Record<string, unknown> | undefined;
  return pageLanguage(params?.ui_locales ?? ctx.query?.ui_locales, ctx.get('accept-language'));
}

function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { ...PAGE_HEADERS, ...headers, 'content-type': 'text/html; charset=utf-8' });
  res.end(html);
}

const pause = (ms: number) => new Promise((resume) => setTimeout(resume, ms));

/** A request body of at most 8 KB (a revocation's form: a token and a few names); past it the connection is dropped. */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 8192) req.destroy(new Error('The body is too large'));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A form body, at most 4 KB: the sign-in form has two short fields. */
function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let text = '';
    // Stryker disable next-line StringLiteral: an empty encoding name is utf8 to Node as well
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      // Stryker disable next-line StringLiteral: the connection is dropped; the reason is never shown to anyone
      if (text.length > 4096) req.destroy(new Error('The form is too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(text)));
    // Stryker disable next-line StringLiteral: Node hands a destroyed request's error only to a listener; without one the read just never ends, and either way the connection is gone unanswered
    req.on('error', reject);
  });
}

export async function createEmbeddedProvider(port: number, options: IdentityProviderOptions = {}): Promise<EmbeddedProvider> {
  const accessTokenTtl = options.accessTokenTtl ?? 300;
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomBytes(8).toString('hex');
  const signing = { ...(await exportJWK(privateKey)), kid, alg: 'ES256', use: 'sig' };
  const publicKeys = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] };
  const cookieKeys = [randomBytes(32).toString('base64url')];
  const hostNames = new Set(['127.0.0.1', 'localhost', '[::1]']);
  options.hosts?.forEach((host) => {
    hostNames.add(host);
  });
  const providers = new Map<string, Provider>();
  // The providers of other names, the one used last at the end: each costs some 50 kB, and any
  // IP address or *.localhost name would otherwise make one more for good.
  const others = new Map<string, Provider>();
  const adapter = memoryStore();
  const throttle = createThrottle(options.signInThrottle);
  const verifyKeys = createLocalJWKSet(publicKeys);

  // What no longer holds, each kept as long as a token it concerns may still be presented (an
  // access token's lifetime): a revoked token by its jti, a revoked grant by its id (every token of
  // it), and the members signed out everywhere, with the second before which their tokens end.
  const revokedTokens = new Map<string, number>();
  const revokedGrants = new Map<string, number>();
  const signedOutAt = new Map<string, { before: number; until: number }>();
  const forgetPast = () => {
    const now = Date.now();
    for (const table of [revokedTokens, revokedGrants]) for (const [key, until] of table) if (until <= now) table.delete(key);
    for (const [key, { until }] of signedOutAt) if (until <= now) signedOutAt.delete(key);
  };
  const keepFor = () => Date.now() + accessTokenTtl * 1000;
  const revokeGrant = (grantId: string) => {
    forgetPast();
    revokedGrants.set(grantId, keepFor());
  };
  const isRevoked = (claims: Record<string, unknown>) => {
    const { jti, gid, sub, iat } = claims;
    if (typeof jti === 'string' && revokedTokens.has(jti)) return true;
    if (typeof gid === 'string' && revokedGrants.has(gid)) return true;
    const out = typeof sub === 'string' ? signedOutAt.get(sub) : undefined;
    // Strictly before: a sign-in again within the same second must hold. The tokens of that second
    // before the sign-out are ended through their grants, all revoked with it.
    return out !== undefined && (typeof iat !== 'number' || iat < out.before);
  };
  /** The claims of an access token this provider issued and that still holds, else null. */
  const liveToken = async (token: string): Promise<JWTPayload | null> => {
    try {
      const { payload } = await jwtVerify(token, verifyKeys, { typ: 'at+jwt' });
      return isRevoked(payload) ? null : payload;
    } catch {
      return null;
    }
  };

  const audienceFor = (origin: string) => `${origin}/api`;
  const issuerFor = (origin: string) => `${origin}${OIDC_PREFIX}`;

  function configuration(origin: string): Configuration {
    const audience = audienceFor(origin);
    return {
      // Codes, refresh tokens and sessions are this issuer's only (./store.ts).
      adapter: adapter.forIssuer(issuerFor(origin)),
      clients: [
        {
          client_id: CLIENT_ID,
          client_name: CLIENT_NAME,
          token_endpoint_auth_method: 'none',
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          id_token_signed_response_alg: 'ES256',
          redirect_uris: [`${origin}/auth/callback`],
          post_logout_redirect_uris: [`${origin}/`],
        },
      ],
      jwks: { keys: [signing] },
      cookies: { keys: cookieKeys },
      // Stryker disable next-line ObjectLiteral: oidc-provider's default requires PKCE of every client without a secret, and the app, the one client, has none (token_endpoint_auth_method none)
      pkce: { required: () => true },
      claims: {
        // Stryker disable next-line ArrayDeclaration,StringLiteral: oidc-provider puts sub in every ID token and userinfo answer, listed or not
        openid: ['sub'],
        // The member's roles ride with the profile scope the app always asks for: the app shows
        // Admin from the ID token, the API decides from the access token (extraTokenClaims).
        profile: ['name', 'preferred_username', 'roles'],
        email: ['email', 'email_verified'],
      },
      // The ID token carries the member's name and e-mail, so the app shows who is signed in without a userinfo call.
      // Stryker disable next-line BooleanLiteral: oidc-provider conforms only ID tokens issued with an access token that has no audience, and every access token here is for the API (defaultResource below)
      conformIdTokenClaims: false,
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      async findAccount(_ctx, id) {
        const account = findAccount(id);
        if (!account) return undefined;
        return {
          accountId: account.id,
          claims: async () => ({
            sub: account.id,
            name: account.name,
            preferred_username: account.id,
            email: account.email,
            email_verified: true,
            roles: [...account.roles],
          }),
        };
      },
      // Circle is the provider's own first-party app: what it asks for is granted without a consent screen.
      async loadExistingGrant(ctx: KoaContextWithOIDC) {
        const { client, session } = ctx.oidc;
        // Stryker disable next-line LogicalOperator,OptionalChaining: oidc-provider asks only once the member is known, so client and session.accountId are always there (the check narrows the types)
        if (!client || !session?.accountId) return undefined;
        const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
        const grant =
          (grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined) ??
          new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
        grant.addOIDCScope(SCOPES);
        grant.addResourceScope(audience, API_SCOPE);
        await grant.save();
        return grant;
      },
      // The API's access tokens say what the member may do: `roles`, as read at each issue (a
      // renewal after a change of role carries the new ones).
      async extraTokenClaims(_ctx, token) {
        const accountId = (token as { accountId?: unknown }).accountId;
        const account = typeof accountId === 'string' ? findAccount(accountId) : undefined;
        // `gid`: the grant the token comes from, so that revoking the grant (a sign-out) ends it too.
        const grantId = (token as { grantId?: unknown }).grantId;
        return account ? { roles: [...account.roles], ...(typeof grantId === 'string' ? { gid: grantId } : {}) } : undefined;
      },
      // A refresh token with every sign-in, so the app renews without sending the member back to this page.
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      // Not rotated: two tabs renewing at once must not revoke each other's session.
      rotateRefreshToken: false,
      ttl: {
        AccessToken: accessTokenTtl,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: 600,
        RefreshToken: 14 * 24 * 3600,
        Session: 14 * 24 * 3600,
        Grant: 14 * 24 * 3600,
      },
      // Cross-origin calls (a token request from an app served elsewhere) only from the client's own origins.
      // Stryker disable next-line MethodExpression,OptionalChaining,BooleanLiteral: the client has exactly one redirect URI, so some and every agree and the list is never missing
      clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => new URL(uri).origin === origin) ?? false,
      interactions: { url: (_ctx, interaction) => `${OIDC_PREFIX}/interaction/${interaction.uid}` },
      features: {
        devInteractions: { enabled: false },
        // A client revokes its own tokens only (the one client here has no secret to prove more).
        revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
        // Stryker disable next-line ObjectLiteral: oidc-provider turns userinfo on by default, so an empty setting keeps it on
        userinfo: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => audience,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: API_SCOPE,
            audience,
            accessTokenTTL: accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'ES256' } },
          }),
        },
        rpInitiatedLogout: {
          enabled: true,
          async logoutSource(ctx, form) {
            // The app asks with the member's ID token once it has signed out on its side: ending
            // the provider's session then goes on without a question. Anyone else is asked.
            const hint = (ctx.oidc.entities as { IdTokenHint?: { payload?: { sub?: unknown } } }).IdTokenHint;
            const fromApp = hint?.payload?.sub !== undefined && hint.payload.sub === ctx.oidc.session?.accountId;
            if (fromApp) {
              (ctx.state as { pagePolicy?: string }).pagePolicy = SIGNING_OUT_POLICY;
              ctx.body = signingOutPage(languageOf(ctx), form);
              return;
            }
            ctx.body = signOutPage(languageOf(ctx), form, CLIENT_NAME);
          },
          async postLogoutSuccessSource(ctx) {
            ctx.body = signedOutPage(languageOf(ctx), '/');
          },
        },
      },
      async renderError(ctx, out) {
        // Stryker disable next-line StringLiteral: Koa types a string body starting with '<' as HTML when no type is set
        ctx.type = 'html';
        // Stryker disable next-line ConditionalExpression: every error this configuration answers with carries a string error_description (the other branch is a guard)
        const technical = typeof out.error_description === 'string' ? `${out.error}: ${out.error_description}` : String(out.error);
        const m = PAGE_MESSAGES[languageOf(ctx)];
        ctx.body = errorPage(languageOf(ctx), m.failedTitle, m.failedDetail, '/', technical);
      },
    };
  }

  function providerFor(origin: string): Provider | null {
    const url = new URL(origin);
    const kept = hostNames.has(url.hostname);
    const known = kept || options.allowHost?.(url.hostname) === true;
    if (!known || Number(url.port) !== port) return null;
    const table = kept ? providers : others;
    let provider = table.get(origin);
    if (provider && !kept) {
      others.delete(origin);
      others.set(origin, provider);
    }
    if (!provider) {
      provider = new Provider(issuerFor(origin), configuration(origin));
      provider.on('grant.revoked', (_ctx: unknown, grantId: string) => revokeGrant(grantId));
      // Every page of the provider gets the same strict policy as its sign-in page.
      provider.use(async (ctx, next) => {
        await next();
        ctx.set(PAGE_HEADERS);
        const own = (ctx.state as { pagePolicy?: string }).pagePolicy;
        if (own) ctx.set('content-security-policy', own);
      });
      table.set(origin, provider);
      if (others.size > MAX_OTHER_PROVIDERS) others.delete(others.keys().next().value!);
    }
    return provider;
  }

  async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse, uid: string, step: string) {
    const action = `${OIDC_PREFIX}/interaction/${uid}/login`;
    const cancel = `${OIDC_PREFIX}/interaction/${uid}/abort`;
    const details = await provider.interactionDetails(req, res);
    // Stryker disable next-line StringLiteral: the error only leads to the 'sign-in expired' page; its message is never shown
    if (details.uid !== uid) throw new Error('The sign-in page does not match its session');
    const language = pageLanguage(details.params.ui_locales, req.headers['accept-language']);
    if (step === 'abort') {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The sign-in was cancelled' });
      return;
    }
    if (step === 'login' && req.method === 'POST') {
      const form = await readForm(req);
      const username = form.get('username') ?? '';
      const keys = attemptKeys(username, req.socket.remoteAddress);
      const wait = throttle.retryAfter(keys);
      if (wait > 0) {
        // Refused without looking at the password: the right one must not get through a guessing run either.
        const seconds = Math.ceil(wait / 1000);
        const page = signInPage({ language, action, cancel, username, throttledMinutes: Math.ceil(seconds / 60), clientName: CLIENT_NAME });
        sendHtml(res, 429, page, { 'retry-after': String(seconds) });
        return;
      }
      // Stryker disable next-line StringLiteral: a missing password is refused whatever it defaults to
      const account = checkCredentials(username, form.get('password') ?? '');
      if (!account) {
        // The same answer for a name no member has: only the time it takes grows, alike for both.
        const delay = throttle.failed(keys);
        if (delay > 0) await pause(delay);
        sendHtml(res, 200, signInPage({ language, action, cancel, username, failed: true, clientName: CLIENT_NAME }));
        return;
      }
      throttle.succeeded(keys[0]!);
      // Stryker disable next-line BooleanLiteral: an authorization has this one interaction (the grant needs no consent), so there is never an earlier submission to merge
      await provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
      return;
    }
    if (step === '' && req.method === 'GET') {
      sendHtml(res, 200, signInPage({ language, action, cancel, clientName: CLIENT_NAME }));
      return;
    }
    const m = PAGE_MESSAGES[language];
    sendHtml(res, 405, errorPage(language, m.notAllowedTitle, m.notAllowedDetail, '/'));
  }

  /**
   * Ends every session of the member whose access token this is, on every device: their sessions,
   * grants, codes and refresh tokens are removed, and every access token issued to them until now
   * is refused by the API (401). The request must carry the token itself (a page of another site
   * cannot add it).
   */
  async function signOutEverywhere(req: IncomingMessage, res: ServerResponse) {
    const answer = (status: number, body?: object) => {
      res.writeHead(status, { 'cache-control': 'no-store', 'content-type': 'application/json' });
      res.end(body ? JSON.stringify(body) : undefined);
    };
    if (req.method !== 'POST') return answer(405, { error: 'invalid_request', error_description: 'POST only' });
    const token = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(req.headers.authorization ?? '')?.[1];
    const claims = token ? await liveToken(token) : null;
    if (!claims || typeof claims.sub !== 'string') {
      res.setHeader('www-authenticate', 'Bearer realm="circle", error="invalid_token"');
      return answer(401, { error: 'invalid_token', error_description: 'Send the access token of the member to sign out' });
    }
    forgetPast();
    signedOutAt.set(claims.sub, { before: Math.floor(Date.now() / 1000), until: keepFor() });
    for (const grantId of adapter.removeAccount(claims.sub)) revokeGrant(grantId);
    res.writeHead(204, { 'cache-control': 'no-store' });
    res.end();
  }

  return {
    issuerFor,
    audienceFor,
    audienceOfIssuer(issuer) {
      for (const [origin, provider] of [...providers, ...others]) if (provider.issuer === issuer) return audienceFor(origin);
      return null;
    },
    publicKeys,
    isRevoked,
    async handle(req, res, origin) {
      const provider = providerFor(origin);
      // Stryker disable next-line StringLiteral: a server request always has a url
      const url = new URL(req.url ?? '/', origin);
      const language = pageLanguage(url.searchParams.get('ui_locales'), req.headers['accept-language']);
      const m = PAGE_MESSAGES[language];
      if (!provider) {
        sendHtml(res, 421, errorPage(language, m.unknownHostTitle, m.unknownHostDetail(port), '/'));
        return;
      }
      if (url.pathname === STYLESHEET_PATH) {
        res.writeHead(200, {
          'content-type': 'text/css; charset=utf-8',
          'cache-control': 'no-cache',
          'x-content-type-options': 'nosniff',
          'cross-origin-resource-policy': 'same-origin',
        });
        res.end(STYLESHEET);
        return;
      }
      const step = /^\/oidc\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(url.pathname);
      if (step) {
        try {
          await interaction(provider, req, res, step[1]!, step[2] ?? '');
        } catch {
          // Stryker disable next-line ConditionalExpression: nothing in an interaction fails after its answer has started (the guard keeps a late failure from throwing again)
          if (!res.headersSent) sendHtml(res, 400, errorPage(language, m.expiredTitle, m.expiredDetail, '/'));
        }
        return;
      }
      if (url.pathname === SIGN_OUT_EVERYWHERE_PATH) {
        await signOutEverywhere(req, res);
        return;
      }
      if (url.pathname === `${OIDC_PREFIX}/token/revocation` && req.method === 'POST') {
        // oidc-provider cannot revoke the API's JWT access tokens (it keeps no record of them): this
        // server notes their jti instead. Any other token goes on to it, the body given again.
        const body = await readBody(req);
        const form = new URLSearchParams(body.toString('utf8'));
        const claims = await liveToken(form.get('token') ?? '');
        if (claims && claims.client_id === form.get('client_id') && typeof claims.jti === 'string') {
          forgetPast();
          revokedTokens.set(claims.jti, keepFor());
          res.writeHead(200, { 'cache-control': 'no-store', 'content-length': '0' });
          res.end();
          return;
        }
        const replay = Object.assign(new PassThrough(), {
          headers: req.headers,
          rawHeaders: req.rawHeaders,
          method: req.method,
          url: req.url,
          httpVersion: req.httpVersion,
          socket: req.socket,
          connection: req.socket,
        });
        replay.end(body);
        req = replay as unknown as IncomingMessage;
      }
      // oidc-provider finds its mount path from originalUrl, as it would under Express.
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      // Stryker disable next-line StringLiteral: a server request always has a url
      const rest = (req.url ?? '/').slice(OIDC_PREFIX.length);
      // /oidc and /oidc?query: the rest must still be a path for oidc-provider's router.
      req.url = rest.startsWith('/') ? rest : `/${rest}`;
      await provider.callback()(req, res);
    },
  };
}
