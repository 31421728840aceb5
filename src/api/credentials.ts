import type { Middleware } from 'openapi-fetch';
import { readSession } from './session-store';

/**
 * What the API's requests need of the member's session: the access token to send, a new one in
 * place of a token the API refused, and word that even that one was refused. The session model
 * (src/session/session.ts) keeps them, and hands itself to this module as its entry loads it
 * (src/session/index.ts): this layer cannot import the session, which sits above it.
 */
export interface TokenKeeper {
  /** The access token for a request (renewed first when about to expire), or null when signed out. */
  accessToken(): Promise<string | null>;
  /** A new token in place of `refused`, or null when there is none (the provider refused, or cannot be reached). */
  renewRefused(refused: string): Promise<string | null>;
  /** Even a renewed token was refused: the session cannot be used. */
  refusedAgain(): void;
}

/**
 * Until the session model has loaded (and in the service worker, which never loads it): the stored
 * session's token as it is, and nothing renewed.
 */
const STORED_TOKEN: TokenKeeper = {
  accessToken: async () => (await readSession())?.accessToken ?? null,
  renewRefused: async () => null,
  refusedAgain: () => undefined,
};

let keeper: TokenKeeper = STORED_TOKEN;

/** The keeper of the member's tokens from now on; what it leaves out (or null: all) is the stored session's, as it is. */
export function setTokenKeeper(next: Partial<TokenKeeper> | null): void {
  keeper = { ...STORED_TOKEN, ...next };
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
 * token refused too is told to the session model (refusedAgain).
 *
 * Put it last among the middleware: it then sees the request as it is sent (the XSRF echo
 * included), and its retry answers before the others read the response.
 */
export function bearerMiddleware(apiBase: () => string, token: () => Promise<string | null> = () => keeper.accessToken()): Middleware {
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
      const renewed = await keeper.renewRefused(refused).catch(() => null);
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
      if (answer.status === 401) keeper.refusedAgain();
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
  const value = await keeper.accessToken();
  return value ? { Authorization: `Bearer ${value}` } : {};
}
