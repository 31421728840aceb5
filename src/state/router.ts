import { computed, signal } from '@preact/signals-core';

export interface Breadcrumb {
  title: string;
  path: string;
}

/** What the router knows of the active route. */
export interface RouterState {
  url: string;
  params: Record<string, string>;
  queryParams: Record<string, string>;
  breadcrumbs: Breadcrumb[];
  data: Record<string, unknown>;
}

const state = signal<RouterState>({ url: '/', params: {}, queryParams: {}, breadcrumbs: [], data: {} });

export const routerState = computed(() => state.value);

export function setRouterState(next: RouterState): void {
  state.value = next;
}
