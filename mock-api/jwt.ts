/**
 * The mock API's check of an access token: a JWT signed by a key of the provider, issued by it
 * for this API's audience, not expired. The embedded provider's tokens are checked with its own
 * key (in the Node server); a provider reached over HTTP (the dev server's, or any other) with
 * the key set its discovery names.
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, type JSONWebKeySet, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { unauthorized, type Authenticate } from './auth.ts';

/** What the API needs of a provider in the same process (oidc's): its keys and audiences. */
export interface TokenIssuer {
  readonly publicKeys: JSONWebKeySet;
  audienceOfIssuer(issuer: string): string | null;
  /** Whether a token it issued no longer holds (revoked, its grant revoked, its member signed out everywhere). */
  isRevoked?(claims: Record<string, unknown>): boolean;
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** The signed-token checks: the signature by one of `keys`, the `typ` of an access token, and not before `nbf` nor from `exp` on. */
type VerifyToken = (token: string) => Promise<JWTPayload>;

const verifier =
  (keys: JWTVerifyGetKey): VerifyToken =>
  async (token) =>
    (await jwtVerify(token, keys, { typ: 'at+jwt' })).payload;

/** How many accepted tokens `remembering` keeps; past it the oldest is forgotten. */
const REMEMBERED_TOKENS = 256;

/**
 * The same checks, remembering the tokens that passed: an ES256 signature costs far more than the
 * rest of a request to the mock, and a client sends one token again and again. A remembered token
 * that has expired is checked afresh (and so refused as expired). Nothing after the signature is
 * remembered: the audience, the member and revocation are checked on every request.
 */
export function remembering(verify: VerifyToken, size = REMEMBERED_TOKENS): VerifyToken {
  const passed = new Map<string, JWTPayload>();
  return async (token) => {
    const claims = passed.get(token);
    if (claims && !(typeof claims.exp === 'number' && claims.exp <= Math.floor(Date.now() / 1000))) return claims;
    passed.delete(token);
    const checked = await verify(token);
    if (passed.size >= size) passed.delete(passed.keys().next().value!);
    passed.set(token, checked);
    return checked;
  };
}

/**
 * A check of bearer JWTs: `audienceOf` says which issuers are trusted, and for which audience.
 * `keys` is the key set, or the check of a token's signature and times (`remembering` one).
 */
export function jwtAuthenticator(
  keys: JWTVerifyGetKey | { verify: VerifyToken },
  audienceOf: (issuer: string) => string | null,
  revoked: (claims: Record<string, unknown>) => boolean = () => false,
): Authenticate {
  const verify = typeof keys === 'function' ? verifier(keys) : keys.verify;
  return async (request) => {
    const header = request.headers.get('authorization');
    if (header === null) throw unauthorized('Sign in: this operation needs a bearer access token');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized('The Authorization header must be "Bearer <access token>"', 'invalid_request');
    let claims: Record<string, unknown>;
    try {
      claims = await verify(token);
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('The access token has expired: renew it', 'invalid_token');
      throw unauthorized('The access token is not one this server issued', 'invalid_token');
    }
    const audience = typeof claims.iss === 'string' ? audienceOf(claims.iss) : null;
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (audience === null || !audiences.includes(audience)) throw unauthorized('The access token is not for this API', 'invalid_token');
    if (typeof claims.sub !== 'string' || claims.sub === '') throw unauthorized('The access token names no member', 'invalid_token');
    if (revoked(claims)) throw unauthorized('The access token has been revoked: sign in again', 'invalid_token');
    // Only names: a claim of another shape grants nothing rather than failing the token.
    const roles = Array.isArray(claims.roles) ? claims.roles.filter((role): role is string => typeof role === 'string') : [];
    return { subject: claims.sub, roles };
  };
}

/**
 * The embedded provider's tokens, checked with its own public key. Its keys live as long as the
 * process, so a token whose signature held once holds until it expires: it is remembered.
 */
export function tokenAuthenticator(provider: TokenIssuer): Authenticate {
  return jwtAuthenticator(
    { verify: remembering(verifier(createLocalJWKSet(provider.publicKeys))) },
    (issuer) => provider.audienceOfIssuer(issuer),
    (claims) => provider.isRevoked?.(claims) ?? false,
  );
}

/**
 * Tokens of any standard provider (Keycloak, Auth0, Entra, the embedded one over HTTP) for
 * `audience`: its key set is found through its discovery document, read at the first token.
 * A discovery that fails is read again at the next token, and said on the console.
 */
export function discoveredTokenAuthenticator(issuer: string, audience: string, fetcher: typeof fetch = fetch): Authenticate {
  let keys: Promise<JWTVerifyGetKey> | null = null;
  const discover = async (): Promise<JWTVerifyGetKey> => {
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    const response = await fetcher(url);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    const meta = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (meta.issuer !== issuer) throw new Error(`${url} names the issuer ${String(meta.issuer)}, not ${issuer}`);
    if (typeof meta.jwks_uri !== 'string') throw new Error(`${url} names no jwks_uri`);
    return createRemoteJWKSet(new URL(meta.jwks_uri));
  };
  const getKey: JWTVerifyGetKey = async (header, token) => {
    keys ??= discover().catch((error: unknown) => {
      keys = null;
      console.error(`The identity provider's keys cannot be read: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    });
    return (await keys)(header, token);
  };
  return jwtAuthenticator(getKey, (iss) => (iss === issuer ? audience : null));
}
