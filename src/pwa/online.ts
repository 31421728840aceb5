import { setOnline } from '../state/app';
import { showSnackbar, snackbar } from '../ui/snackbar/store';
import { t } from '../i18n';

/** online follows the browser's online and offline events. */
export function watchOnlineStatus(target: Window = window): () => void {
  // The id of the offline or online notice last shown.
  let notice = 0;
  const update = () => {
    const online = navigator.onLine;
    setOnline(online);
    // A newer notice on screen (the offline changes were sent, which can come before the browser's
    // online event) says more than "back online": it stays.
    if (online && (snackbar.value?.id ?? notice) !== notice) return;
    notice = showSnackbar(
      online ? { message: t('status.backOnline'), duration: 4000 } : { message: t('status.offlineHint'), duration: 6000 },
    );
  };
  target.addEventListener('online', update);
  target.addEventListener('offline', update);
  setOnline(navigator.onLine);
  return () => {
    target.removeEventListener('online', update);
    target.removeEventListener('offline', update);
  };
}
