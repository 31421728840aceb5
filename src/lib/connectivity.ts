import { computed, signal } from '@preact/signals-core';

const online = signal(typeof navigator === 'undefined' ? true : navigator.onLine);

/** Whether the browser has a network: a leaf every layer may read (the error texts depend on it). */
export const isOnline = computed(() => online.value);

/** Set by the online-status watcher in pwa/, through the app store that records the change. */
export function setConnectivity(value: boolean): boolean {
  if (online.value === value) return false;
  online.value = value;
  return true;
}
