import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { effect, type ReadonlySignal } from '@preact/signals-core';
import { isLoggedIn } from '../state/auth';
import { ROUTES, type RouteDef } from './routes';

/** One lazy component per route module; a failed load is forgotten so that a retry fetches again. */
const components = new Map<string, LazyExoticComponent<ComponentType> | ComponentType>();
const loads = new Map<string, Promise<unknown>>();
/** Screens whose code is in: they render at once, without suspending (a hydration needs that). */
const loaded = new Map<string, ComponentType>();

export function lazyScreen(route: RouteDef): LazyExoticComponent<ComponentType> | ComponentType {
  let component = components.get(route.id) ?? loaded.get(route.id);
  if (!component) {
    component = lazy(() => {
      const load = route.load();
      load.catch(() => forget(route));
      return load;
    });
    components.set(route.id, component);
  }
  return component;
}

export function forget(route: RouteDef): void {
  components.delete(route.id);
  loads.delete(route.id);
  loaded.delete(route.id);
}

/** Starts loading a route's code without showing it; resolves once it is in (or has failed). */
export function prefetchRoute(route: RouteDef): Promise<unknown> {
  let load = loads.get(route.id);
  if (!load) {
    load = route.load().then(
      (module) => loaded.set(route.id, module.default),
      () => loads.delete(route.id),
    );
    loads.set(route.id, load);
  }
  return load;
}

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/** Prefetch is skipped when the user asked to save data or the connection is 2g. */
export function shouldPrefetch(
  connection: NetworkInformation | undefined = (navigator as { connection?: NetworkInformation }).connection,
): boolean {
  if (!connection) return true;
  if (connection.saveData) return false;
  // Stryker disable next-line StringLiteral: a missing type only has to be text that names no 2g connection, as any placeholder does
  return !/(^|-)2g$/.test(connection.effectiveType ?? '');
}

/**
 * After load, fetch every lazy route that asks for it, unless the connection says not to. The
 * screens that need a session come once one has started: a visitor signed out is sent to sign in
 * from them, so their code (a tenth of a first visit's bytes) would be of no use yet. Returns how
 * many routes it fetches now.
 */
export function prefetchRoutes(
  routes: readonly RouteDef[] = ROUTES,
  connection?: NetworkInformation,
  signedIn: ReadonlySignal<boolean> = isLoggedIn,
): number {
  if (!shouldPrefetch(connection ?? (navigator as { connection?: NetworkInformation }).connection)) return 0;
  const wanted = routes.filter((r) => !r.noPrefetch);
  const open = signedIn.peek() ? wanted : wanted.filter((r) => !r.requiresAuth);
  for (const r of open) void prefetchRoute(r);
  const members = wanted.filter((r) => !open.includes(r));
  if (members.length > 0) {
    const stop = effect(() => {
      if (!signedIn.value) return;
      for (const r of members) void prefetchRoute(r);
      stop();
    });
  }
  return open.length;
}
