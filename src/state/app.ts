import { computed, signal } from '@preact/signals-core';
import { INSTALLED_KEY } from '../config/storage-keys';
import { decodeBoolean, persistedSignal } from '../lib/persist';
import { recordChange } from './history';
import { renderMode } from './render-mode';
import { isOnline, setConnectivity } from '../lib/connectivity';

/** The browser's install prompt event (not in the DOM typings yet). */
export interface BeforeInstallPromptEvent extends Event {
  readonly platforms: string[];
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
  prompt(): Promise<void>;
}

export { INSTALLED_KEY };

const installPrompt = signal<BeforeInstallPromptEvent | null>(null);
const installed = persistedSignal(INSTALLED_KEY, decodeBoolean, false);

export { isOnline };
export const pendingInstallPrompt = computed(() => installPrompt.value);
export const isInstalled = computed(() => installed.value);
/** Installation can be offered: the browser gave a prompt and the app is not installed yet. */
export const canInstall = computed(() => installPrompt.value !== null && !installed.value);
/**
 * Installation is offered on screen: not in what the build prerenders, nor while the browser
 * hydrates it (a prompt the browser gave before the app ran would make that render differ).
 */
export const installOffered = computed(() => canInstall.value && renderMode.value === 'live');

export function setOnline(value: boolean): void {
  if (!setConnectivity(value)) return;
  recordChange('app', value ? 'online' : 'offline', { online: value });
}

export function storeInstallPrompt(event: BeforeInstallPromptEvent | null): void {
  installPrompt.value = event;
  recordChange('app', event ? 'installPromptStored' : 'installPromptCleared', { installPrompt: Boolean(event) });
}

export function markInstalled(): void {
  installed.value = true;
  installPrompt.value = null;
  recordChange('app', 'installed', { installed: true });
}
