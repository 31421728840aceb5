import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useRouter, type Parser } from 'wouter';
import { breadcrumbsFor, resolvePath, routerStateFor } from './resolve-route';
import { routeById, routeChain, ROUTES, type RouteDef } from './routes';
import { en, type MessageKey } from '../i18n/en';
import { buildTitle } from './title';

/** The parser wouter's default router uses (regexparam), taken from the router itself. */
function defaultParser(): Parser {
  const { result, unmount } = renderHook(() => useRouter().parser);
  unmount();
  return result.current;
}
const parser = defaultParser();
// Route titles are all of the first screens' part of the catalogue.
const translate = (key: MessageKey) => (en as Record<MessageKey, string>)[key];

function route(id: string): RouteDef {
  const r = routeById(id);
  if (!r) throw new Error(`No route ${id}`);
  return r;
}

describe('resolvePath', () => {
  it("redirects '' and '/' to /home, exactly", () => {
    expect(resolvePath(parser, '')).toEqual({ kind: 'redirect', to: '/home' });
    expect(resolvePath(parser, '/')).toEqual({ kind: 'redirect', to: '/home' });
  });

  it('shows the not-found screen at an unknown path, which stays as it is (no redirect to /404)', () => {
    for (const path of ['/nope', '/homepage', '/home/extra', '/admin/symbols/1', '/settings/x', '//']) {
      expect(resolvePath(parser, path), path).toEqual({ kind: 'route', route: route('not-found'), params: {} });
    }
  });

  it('matches every route at its own path', () => {
    for (const r of ROUTES.filter((x) => !x.path.includes(':'))) {
      const res = resolvePath(parser, r.path);
      expect(res.kind === 'route' && res.route.id, r.path).toBe(r.id);
    }
  });

  it('matches the 404 and home routes themselves', () => {
    const notFound = resolvePath(parser, '/404');
    expect(notFound.kind === 'route' && notFound.route.id).toBe('not-found');
    const home = resolvePath(parser, '/home');
    expect(home).toEqual({ kind: 'route', route: route('home'), params: {} });
  });

  it("matches '/admin/symbols' to the child route with params {collection: 'symbols'}", () => {
    const res = resolvePath(parser, '/admin/symbols');
    expect(res.kind).toBe('route');
    if (res.kind !== 'route') return;
    expect(res.route.id).toBe('admin-collection');
    expect(res.params).toEqual({ collection: 'symbols' });
  });

  it('accepts a trailing slash', () => {
    const res = resolvePath(parser, '/admin/accounts/');
    expect(res.kind === 'route' && [res.route.id, res.params]).toEqual(['admin-collection', { collection: 'accounts' }]);
  });

  it("keeps a custom parser's named params, whatever their names, and leaves out unmatched ones", () => {
    // Named groups, as a URLPattern-style parser gives them; the optional `sort` is not in the path.
    const named: Parser = (path, loose) =>
      path === '/admin/:collection'
        ? { pattern: /^\/admin\/(?<collection>[a-z]+)(?:\/(?<page2>\d+))?(?:\/(?<sort>[a-z]+))?$/ }
        : parser(path, loose);
    const res = resolvePath(named, '/admin/symbols/12');
    expect(res.kind === 'route' && res.route.id).toBe('admin-collection');
    expect(res.kind === 'route' && res.params).toStrictEqual({ collection: 'symbols', page2: '12' });
  });

  it("leaves out a parser's positional captures, however many, but not a name that starts with a digit", () => {
    const keyed: Parser = (path, loose) =>
      path === '/admin/:collection'
        ? { pattern: /^\/admin\/(\w+)\/(\w+)\/(\w)(\w)(\w)(\w)(\w)(\w)(\w)(\w)(\w)$/, keys: ['collection', '3d'] }
        : parser(path, loose);
    const res = resolvePath(keyed, '/admin/symbols/cube/abcdefghi');
    expect(res.kind === 'route' && res.params).toStrictEqual({ collection: 'symbols', '3d': 'cube' });
  });
});

describe('breadcrumbsFor', () => {
  it('lists the parent first, then the child titled by its param', () => {
    const crumbs = breadcrumbsFor(route('admin-collection'), { collection: 'symbols' }, translate);
    expect(crumbs).toEqual([
      { title: 'Admin', path: '/admin' },
      { title: 'symbols', path: '/admin/symbols' },
    ]);
    expect(buildTitle(crumbs, 'Circle')).toBe('Admin | symbols | Circle');
  });

  it('translates catalogue titles', () => {
    expect(breadcrumbsFor(route('settings'), {}, translate)).toEqual([{ title: 'Settings', path: '/settings' }]);
    expect(breadcrumbsFor(route('settings'), {}, () => 'Ajustes')).toEqual([{ title: 'Ajustes', path: '/settings' }]);
  });

  it('leaves a param not given empty, in the title and the path (a page built before any param is known)', () => {
    expect(breadcrumbsFor(route('admin-collection'), {}, translate)).toEqual([
      { title: 'Admin', path: '/admin' },
      { title: '', path: '/admin/' },
    ]);
  });

  it('encodes params in breadcrumb paths', () => {
    const crumbs = breadcrumbsFor(route('admin-collection'), { collection: 'a b/c' }, translate);
    expect(crumbs[1]).toEqual({ title: 'a b/c', path: '/admin/a%20b%2Fc' });
  });
});

describe('routerStateFor', () => {
  it('holds url, params, queryParams and breadcrumbs', () => {
    const child = route('admin-collection');
    const crumbs = breadcrumbsFor(child, { collection: 'symbols' }, translate);
    const state = routerStateFor('/admin/symbols', 'page=2&q=ms%20ft&flag', child, { collection: 'symbols' }, crumbs);
    expect(state).toEqual({
      url: '/admin/symbols',
      params: { collection: 'symbols' },
      queryParams: { page: '2', q: 'ms ft', flag: '' },
      breadcrumbs: crumbs,
      data: {},
    });
  });

  it('accepts a search string with its leading ?', () => {
    expect(routerStateFor('/home', '?next=%2Fadmin', route('home'), {}, []).queryParams).toEqual({ next: '/admin' });
  });

  it("gives a child route its parents' data, its own data winning", () => {
    const parent = route('admin');
    const child = route('admin-collection');
    expect(routeChain(child)).toEqual([parent, child]);
    const saved = [parent.data, child.data] as const;
    try {
      parent.data = { section: 'admin', shared: 'parent' };
      child.data = { shared: 'child', table: true };
      const state = routerStateFor('/admin/symbols', '', child, { collection: 'symbols' }, []);
      expect(state.data).toEqual({ section: 'admin', shared: 'child', table: true });
      // The parent's own data object is not changed by the merge.
      expect(parent.data).toEqual({ section: 'admin', shared: 'parent' });
    } finally {
      parent.data = saved[0];
      child.data = saved[1];
    }
  });
});
