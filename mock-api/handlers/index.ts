/**
 * Every handler of the mock, in the order MSW tries them:
 *
 * 1. the mock's own endpoints (`/__mock/…`, control.ts);
 * 2. who may call (gate.ts: another site's page, credentials, roles), then the delay and the
 *    answers `Prefer` or the scenario file ask for (scenarios.ts);
 * 3. one typed route per documented path and method, grouped per resource (profile, aliases,
 *    collections, notifications, subscriptions, commands), in the order OpenAPI matches paths; after
 *    each path's routes, any other method on it answers 405 with Allow (route.ts);
 * 4. anything else under the API: a path below an alias is answered as the collection's, the
 *    rest is 404.
 */
import { getResponse, http, type HttpHandler } from 'msw';
import { rejectAll } from '../auth.ts';
import type { Authenticate } from '../auth.ts';
import type { Contract } from '../contract.ts';
import { COLLECTIONS, type Database } from '../db.ts';
import { httpError } from '../errors.ts';
import type { Journal } from '../journal.ts';
import { aliasHandlers, rewriteAlias } from './aliases.ts';
import { collectionHandlers } from './collections.ts';
import { commandHandlers } from './commands.ts';
import type { MockContext } from './context.ts';
import { controlHandlers } from './control.ts';
import { notificationHandlers } from './notifications.ts';
import { profileHandlers } from './profile.ts';
import { createRouter } from './route.ts';
import { scenarioHandlers, type ScenarioOptions } from './scenarios.ts';
import { subscriptionHandlers } from './subscriptions.ts';
import type { RateLimitOptions } from '../rate.ts';

export interface HandlerOptions extends ScenarioOptions {
  contract: Contract;
  db: Database;
  journal: Journal;
  /** Where the API lives on the origin: `/api`. */
  basePath: string;
  /**
   * In the browser a path means the page's own origin; the Node server, which answers only its
   * own requests, matches it on any origin.
   */
  anyOrigin: boolean;
  trustedHosts?: readonly string[];
  /** Who is calling a secured operation; every such call is refused (401) without it. */
  authenticate?: Authenticate;
  /** How many push subscriptions one client may store without a bearer token (../rate.ts); tests make it smaller. */
  subscriptionCreates?: RateLimitOptions;
}

const decode = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

/** Any scheme and host, as an MSW path prefix: each parameter is one URL part, never a slash. */
export const ANY_ORIGIN = ':scheme://:host';

/** What is not a route: below an alias, the collection's answer; else 404 naming what is missing. */
function notARoute(basePath: string, prefix: string, dispatch: (request: Request) => Promise<Response | undefined>): HttpHandler {
  return http.all(`${prefix}/*`, async ({ request }) => {
    const url = new URL(request.url);
    const path = url.pathname.slice(basePath.length);
    const segments = path.split('/').filter(Boolean);
    const canonical = `/${rewriteAlias(segments.join('/'))}`;
    if (canonical !== path) {
      url.pathname = `${basePath}${canonical}`;
      // Stryker disable next-line StringLiteral: unreachable, the rewritten path is under the API, where this handler answers every request
      return (await dispatch(new Request(url, request))) ?? httpError(404, 'Not found');
    }
    const [head, ...rest] = segments.map(decode);
    if (head !== undefined && Object.hasOwn(COLLECTIONS, head)) throw httpError(404, `No resource at '${[head, ...rest].join('/')}'`);
    if (head === 'user' && rest[0] === 'profile') throw httpError(404, `No profile resource at '${rest.slice(1).join('/')}'`);
    throw httpError(404, `Collection '${head ?? ''}' not found`);
  });
}

export function createHandlers(options: HandlerOptions): HttpHandler[] {
  const { contract, db, journal, basePath, anyOrigin, trustedHosts, authenticate = rejectAll } = options;
  // Named segments, not MSW's `*`: a wildcard would also take path segments, so `*/api/symbols`
  // answered /api/symbols/api/symbols (or /api/x/api/symbols) with the symbols.
  const origin = anyOrigin ? ANY_ORIGIN : '';
  const prefix = `${origin}${basePath}`;
  const router = createRouter(contract, prefix, authenticate);
  const mock: MockContext = { contract, db, route: router.route, basePath, authenticate };

  const routes: HttpHandler[] = [
    ...profileHandlers(mock),
    ...aliasHandlers(mock),
    ...collectionHandlers(mock),
    ...notificationHandlers(mock),
    ...subscriptionHandlers(mock, options.subscriptionCreates),
    ...commandHandlers(mock),
  ];
  const api = router.inPathOrder(routes);
  api.push(notARoute(basePath, prefix, (request) => getResponse(api, request)));

  return [
    ...controlHandlers({ db, journal, origin, ...(trustedHosts ? { trustedHosts } : {}) }),
    ...scenarioHandlers(mock, prefix, options),
    ...api,
  ];
}
