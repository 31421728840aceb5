import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './schema';
import { ApiError, toErrorBody } from './errors';
import type { FetchLike } from './transport';

export type ApiClient = ReturnType<typeof createClient<paths>>;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}

/**
 * Echoes the XSRF-TOKEN cookie as X-XSRF-TOKEN, only on mutating requests to the page's own
 * origin: the token must never leak to another host.
 */
export function xsrfMiddleware(
  pageOrigin: () => string | null = () => globalThis.location?.origin ?? null,
  // The service worker has no document: it passes the cookie it read from the cookie store.
  // Stryker disable next-line StringLiteral: any cookie string without XSRF-TOKEN reads as no token
  cookies: () => string = () => (globalThis as { document?: { cookie?: string } }).document?.cookie ?? '',
): Middleware {
  return {
    onRequest({ request }) {
      const origin = pageOrigin();
      if (!origin || !MUTATING.has(request.method) || new URL(request.url).origin !== origin) return;
      const token = readCookie(cookies(), 'XSRF-TOKEN');
      if (token) request.headers.set('X-XSRF-TOKEN', token);
      return request;
    },
  };
}

/**
 * Logs every error answer as 'Backend Error ! status, error, message'; unwrap() re-throws it. A 412
 * is not logged: it answers a change made on a version that is no longer the profile's, the edit
 * conflict the app puts before the member, not a failure.
 */
export function backendErrorMiddleware(log: (line: string) => void = (line) => console.error(line)): Middleware {
  return {
    async onResponse({ response }) {
      if (response.ok || response.status === 412) return;
      let payload: unknown = null;
      try {
        payload = await response.clone().json();
      } catch {
        // A body that is not JSON still gets a log line, from the status alone.
      }
      const body = toErrorBody(response.status, payload, response.statusText);
      log(`Backend Error ! ${body.status}, ${body.error}, ${body.message}`);
    },
  };
}

export interface ApiClientOptions {
  baseUrl: string;
  fetch?: FetchLike;
  pageOrigin?: () => string | null;
  cookies?: () => string;
  log?: (line: string) => void;
  /**
   * Extra middleware, after the XSRF echo and the error log (the bearer token): it sees the request
   * as it is sent, and answers a response (a retry after a 401) before the error log reads it.
   */
  use?: Middleware[];
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(xsrfMiddleware(options.pageOrigin, options.cookies), backendErrorMiddleware(options.log), ...(options.use ?? []));
  return client;
}

/** openapi-fetch answers errors as values; the app's actions want them thrown. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, toErrorBody(response.status, error, response.statusText));
  return data as T;
}
