/**
 * The mock's own endpoints, under `/__mock/` (outside the API's base path, so never an operation
 * of openapi.yaml): `POST /__mock/reset` restores the initial data (the seed or the fixtures),
 * `GET /__mock/requests` lists the last exchanges, newest first. Both answer only requests from
 * the mock's own origin: another site's page must not reset a developer's data or read what the
 * app sent.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { Database } from '../db.ts';
import { httpError } from '../errors.ts';
import type { Journal } from '../journal.ts';

export const CONTROL_PREFIX = '/__mock';

/**
 * Host names a page of another site cannot take (through DNS rebinding): IP literals and localhost.
 * The URL parser writes an IPv4 address as four decimal numbers and an IPv6 one in brackets, so a
 * name made of hex letters and dots (`bad.cafe`, a domain anyone can register) is no IP literal.
 */
const ownHostName = (hostname: string, trusted: readonly string[]) =>
  /^(?:\d+\.){3}\d+$|^\[[\d.:a-f]+\]$/i.test(hostname) ||
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  trusted.includes(hostname);

/** Why a request must be refused, or null when it comes from the mock's own origin (or from no browser). */
function foreign(request: Request, trustedHosts: readonly string[]): string | null {
  const url = new URL(request.url);
  const site = request.headers.get('sec-fetch-site');
  if (site !== null && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site is '${site}'`;
  const origin = request.headers.get('origin');
  if (origin !== null && origin !== url.origin) return `Origin ${origin} is not ${url.origin}`;
  if (!ownHostName(url.hostname, trustedHosts)) return `Host '${url.hostname}' is not this machine's`;
  return null;
}

export interface ControlOptions {
  db: Database;
  journal: Journal;
  /** `ANY_ORIGIN` in Node (the server sees only its own requests), '' in the browser (the page's origin). */
  origin: string;
  /** Host names besides IP literals and localhost the mock is reached by (its --host). */
  trustedHosts?: readonly string[];
}

// Stryker disable next-line ArrayDeclaration: a URL's hostname never holds a space, so a default list with such a name trusts no more hosts than the empty one
export function controlHandlers({ db, journal, origin, trustedHosts = [] }: ControlOptions): HttpHandler[] {
  const base = `${origin}${CONTROL_PREFIX}`;
  const guard = (request: Request) => {
    const why = foreign(request, trustedHosts);
    if (why) throw httpError(403, `The mock's control endpoints answer only its own origin: ${why}`);
  };
  return [
    http.post(`${base}/reset`, async ({ request }) => {
      guard(request);
      await db.reset();
      return new HttpResponse(null, { status: 204 });
    }),
    http.get(`${base}/requests`, ({ request }) => {
      guard(request);
      return HttpResponse.json(journal.entries(), { headers: { 'cache-control': 'no-store' } });
    }),
    http.all(`${base}/reset`, () => httpError(405, 'Method not allowed', { allow: 'POST' })),
    http.all(`${base}/requests`, () => httpError(405, 'Method not allowed', { allow: 'GET' })),
    http.all(`${base}/*`, ({ request }) => httpError(404, `No mock endpoint at '${new URL(request.url).pathname}'`)),
  ];
}
