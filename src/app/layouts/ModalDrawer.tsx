import { useModalDialog } from '../../ui/widgets/useModalDialog';
import { Icon } from '../../ui/icons';
import { t } from '../../i18n';
import { MainNav } from './NavLinks';
import { memberParts } from './member-shell';
import type { LayoutKind } from '../routes';

/**
 * The menu button's drawer on phones, modal: the main places and the layout's own (the admin's
 * collections). Its code loads after the first screen (Shell.tsx): the tab bar has the main places
 * meanwhile, and a press on the button before it is in opens it as it comes.
 */
export default function ModalDrawer({ layout, open, onClose }: { layout: LayoutKind; open: boolean; onClose: () => void }) {
  const ref = useModalDialog(open);
  // Closed at once, before the route changes: while the modal is open the page is inert, and
  // the new screen could not take focus.
  const closeForNavigation = () => {
    // Stryker disable next-line OptionalChaining: the drawer's links can only be followed while its dialog is mounted, so the ref is set
    ref.current?.close();
    // Stryker disable next-line CallExpression: closing the dialog fires its close event, whose handler is this same onClose
    onClose();
  };
  // The admin's collections (the admin screens are a signed-in member's: their code is in by then).
  const parts = memberParts.value;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: only a pointer can hit the backdrop; the keyboard closes the dialog with Escape, natively.
    <dialog
      ref={ref}
      className="drawer drawer--modal"
      aria-label={t('nav.main')}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div className="drawer__inner">
        <button type="button" className="icon-button drawer__close" aria-label={t('nav.closeMenu')} onClick={onClose}>
          <Icon name="close" />
        </button>
        <nav aria-label={t('nav.main')}>
          <MainNav variant="drawer" onNavigate={closeForNavigation} />
        </nav>
        {layout === 'admin' && parts && <parts.AdminNav onNavigate={closeForNavigation} />}
      </div>
    </dialog>
  );
}
