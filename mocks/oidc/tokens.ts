/** The mock API's check of an access token: a JWT the embedded provider signed, for this API, not expired. */
import { createLocalJWKSet, errors, jwtVerify } from 'jose';
import { unauthorized, type Authenticate } from '../auth.ts';
import type { EmbeddedProvider } from './provider.ts';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

export function tokenAuthenticator(provider: EmbeddedProvider): Authenticate {
  const keys = createLocalJWKSet(provider.publicKeys);
  return async (request) => {
    const header = request.headers.get('authorization');
    if (header === null) throw unauthorized('Sign in: this operation needs a bearer access token');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized('The Authorization header must be "Bearer <access token>"', 'invalid_request');
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, keys, { algorithms: ['ES256'], typ: 'at+jwt' }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw unauthorized('The access token has expired: renew it', 'invalid_token');
      throw unauthorized('The access token is not one this server issued', 'invalid_token');
    }
    const audience = typeof claims.iss === 'string' ? provider.audienceOfIssuer(claims.iss) : null;
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (audience === null || !audiences.includes(audience)) throw unauthorized('The access token is not for this API', 'invalid_token');
    if (typeof claims.sub !== 'string' || claims.sub === '') throw unauthorized('The access token names no member', 'invalid_token');
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
    return { subject: claims.sub, scopes };
  };
}
