/**
 * Who may call an operation, judged before anything else about the request (its delay, its body,
 * even whether the id exists), as a gateway in front of a real backend judges it:
 *
 * 1. another site's page: a state-changing request without a bearer token whose `Origin` is not
 *    the API's own, or whose `Sec-Fetch-Site` says it came from another site, answers 403. A
 *    browser attaches no token on its own, so such a request is one a page of another site sent
 *    through the member's browser (a form post, `fetch(…, { mode: 'no-cors' })`);
 * 2. credentials, for an operation openapi.yaml secures: the caller's identity, or 401;
 * 3. roles, for an operation whose security names one (`bearer: [admin]`): 403 without it.
 */
import type { Authenticate, Identity } from '../auth.ts';
import { httpError } from '../errors.ts';
import type { OperationSpec } from '../../openapi-kit/index.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Why a request looks sent by another site's page, or null. The host is compared, not the scheme:
 * behind a TLS proxy the page's `https://` origin reaches this server as plain HTTP.
 */
export function foreignSite(request: Request): string | null {
  const site = request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site ${site}`;
  const origin = request.headers.get('origin');
  if (origin === null) return null;
  const host = URL.parse(origin)?.host;
  return host === new URL(request.url).host ? null : `Origin ${origin}`;
}

/** A bearer token as RFC 6750 writes it (`b64token`): only such a header is one a page of another site cannot have added. */
const BEARER = /^Bearer [A-Za-z0-9\-._~+/]+=*$/i;

/** Whether the request carries a well-formed bearer token (whether it is valid is the gate's next question). */
const hasBearer = (request: Request): boolean => BEARER.test(request.headers.get('authorization') ?? '');

/**
 * Refuses (403) a state-changing request another site's page sent without a bearer token; every
 * such operation documents its 403. Any other Authorization (`Basic …`, a bare word) exempts
 * nothing: the check does not rest on what a browser might attach.
 */
export function refuseCrossSite(request: Request, operation: OperationSpec): void {
  if (SAFE.has(request.method.toUpperCase()) || hasBearer(request)) return;
  if (!operation.statuses.includes('403')) return;
  const why = foreignSite(request);
  if (why) throw httpError(403, `Refused: a request from another site (${why}) without a bearer token cannot change anything`);
}

/** The caller of `operation`, once admitted (null for an open one); a refusal is thrown as its answer (403, 401). */
export type Admit = (request: Request, operation: OperationSpec) => Promise<Identity | null>;

export function createGate(authenticate: Authenticate): Admit {
  return async (request, operation) => {
    refuseCrossSite(request, operation);
    if (!operation.secured) return null;
    const identity = await authenticate(request);
    const missing = operation.roles.find((role) => !identity.roles.includes(role));
    if (missing !== undefined) throw httpError(403, `This operation needs the ${missing} role`);
    return identity;
  };
}
