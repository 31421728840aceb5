/**
 * What no longer holds besides what oidc-provider keeps itself: an access token of the API revoked
 * (oidc-provider keeps no record of the JWTs it issues), a grant revoked (every token of it), and
 * a member signed out everywhere, with the endpoint that does so. The API asks `isRevoked` of every
 * token it is shown.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createLocalJWKSet, type JWK, type JWTPayload, jwtVerify } from 'jose';
import { OIDC_PREFIX } from './paths.ts';
import type { MemoryStore } from './store.ts';

/** Where the app ends every session of the member, on every device: POST with the member's access token. */
export const SIGN_OUT_EVERYWHERE_PATH = `${OIDC_PREFIX}/session/everywhere`;

export interface Revocations {
  /**
   * Whether an access token (its verified claims) no longer holds: revoked itself, its grant revoked
   * (the refresh token revoked at sign-out, a session ended), or its member signed out everywhere since.
   */
  isRevoked(claims: Record<string, unknown>): boolean;
  /** The claims of an access token this provider issued and that still holds, else null. */
  liveToken(token: string): Promise<JWTPayload | null>;
  /** An access token revoked, by its jti. */
  revokeToken(jti: string): void;
  /** A grant revoked, and with it every token of it. */
  revokeGrant(grantId: string): void;
  /** Answers a request to SIGN_OUT_EVERYWHERE_PATH. */
  signOutEverywhere(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** The revocations the providers of one server share, each kept for an access token's lifetime (`accessTokenTtl`, in seconds). */
export function createRevocations(accessTokenTtl: number, publicKeys: { keys: JWK[] }, adapter: MemoryStore): Revocations {
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
  const revokeToken = (jti: string) => {
    forgetPast();
    revokedTokens.set(jti, keepFor());
  };

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

  return { isRevoked, liveToken, revokeToken, revokeGrant, signOutEverywhere };
}
