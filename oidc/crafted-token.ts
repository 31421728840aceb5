/**
 * Access tokens the provider never issues, signed with its own key all the same: expired, for
 * another API, naming no member. A black-box client cannot get them, yet an API must refuse them;
 * with them the suites and verify's embedded start show that it does. They are made in the process
 * only: no endpoint hands them out.
 */
import { randomBytes } from 'node:crypto';
import { importJWK, type JWK, SignJWT } from 'jose';
import { findAccount } from './accounts.ts';
import { API_SCOPE, audienceFor, CLIENT_ID, issuerFor } from './configuration.ts';

/** Claims to put in place of an issued token's own; one given as undefined is left out. */
export type ClaimChanges = Readonly<Record<string, unknown>>;

/**
 * An access token as the provider issues it to `member` for pages on `origin` (its issuer and API
 * audience, its client and scope, the member's roles, `accessTokenTtl` seconds from now), with
 * `changes` made to its claims, signed with `signing` (the provider's key) as an `at+jwt`.
 */
export async function craftAccessToken(
  signing: JWK,
  accessTokenTtl: number,
  origin: string,
  member: string,
  changes: ClaimChanges = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const issued: Record<string, unknown> = {
    iss: issuerFor(origin),
    aud: audienceFor(origin),
    sub: member,
    iat: now,
    exp: now + accessTokenTtl,
    jti: randomBytes(16).toString('base64url'),
    client_id: CLIENT_ID,
    scope: API_SCOPE,
    roles: [...(findAccount(member)?.roles ?? [])],
  };
  const claims = Object.fromEntries(Object.entries({ ...issued, ...changes }).filter(([, value]) => value !== undefined));
  const key = await importJWK(signing, 'ES256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: signing.kid! }).sign(key);
}
