import type { ComponentType } from 'react';
import type { FirstKey } from '../i18n/en';
import { loadProfileScreen } from '../profile';

export type LayoutKind = 'home' | 'sidenav' | 'dashboard' | 'admin';

export interface RouteDef {
  id: string;
  /** A wouter pattern. */
  path: string;
  /** Breadcrumb title: a catalogue key, or text made from the route's params. */
  title: FirstKey | ((params: Record<string, string>) => string);
  layout: LayoutKind;
  load: () => Promise<{ default: ComponentType }>;
  /** Never fetched ahead of a visit. */
  noPrefetch?: boolean;
  requiresAuth?: boolean;
  /** Its first render reads the URL's query: its page, prerendered without one, hydrates only without one. */
  readsQuery?: boolean;
  /** The parent route: its breadcrumb comes first and its params are inherited. */
  parent?: string;
  data?: Record<string, unknown>;
}

export const HOME_PATH = '/home';
export const NOT_FOUND_PATH = '/404';

export const ROUTES: readonly RouteDef[] = [
  { id: 'home', path: HOME_PATH, title: 'nav.home', layout: 'home', load: () => import('./home-screen') },
  {
    id: 'profile',
    path: '/profile',
    title: 'nav.profile',
    layout: 'sidenav',
    requiresAuth: true,
    load: loadProfileScreen,
  },
  {
    id: 'settings',
    path: '/settings',
    title: 'nav.settings',
    layout: 'sidenav',
    load: () => import('../features/settings/SettingsScreen'),
  },
  {
    id: 'dashboard',
    path: '/dashboard',
    title: 'nav.dashboard',
    layout: 'dashboard',
    load: () => import('../features/dashboard/DashboardScreen'),
  },
  {
    id: 'notifications',
    path: '/notifications',
    title: 'nav.notifications',
    layout: 'sidenav',
    requiresAuth: true,
    load: () => import('../features/notifications/NotificationsScreen'),
  },
  {
    id: 'admin',
    path: '/admin',
    title: 'nav.admin',
    layout: 'admin',
    requiresAuth: true,
    load: () => import('../features/admin/AdminScreen'),
  },
  {
    id: 'admin-collection',
    path: '/admin/:collection',
    parent: 'admin',
    title: (params) => params.collection ?? '',
    layout: 'admin',
    requiresAuth: true,
    load: () => import('../features/admin/AdminScreen'),
  },
  {
    id: 'sign-in',
    path: '/sign-in',
    title: 'nav.signIn',
    layout: 'home',
    readsQuery: true,
    load: () => import('../features/sign-in/SignInScreen'),
  },
  {
    id: 'auth-callback',
    path: '/auth/callback',
    title: 'nav.signIn',
    layout: 'home',
    noPrefetch: true,
    load: () => import('../features/sign-in/CallbackScreen'),
  },
  {
    id: 'not-found',
    path: NOT_FOUND_PATH,
    title: 'nav.notFound',
    layout: 'home',
    noPrefetch: true,
    load: () => import('../features/not-found/NotFoundScreen'),
  },
];

export function routeById(id: string): RouteDef | undefined {
  return ROUTES.find((r) => r.id === id);
}

/** The route and its ancestors, root first. */
export function routeChain(route: RouteDef): RouteDef[] {
  const chain: RouteDef[] = [];
  for (let r: RouteDef | undefined = route; r; r = r.parent ? routeById(r.parent) : undefined) chain.unshift(r);
  return chain;
}
