/**
 * The mock API's check of an access token: a JWT signed by a key of the provider, issued by it
 * for this API's audience, not expired. The embedded provider's tokens are checked with its own
 * key (in the Node server); a provider reached over HTTP (the dev server's, or any other) with
 * the key set its discovery names.
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { unauthorized, type Authenticate } from '../auth.ts';
import type { EmbeddedProvider } from './provider.ts';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** A check of bearer JWTs: `audienceOf` says which issuers are trusted, and for which audience. */
export function jwtAuthenticator(keys: JWTVerifyGetKey, audienceOf: (issuer: string) => string | null): Authenticate {
  return async (request) => {
    const header = request.headers.get('authorization');
    if (header === null) throw unauthorized('Sign in: this operation needs a bearer access token');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized('The Authorization header must be "Bearer <access token>"', 'invalid_request');
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, keys, { typ: 'at+jwt' }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('The access token has expired: renew it', 'invalid_token');
      throw unauthorized('The access token is not one this server issued', 'invalid_token');
    }
    const audience = typeof claims.iss === 'string' ? audienceOf(claims.iss) : null;
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (audience === null || !audiences.includes(audience)) throw unauthorized('The access token is not for this API', 'invalid_token');
    if (typeof claims.sub !== 'string' || claims.sub === '') throw unauthorized('The access token names no member', 'invalid_token');
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
    return { subject: claims.sub, scopes };
  };
}

/** The embedded provider's tokens, checked with its own public key. */
export function tokenAuthenticator(provider: EmbeddedProvider): Authenticate {
  return jwtAuthenticator(createLocalJWKSet(provider.publicKeys), (issuer) => provider.audienceOfIssuer(issuer));
}

/** Tokens of the provider at `issuer` (its key set read from `<issuer>/jwks`) for `audience`. */
export function remoteTokenAuthenticator(issuer: string, audience: string, jwksUrl = `${issuer}/jwks`): Authenticate {
  return jwtAuthenticator(createRemoteJWKSet(new URL(jwksUrl)), (iss) => (iss === issuer ? audience : null));
}
