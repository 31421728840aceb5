import { isOnline } from '../state/app';
import { t } from '../i18n';

/** A small status chip in the top bar; its text (not only its colour) says the state. */
export function OnlineStatus() {
  const online = isOnline.value;
  return (
    <span className={`status-chip status-chip--${online ? 'online' : 'offline'}`} data-testid="online-status">
      <span className="status-chip__dot" aria-hidden="true" />
      {online ? t('status.online') : t('status.offline')}
    </span>
  );
}
