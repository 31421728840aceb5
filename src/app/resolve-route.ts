import { matchRoute, type Parser } from 'wouter';
import { HOME_PATH, NOT_FOUND_PATH, ROUTES, routeChain, type RouteDef } from './routes';
import type { Breadcrumb, RouterState } from '../state/router';
import type { FirstKey } from '../i18n/en';

export type Resolution = { kind: 'redirect'; to: string } | { kind: 'route'; route: RouteDef; params: Record<string, string> };

/**
 * Decides what a path shows: '' and '/' go home (exact), the rest match a route; an unknown path
 * shows the not-found screen where it is (the address stays as typed, the server answers it 404).
 */
export function resolvePath(parser: Parser, path: string): Resolution {
  if (path === '' || path === '/') return { kind: 'redirect', to: HOME_PATH };
  for (const route of ROUTES) {
    const [matched, params] = matchRoute(parser, route.path, path);
    if (matched) {
      const clean: Record<string, string> = {};
      for (const [k, v] of Object.entries(params ?? {})) if (typeof v === 'string' && !/^\d+$/.test(k)) clean[k] = v;
      return { kind: 'route', route, params: clean };
    }
  }
  const notFound = ROUTES.find((route) => route.path === NOT_FOUND_PATH)!;
  return { kind: 'route', route: notFound, params: {} };
}

export function breadcrumbsFor(route: RouteDef, params: Record<string, string>, translate: (key: FirstKey) => string): Breadcrumb[] {
  return routeChain(route).map((r) => ({
    title: typeof r.title === 'function' ? r.title(params) : translate(r.title),
    path: r.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? '')),
  }));
}

export function routerStateFor(
  url: string,
  search: string,
  route: RouteDef,
  params: Record<string, string>,
  breadcrumbs: Breadcrumb[],
): RouterState {
  // Child routes see their parents' data as well as their own.
  const data = Object.assign({}, ...routeChain(route).map((r) => r.data ?? {})) as Record<string, unknown>;
  return { url, params, queryParams: Object.fromEntries(new URLSearchParams(search)), breadcrumbs, data };
}
