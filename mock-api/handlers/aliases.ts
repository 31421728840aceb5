/**
 * Legacy URLs. `GET /notifications/own` is the notifications list; the three others name
 * collections this backend does not hold. Below an alias (`/notifications/own/3`) the URL is
 * rewritten to the collection's and answered as such (handlers/index.ts).
 */
import type { HttpHandler } from 'msw';
import { errorBody } from '../errors.ts';
import type { MockContext } from './context.ts';
import { notificationReads } from './notifications.ts';

/** Each legacy path and the collection it stands for. */
const ALIASES: ReadonlyArray<readonly [from: string, to: string]> = [
  ['notifications/own', 'notifications'],
  ['datapower/serviceproxy', 'serviceproxy'],
  ['nas/cluster', 'cluster'],
  ['layer7/my.cnf', 'mycnf'],
];

/** A path below the API base (`notifications/own/3`) with its alias rewritten (`notifications/3`). */
export function rewriteAlias(path: string): string {
  for (const [from, to] of ALIASES) {
    if (path === from || path.startsWith(`${from}/`)) return to + path.slice(from.length);
  }
  return path;
}

const missing = (name: string) => ({ status: 404 as const, body: errorBody(404, `Collection '${name}' not found`) });

export function aliasHandlers(mock: MockContext): HttpHandler[] {
  const { route } = mock;
  const notifications = notificationReads(mock);
  return [
    route('get', '/notifications/own', ({ request, operation }) => notifications.list(request, operation)),
    route('get', '/datapower/serviceproxy', () => missing(rewriteAlias('datapower/serviceproxy'))),
    route('get', '/nas/cluster', () => missing(rewriteAlias('nas/cluster'))),
    route('get', '/layer7/my.cnf', () => missing(rewriteAlias('layer7/my.cnf'))),
  ];
}
