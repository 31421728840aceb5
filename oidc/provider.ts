/**
 * The embedded OpenID Connect provider, mounted under /oidc on the mock server's own origin
 * (issuer `<origin>/oidc`), built on oidc-provider. It serves the standard endpoints (discovery,
 * authorization with PKCE, token, userinfo, revocation, JWKS, RP-initiated logout) and its own
 * sign-in pages (pages.ts, asked through interaction.ts). Access tokens are JWTs for the audience
 * `<origin>/api` (configuration.ts), which mock-api/jwt.ts checks for the mock API; those revoked
 * are noted here (revocation.ts), as oidc-provider keeps no record of them.
 *
 * One provider is made per origin the server is reached on (127.0.0.1, localhost and the host it
 * listens on, at its port), so that the issuer a page discovers is always its own origin's; they
 * share one signing key, so a token is good on whichever of them the API is called. Those of the
 * loopback names and the names given in `hosts` are kept; those of the other names the server
 * answers (any IP address, any *.localhost, a domain's names) are made on demand and at most
 * MAX_OTHER_PROVIDERS of them kept, the one used longest ago dropped first.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import './runtime-notice.ts';
import Provider from 'oidc-provider';
import { audienceFor, configuration, issuerFor } from './configuration.ts';
import { type ClaimChanges, craftAccessToken } from './crafted-token.ts';
import { signInInteraction } from './interaction.ts';
import { PAGE_MESSAGES, pageLanguage } from './messages.ts';
import { PAGE_HEADERS, sendHtml } from './page-headers.ts';
import { errorPage, STYLESHEET, STYLESHEET_PATH } from './pages.ts';
import { OIDC_PREFIX } from './paths.ts';
import { readBody } from './request-body.ts';
import { createRevocations, SIGN_OUT_EVERYWHERE_PATH } from './revocation.ts';
import { memoryStore } from './store.ts';
import { createThrottle, type ThrottleOptions } from './throttle.ts';

/**
 * Providers kept for names besides the loopback ones and those configured (see above). A sign-in
 * under a dropped one is lost, and its tokens are refused until the name makes a provider again.
 */
export const MAX_OTHER_PROVIDERS = 16;

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
  /**
   * An access token as this provider issues it to `member` for pages on `origin`, with `changes`
   * made to its claims (one given as undefined left out), signed with its key: the tokens it never
   * issues that the API must refuse all the same (expired, for another API, naming no member), for
   * the suites and verify's embedded start (./crafted-token.ts).
   */
  craftAccessToken(origin: string, member: string, changes?: ClaimChanges): Promise<string>;
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

  const revocations = createRevocations(accessTokenTtl, publicKeys, adapter);
  const { isRevoked, liveToken, revokeGrant } = revocations;
  const shared = { adapter, signing, cookieKeys, accessTokenTtl };

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
      provider = new Provider(issuerFor(origin), configuration(origin, shared));
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

  return {
    issuerFor,
    audienceFor,
    audienceOfIssuer(issuer) {
      for (const [origin, provider] of [...providers, ...others]) if (provider.issuer === issuer) return audienceFor(origin);
      return null;
    },
    publicKeys,
    isRevoked,
    async craftAccessToken(origin, member, changes) {
      // The origin's provider made now if it is not yet: until then the API knows no issuer of that origin.
      if (!providerFor(origin)) throw new Error(`No provider answers on ${origin}`);
      return craftAccessToken(signing, accessTokenTtl, origin, member, changes);
    },
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
          await signInInteraction(provider, throttle, req, res, step[1]!, step[2] ?? '');
        } catch {
          // Stryker disable next-line ConditionalExpression: nothing in an interaction fails after its answer has started (the guard keeps a late failure from throwing again)
          if (!res.headersSent) sendHtml(res, 400, errorPage(language, m.expiredTitle, m.expiredDetail, '/'));
        }
        return;
      }
      if (url.pathname === SIGN_OUT_EVERYWHERE_PATH) {
        await revocations.signOutEverywhere(req, res);
        return;
      }
      if (url.pathname === `${OIDC_PREFIX}/token/revocation` && req.method === 'POST') {
        // oidc-provider cannot revoke the API's JWT access tokens (it keeps no record of them): this
        // server notes their jti instead. Any other token goes on to it, the body given again.
        const body = await readBody(req);
        const form = new URLSearchParams(body.toString('utf8'));
        const claims = await liveToken(form.get('token') ?? '');
        if (claims && claims.client_id === form.get('client_id') && typeof claims.jti === 'string') {
          revocations.revokeToken(claims.jti);
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
