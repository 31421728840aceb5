/**
 * The app's OpenID Connect client (oauth4webapi): authorization code with PKCE, renewal with the
 * refresh token, revocation and the provider's sign-out. Loaded only when a member signs in, out,
 * or a token needs renewing.
 */
import * as oauth from 'oauth4webapi';
import type { IdentityProviderConfig } from '../config/builtin';
import type { StoredSession } from './session-store';

/** What survives the trip to the provider and back, in sessionStorage (this tab only). */
interface PendingSignIn {
  verifier: string;
  state: string;
  nonce: string;
  next: string;
}
const PENDING_KEY = 'circle.signIn';

export class SignInFailure extends Error {
  /** The provider's error code (access_denied…), when it sent one. */
  readonly code: string | null;
  constructor(message: string, code: string | null = null) {
    super(message);
    this.code = code;
  }
}

export interface OidcSettings extends IdentityProviderConfig {
  /** The app's origin: the redirect URIs are on it. */
  origin: string;
}

/** The issuer as a URL: a relative one (`/oidc`) is on the app's own origin. */
function issuerUrl(settings: OidcSettings): URL {
  return new URL(settings.issuer, settings.origin);
}

// The embedded provider of development and tests speaks plain HTTP; any other issuer must be HTTPS.
const options = (issuer: URL) => (issuer.protocol === 'http:' ? { [oauth.allowInsecureRequests]: true } : {});

const servers = new Map<string, Promise<oauth.AuthorizationServer>>();

function discover(settings: OidcSettings): Promise<oauth.AuthorizationServer> {
  const issuer = issuerUrl(settings);
  let server = servers.get(issuer.href);
  if (!server) {
    server = oauth
      .discoveryRequest(issuer, { algorithm: 'oidc', ...options(issuer) })
      .then((response) => oauth.processDiscoveryResponse(issuer, response));
    // A failed discovery (offline) is tried again next time.
    server.catch(() => servers.delete(issuer.href));
    servers.set(issuer.href, server);
  }
  return server;
}

const client = (settings: OidcSettings): oauth.Client => ({ client_id: settings.clientId });
const redirectUri = (settings: OidcSettings) => `${settings.origin}/auth/callback`;

/** The provider's sign-in page for this app, with a fresh PKCE verifier, state and nonce kept for the way back. */
export async function signInUrl(settings: OidcSettings, next: string, uiLocales: string): Promise<URL> {
  const server = await discover(settings);
  if (!server.authorization_endpoint) throw new SignInFailure('The provider names no authorization endpoint');
  const pending: PendingSignIn = {
    verifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    next,
  };
  sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  const url = new URL(server.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    response_type: 'code',
    redirect_uri: redirectUri(settings),
    scope: settings.scope,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    ui_locales: uiLocales,
  }).toString();
  return url;
}

function takePending(): PendingSignIn {
  const raw = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  try {
    const value = JSON.parse(raw ?? 'null') as Partial<PendingSignIn> | null;
    if (value && typeof value.verifier === 'string' && typeof value.state === 'string' && typeof value.nonce === 'string') {
      return {
        verifier: value.verifier,
        state: value.state,
        nonce: value.nonce,
        next: typeof value.next === 'string' ? value.next : '/home',
      };
    }
  } catch {
    // Said below: there is no sign-in under way in this tab.
  }
  throw new SignInFailure('No sign-in was started in this tab');
}

function sessionOf(settings: OidcSettings, tokens: oauth.TokenEndpointResponse, previous?: StoredSession): StoredSession {
  const claims = oauth.getValidatedIdTokenClaims(tokens);
  const subject = claims?.sub ?? previous?.subject;
  // Stryker disable next-line OptionalChaining: only a renewal, which always passes the stored session, gets here without an ID token; a sign-in without one is refused first (requireIdToken)
  const idToken = tokens.id_token ?? previous?.idToken;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral,CallExpression: oauth4webapi already refuses a sign-in without an ID token (requireIdToken) or one without `sub`, with the same kind of failure (no code), and a renewal always has the stored session's
  if (!subject || !idToken) throw new SignInFailure('The provider sent no ID token');
  const name =
    typeof claims?.name === 'string'
      ? claims.name
      : typeof claims?.preferred_username === 'string'
        ? claims.preferred_username
        : (previous?.name ?? subject);
  const email = typeof claims?.email === 'string' ? claims.email : (previous?.email ?? null);
  // Only names count; a renewal without an ID token keeps the roles the member had.
  const listed = Array.isArray(claims?.roles) ? claims.roles.filter((role): role is string => typeof role === 'string') : null;
  const roles = listed ?? previous?.roles ?? [];
  return {
    accessToken: tokens.access_token,
    expiresAt: Date.now() + (tokens.expires_in ?? 300) * 1000,
    refreshToken: tokens.refresh_token ?? previous?.refreshToken ?? null,
    idToken,
    issuer: issuerUrl(settings).href,
    subject,
    name,
    email,
    roles,
  };
}

/** Finishes the sign-in the provider redirected back with: the member's session, and where to go. */
export async function completeSignIn(settings: OidcSettings, callback: URL): Promise<{ session: StoredSession; next: string }> {
  const providerError = callback.searchParams.get('error');
  if (providerError) {
    sessionStorage.removeItem(PENDING_KEY);
    throw new SignInFailure(callback.searchParams.get('error_description') ?? providerError, providerError);
  }
  const pending = takePending();
  const server = await discover(settings);
  const issuer = issuerUrl(settings);
  try {
    const params = oauth.validateAuthResponse(server, client(settings), callback, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(
      server,
      client(settings),
      oauth.None(),
      params,
      redirectUri(settings),
      pending.verifier,
      options(issuer),
    );
    const tokens = await oauth.processAuthorizationCodeResponse(server, client(settings), response, {
      expectedNonce: pending.nonce,
      // Stryker disable next-line BooleanLiteral: without it, sessionOf refuses the same response with the same failure (no code)
      requireIdToken: true,
    });
    return { session: sessionOf(settings, tokens), next: pending.next };
  } catch (error) {
    // Stryker disable next-line ConditionalExpression: wrapping the failure sessionOf threw again keeps its message and its (null) code
    if (error instanceof SignInFailure) throw error;
    // Stryker disable next-line ConditionalExpression: no other error thrown here has an `error` field, and SignInFailure turns the undefined code into null
    const code = error instanceof oauth.AuthorizationResponseError || error instanceof oauth.ResponseBodyError ? error.error : null;
    throw new SignInFailure(error instanceof Error ? error.message : String(error), code);
  }
}

/** New tokens for the session's refresh token. */
export async function renewSession(settings: OidcSettings, session: StoredSession): Promise<StoredSession> {
  if (!session.refreshToken) throw new SignInFailure('The session has no refresh token', 'invalid_grant');
  const server = await discover(settings);
  try {
    const response = await oauth.refreshTokenGrantRequest(
      server,
      client(settings),
      oauth.None(),
      session.refreshToken,
      options(issuerUrl(settings)),
    );
    return sessionOf(settings, await oauth.processRefreshTokenResponse(server, client(settings), response), session);
  } catch (error) {
    const code = error instanceof oauth.ResponseBodyError ? error.error : null;
    throw new SignInFailure(error instanceof Error ? error.message : String(error), code);
  }
}

/** Revokes the refresh token (best effort: the provider's session ends at sign-out anyway). */
export async function revoke(settings: OidcSettings, session: StoredSession): Promise<void> {
  if (!session.refreshToken) return;
  const server = await discover(settings);
  if (!server.revocation_endpoint) return;
  const response = await oauth.revocationRequest(
    server,
    client(settings),
    oauth.None(),
    session.refreshToken,
    options(issuerUrl(settings)),
  );
  await oauth.processRevocationResponse(response);
}

/**
 * Ends every session of the member on every device, at the embedded provider's
 * `POST <issuer>/session/everywhere` with the member's access token. False when the provider
 * refused or has no such endpoint (another provider): then only this device signs out.
 */
export async function signOutEverywhere(settings: OidcSettings, session: StoredSession): Promise<boolean> {
  const response = await fetch(`${issuerUrl(settings).href.replace(/\/$/, '')}/session/everywhere`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.accessToken}` },
  });
  return response.ok;
}

/** The provider's sign-out page, coming back to the app's home; null when it has none. */
export async function signOutUrl(settings: OidcSettings, session: StoredSession, uiLocales: string): Promise<URL | null> {
  const server = await discover(settings);
  if (!server.end_session_endpoint) return null;
  const url = new URL(server.end_session_endpoint);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    id_token_hint: session.idToken,
    post_logout_redirect_uri: `${settings.origin}/`,
    ui_locales: uiLocales,
  }).toString();
  return url;
}
