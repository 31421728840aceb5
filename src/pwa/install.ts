import {
  canInstall,
  isInstalled,
  markInstalled,
  pendingInstallPrompt,
  storeInstallPrompt,
  type BeforeInstallPromptEvent,
} from '../state/app';
import { track } from '../lib/analytics';
import { log } from '../lib/logger';
import { takeEarlyInstallEvents } from '../lib/early-install';

/** Shows the stored prompt and records the user's choice, or 'errored' when the browser refuses. */
export async function showInstallPrompt(): Promise<'accepted' | 'dismissed' | 'errored' | 'unavailable'> {
  const prompt = pendingInstallPrompt.value;
  if (!prompt || !canInstall.value) return 'unavailable';
  try {
    await prompt.prompt();
    const { outcome } = await prompt.userChoice;
    track('install', outcome);
    // A prompt can be shown once; the browser fires a new event when it may be offered again.
    storeInstallPrompt(null);
    return outcome;
  } catch (error) {
    log.warn('The install prompt could not be shown', error);
    track('install', 'errored');
    return 'errored';
  }
}

/**
 * Captures the browser's install prompt, suppresses its default mini-infobar and shows it
 * once stored; appinstalled marks the app installed for good.
 */
export function watchInstallPrompt(target: Window = window): () => void {
  const onPrompt = (event: Event) => {
    event.preventDefault();
    if (isInstalled.value) return;
    storeInstallPrompt(event as BeforeInstallPromptEvent);
    track('install', 'available');
    void showInstallPrompt();
  };
  const onInstalled = () => {
    markInstalled();
    track('install', 'installed');
  };
  target.addEventListener('beforeinstallprompt', onPrompt);
  target.addEventListener('appinstalled', onInstalled);
  // What the browser fired before the app listened.
  const early = takeEarlyInstallEvents(target);
  if (early?.installed) onInstalled();
  else if (early?.prompt) onPrompt(early.prompt);
  return () => {
    target.removeEventListener('beforeinstallprompt', onPrompt);
    target.removeEventListener('appinstalled', onInstalled);
  };
}
