import { showSnackbar } from '../ui/snackbar/store';
import { withWords } from '../i18n';
import { enUpdate } from '../i18n/en-update';
import { log } from '../lib/logger';
import { recentReads } from '../api/recent-reads';

const t = withWords(enUpdate);

const SW_URL = '/sw.js';
const UPDATE_INTERVAL_MS = 60 * 60 * 1000;

/** Asks the waiting worker to take over; the page reloads once it controls the page. */
function promptForUpdate(worker: ServiceWorker) {
  showSnackbar({
    message: t('update.available'),
    action: t('update.refresh'),
    sticky: true,
    onAction: () => {
      reloadOnControllerChange = true;
      worker.postMessage({ type: 'SKIP_WAITING' });
    },
  });
}

let reloadOnControllerChange = false;

/**
 * Registers the service worker, checks for an update now and every hour, and offers the
 * update when a new worker waits. The very first install is silent: nothing is waiting then.
 */
export async function registerServiceWorker(
  container: ServiceWorkerContainer | undefined = navigator.serviceWorker,
): Promise<ServiceWorkerRegistration | null> {
  if (!container) {
    log.warn('Service workers are disabled or not supported by this browser');
    return null;
  }
  let controlled = Boolean(container.controller);
  container.addEventListener('controllerchange', () => {
    if (!controlled) {
      // The first worker just took control: give it what this visit already read.
      controlled = true;
      const assets = performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((url) => url.startsWith(`${location.origin}/assets/`));
      container.controller?.postMessage({ type: 'WARM', urls: recentReads(), assets });
      return;
    }
    if (!reloadOnControllerChange) return;
    reloadOnControllerChange = false;
    window.location.reload();
  });
  try {
    const registration = (await container.register(SW_URL, { scope: '/', updateViaCache: 'none' })) as
      | ServiceWorkerRegistration
      | undefined;
    // Some embedders (and test browsers told to block workers) resolve without a registration.
    if (!registration) return null;
    const watch = (worker: ServiceWorker | null) => {
      if (!worker) return;
      const check = () => {
        // With no controller this is the first install, not an update.
        if (worker.state === 'installed' && container.controller) promptForUpdate(worker);
      };
      worker.addEventListener('statechange', check);
      check();
    };
    // A page loaded while the first worker was activating is left out of its claim (only pages
    // already running are claimed): it would stay without offline support until a reload.
    if (!container.controller && registration.active?.state === 'activated') registration.active.postMessage({ type: 'CLAIM' });
    watch(registration.waiting);
    registration.addEventListener('updatefound', () => watch(registration.installing));
    const update = () => registration.update().catch((error: unknown) => log.info('Update check failed', error));
    void update();
    setInterval(update, UPDATE_INTERVAL_MS);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') void update();
    });
    return registration;
  } catch (error) {
    log.error('Service worker registration failed', error);
    return null;
  }
}
