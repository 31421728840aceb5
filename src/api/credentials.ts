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

/** Who hears of a 401: the session model, which then tells the member to sign in again. */
let onRefused: () => void = () => undefined;
export function onUnauthorized(listener: () => void): void {
  onRefused = listener;
}

/**
 * Adds `Authorization: Bearer <token>` to requests for the API, and only those: a request to any
 * other URL (another host, the provider) never carries the member's token.
 */
export function bearerMiddleware(apiBase: () => string, token: () => Promise<string | null> = () => source()): Middleware {
  return {
    async onRequest({ request }) {
      if (!request.url.startsWith(apiBase()) || request.headers.has('authorization')) return;
      const value = await token();
      if (!value) return;
      request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
    onResponse({ request, response }) {
      if (response.status === 401 && request.headers.has('authorization')) onRefused();
    },
  };
}

/** The Authorization header of the member's token, for a request made without the client (an image). */
export async function authorizationHeader(): Promise<Record<string, string>> {
  const value = await source();
  return value ? { Authorization: `Bearer ${value}` } : {};
}
