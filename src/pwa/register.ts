import { showSnackbar } from '../ui/snackbar/store';
import { withWords } from '../i18n';
import { enUpdate } from '../i18n/en-update';
import { log } from '../lib/logger';
import { recentReads } from '../api/recent-reads';

const t = withWords(enUpdate);

const SW_URL = '/sw.js';
const UPDATE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Offers the waiting worker; Refresh asks it to take over, and the page reloads once it controls
 * the page. Another tab's Refresh may have made it active already: then the reload is all there is
 * left to do. A newer worker may have replaced it meanwhile: that one is asked instead.
 */
function promptForUpdate(worker: ServiceWorker, registration: ServiceWorkerRegistration) {
  showSnackbar({
    message: t('update.available'),
    action: t('update.refresh'),
    sticky: true,
    onAction: () => {
      const next = worker.state === 'redundant' ? registration.waiting : worker;
      // Not waiting any more: active already, or gone with no newer one.
      if (next?.state !== 'installed') {
        window.location.reload();
        return;
      }
      reloadOnControllerChange = true;
      next.postMessage({ type: 'SKIP_WAITING' });
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
    // A worker installing as the page starts can be announced twice: already in `installing`, and
    // by an updatefound queued before the page listened. It is offered once: a second offer would
    // put a new snackbar in place of the one the user is about to press.
    let watched: ServiceWorker | null = null;
    const watch = (worker: ServiceWorker | null) => {
      if (!worker || worker === watched) return;
      watched = worker;
      const check = () => {
        // With no controller this is the first install, not an update.
        if (worker.state === 'installed' && container.controller) promptForUpdate(worker, registration);
      };
      worker.addEventListener('statechange', check);
      check();
    };
    // A page loaded while the first worker was activating is left out of its claim (only pages
    // already running are claimed): it would stay without offline support until a reload.
    if (!container.controller && registration.active?.state === 'activated') registration.active.postMessage({ type: 'CLAIM' });
    watch(registration.waiting);
    // The browser checks for a new version as it loads the page: one may be installing already,
    // its updatefound gone before this listener (it fires once a worker), and the check below
    // finds nothing newer than it.
    watch(registration.installing);
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
