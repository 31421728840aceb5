import type { Middleware } from 'openapi-fetch';
import { readSession } from './session-store';

/**
 * Where the API's requests get their access token. By default the stored session's, as it is;
 * the session model (state/session.ts) puts in one that renews a token about to expire.
 */
let source: () => Promise<string | null> = async () => (await readSession())?.accessToken ?? null;

export function setAccessTokenSource(next: () => Promise<string | null>): void {
  source = next;
}

/**
 * What a 401 to a token does: the session model renews the session and answers the new token, or
 * null when there is none (the provider refused, or cannot be reached). Without a session model
 * (the service worker) nothing is renewed.
 */
let renewer: (refused: string) => Promise<string | null> = async () => null;
export function setTokenRenewer(next: (refused: string) => Promise<string | null>): void {
  renewer = next;
}

/** Who hears that even a renewed token was refused: the session model, which then shows the member signed out. */
let onRefused: () => void = () => undefined;
export function onUnauthorized(listener: () => void): void {
  onRefused = listener;
}

/**
 * Whether `url` is under the API base: the same origin (scheme, host and port), and a path under the
 * base path as a whole segment (`/api/` covers `/api/x`, never `/apix`).
 */
export function isApiUrl(url: string, apiBase: string): boolean {
  try {
    const target = new URL(url);
    const base = new URL(apiBase);
    const path = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
    return target.origin === base.origin && (target.pathname === base.pathname || target.pathname.startsWith(path));
  } catch {
    return false;
  }
}

// Stryker disable next-line ArrayDeclaration,StringLiteral: a GET or HEAD request never has a body, so `!request.body` below keeps none for them anyway
const BODILESS = new Set(['GET', 'HEAD']);

/**
 * Adds `Authorization: Bearer <token>` to requests for the API, and only those: a request to any
 * other URL (another host, the provider) never carries the member's token. A 401 to a token is
 * answered by renewing the session and sending the request once more with the new token; a new
 * token refused too is told to the session model (onUnauthorized).
 *
 * Put it last among the middleware: it then sees the request as it is sent (the XSRF echo
 * included), and its retry answers before the others read the response.
 */
export function bearerMiddleware(apiBase: () => string, token: () => Promise<string | null> = () => source()): Middleware {
  // The body of each request that carries a token, kept to send it again after a 401 (a sent body is consumed).
  const bodies = new Map<string, Promise<Blob | null>>();
  return {
    async onRequest({ request, id }) {
      if (!isApiUrl(request.url, apiBase()) || request.headers.has('authorization')) return;
      const value = await token();
      if (!value) return;
      request.headers.set('Authorization', `Bearer ${value}`);
      bodies.set(id, BODILESS.has(request.method) || !request.body ? Promise.resolve(null) : request.clone().blob());
      return request;
    },
    async onResponse({ request, response, options, id }) {
      const body = bodies.get(id);
      // Stryker disable next-line CallExpression: ids are never reused; dropping the entry only frees the kept body
      bodies.delete(id);
      if (response.status !== 401 || !body) return;
      // Stryker disable next-line StringLiteral,OptionalChaining,Regex: a request with a kept body got its Authorization here, and access tokens hold no space
      const refused = request.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
      // Stryker disable next-line ArrowFunction: undefined, like null, is no new token
      const renewed = await renewer(refused).catch(() => null);
      // No new token: the session model has dealt with it (signed out when the provider refused,
      // kept while it cannot be reached); the 401 is the answer.
      if (!renewed || renewed === refused) return;
      const headers = new Headers(request.headers);
      headers.set('Authorization', `Bearer ${renewed}`);
      const again = new Request(request.url, {
        method: request.method,
        headers,
        body: await body,
        signal: request.signal,
        credentials: request.credentials,
        cache: request.cache,
        redirect: request.redirect,
      });
      const answer = await options.fetch(again);
      if (answer.status === 401) onRefused();
      return answer;
    },
    // Stryker disable next-line BlockStatement: ids are never reused; dropping the entry only frees the kept body
    onError({ id }) {
      // Stryker disable next-line CallExpression: as above
      bodies.delete(id);
    },
  };
}

/** The Authorization header of the member's token, for a request made without the client (an image). */
export async function authorizationHeader(): Promise<Record<string, string>> {
  const value = await source();
  return value ? { Authorization: `Bearer ${value}` } : {};
}
