import { isOnline } from '../state/app';
import { t } from '../i18n';

/**
 * A small status chip in the top bar while the app is offline; its text (not only its colour) says
 * the state. Online is the usual state and takes none of a phone's bar: the change back is said by
 * the snackbar (pwa/online.ts).
 */
export function OnlineStatus() {
  if (isOnline.value) return null;
  return (
    <span className="status-chip status-chip--offline" data-testid="online-status">
      <span className="status-chip__dot" aria-hidden="true" />
      {t('status.offline')}
    </span>
  );
}
