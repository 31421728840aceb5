import { setOnline } from '../state/app';
import { showSnackbar } from '../ui/snackbar/store';
import { t } from '../i18n';

/** online follows the browser's online and offline events. */
export function watchOnlineStatus(target: Window = window): () => void {
  const update = () => {
    const online = navigator.onLine;
    setOnline(online);
    showSnackbar(online ? { message: t('status.backOnline'), duration: 4000 } : { message: t('status.offlineHint'), duration: 6000 });
  };
  target.addEventListener('online', update);
  target.addEventListener('offline', update);
  setOnline(navigator.onLine);
  return () => {
    target.removeEventListener('online', update);
    target.removeEventListener('offline', update);
  };
}
