import { fetchProfile } from './store';
import { loadPendingSave, queuedSaveSent, sendQueuedSave } from './outbox';
import { log } from '../lib/logger';

interface OutboxSentMessage {
  type?: string;
  kind?: 'create' | 'update';
  id?: string;
}

/**
 * The browser's side of the profile outbox: what waits is sent at start and on every return
 * online, and a save the service worker sent (Background Sync) is reported to the profile model.
 */
export function watchProfileOutbox(): void {
  const send = () => void sendQueuedSave().catch((error: unknown) => log.warn('The queued save could not be sent', error));
  window.addEventListener('online', send);
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent<OutboxSentMessage>) => {
    const { type, kind, id } = event.data ?? {};
    // The worker's replay was refused with 412: the page reads the marked save and opens the conflict.
    if (type === 'OUTBOX_CONFLICT') return send();
    if (type !== 'OUTBOX_SENT' || (kind !== 'create' && kind !== 'update')) return;
    queuedSaveSent({ kind, id });
    fetchProfile().catch(() => undefined);
  });
  void loadPendingSave()
    .then((save) => {
      if (save && navigator.onLine) send();
    })
    .catch(() => undefined);
}
