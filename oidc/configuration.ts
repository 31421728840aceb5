/**
 * How each origin's provider is set up (oidc-provider's configuration): the app as its one client,
 * with PKCE and no secret; the members' claims and roles; access tokens as JWTs for the API at
 * `<origin>/api`; the lifetimes of tokens and sessions; sign-out; and the provider's own pages for
 * sign-out and errors. What the providers of one server share comes in.
 */
import type { JWK } from 'jose';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { findAccount } from './accounts.ts';
import { PAGE_MESSAGES, pageLanguage, type PageLanguage } from './messages.ts';
import { SIGNING_OUT_POLICY } from './page-headers.ts';
import { errorPage, signedOutPage, signingOutPage, signOutPage } from './pages.ts';
import { OIDC_PREFIX } from './paths.ts';
import type { MemoryStore } from './store.ts';

export const CLIENT_ID = 'circle-web';
export const CLIENT_NAME = 'Circle';
/** The scopes a member grants the app: identity, name, e-mail, and a refresh token. */
export const SCOPES = 'openid profile email offline_access';
/** The one scope of the API's access tokens. */
export const API_SCOPE = 'profile';

/** What the providers of one server share: the store, the signing and cookie keys, the access tokens' lifetime. */
export interface SharedSetup {
  adapter: MemoryStore;
  signing: JWK;
  cookieKeys: string[];
  accessTokenTtl: number;
}

/** The API audience and the issuer of tokens made for pages on this origin. */
export const audienceFor = (origin: string) => `${origin}/api`;
export const issuerFor = (origin: string) => `${origin}${OIDC_PREFIX}`;

/** The pages' language: the request's ui_locales (the app sends its own), else the browser's. */
function languageOf(ctx: KoaContextWithOIDC): PageLanguage {
  const params = ctx.oidc?.params as Record<string, unknown> | undefined;
  return pageLanguage(params?.ui_locales ?? ctx.query?.ui_locales, ctx.get('accept-language'));
}

export function configuration(origin: string, { adapter, signing, cookieKeys, accessTokenTtl }: SharedSetup): Configuration {
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
