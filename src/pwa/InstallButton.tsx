import { installOffered } from '../state/app';
import { t } from '../i18n';
import { Icon } from '../ui/icons';
import { showInstallPrompt } from './install';

/** Offered only while the browser allows installing and the app is not installed. */
export function InstallButton({ compact = false }: { compact?: boolean }) {
  if (!installOffered.value) return null;
  return (
    <button
      type="button"
      className={compact ? 'button button--tonal button--small install-button' : 'button button--filled install-button'}
      // The compact button may show only its icon on phones; its name stays for assistive tech.
      aria-label={compact ? t('install.button') : undefined}
      onClick={() => void showInstallPrompt()}
    >
      <Icon name="install" size={18} />
      <span>{t('install.button')}</span>
    </button>
  );
}
