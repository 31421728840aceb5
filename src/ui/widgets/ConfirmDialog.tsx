import { useId } from 'react';
import { useModalDialog } from './useModalDialog';
import { withWords } from '../../i18n';
import { enMember } from '../../i18n/en-member';

const t = withWords(enMember);

interface Props {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A native modal dialog: focus is trapped and Escape cancels, as the platform does it. */
export function ConfirmDialog({ open, title, body, confirmLabel, onConfirm, onCancel }: Props) {
  const ref = useModalDialog(open);
  const id = useId();
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-body`} onClose={onCancel}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-body`}>{body}</p>
      <div className="dialog__actions">
        {/* biome-ignore lint/a11y/noAutofocus: showModal() moves focus to the autofocus control; the safe choice takes it. */}
        <button type="button" className="button button--text" onClick={onCancel} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className="button button--danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
