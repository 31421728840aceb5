import { computed, signal } from '@preact/signals-core';

// Where there is no browser (the build's prerender: Node has a navigator without onLine), online.
const online = signal(globalThis.navigator?.onLine ?? true);

/** Whether the browser has a network: a leaf every layer may read (the error texts depend on it). */
export const isOnline = computed(() => online.value);

/** Set by the online-status watcher in pwa/, through the app store that records the change. */
export function setConnectivity(value: boolean): boolean {
  if (online.value === value) return false;
  online.value = value;
  return true;
}
