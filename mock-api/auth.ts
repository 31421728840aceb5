/**
 * How the mock knows who is calling. The profile's operations are secured in openapi.yaml: each
 * one asks `authenticate` for the caller's identity, which reads the request's bearer access
 * token (mock-api/jwt.ts checks the embedded provider's JWTs) or refuses with 401.
 */
import { httpError } from './errors.ts';

export interface Identity {
  /** The token's `sub`: the member the data belongs to. */
  subject: string;
  /** The token's `roles` claim: what the member may do besides their own profile (`admin`: openapi.yaml, Roles). */
  roles: readonly string[];
}

/** The caller's identity, or a thrown 401 answer (with WWW-Authenticate) saying what is wrong. */
export type Authenticate = (request: Request) => Promise<Identity>;

/** The RFC 6750 challenge of a 401: which scheme to use, and what was wrong with the token sent. */
export function unauthorized(message: string, error?: 'invalid_request' | 'invalid_token'): Response {
  const challenge = error
    ? `Bearer realm="circle", error="${error}", error_description="${message.replace(/["\\]/g, '')}"`
    : 'Bearer realm="circle"';
  return httpError(401, message, { 'www-authenticate': challenge });
}

/** Without an identity provider every secured operation is refused. */
export const rejectAll: Authenticate = async () => {
  throw unauthorized('Sign in: this operation needs a bearer access token');
};
