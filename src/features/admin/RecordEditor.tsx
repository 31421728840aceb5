import { useId, useState, type FormEvent } from 'react';
import { useModalDialog } from '../../ui/widgets/useModalDialog';
import { t } from '../../i18n';
import '../../i18n/en-admin';
import { api } from '../../api/instance';
import type { CollectionName, CollectionTypes } from '../../api/collections';
import { backendMessage } from './backend-message';

export interface EditTarget {
  collection: CollectionName;
  record: ({ id: string } & Record<string, unknown>) | null;
}

/** A starting point for a new record of each collection, as its schema asks. */
const TEMPLATES: Record<CollectionName, Record<string, unknown>> = {
  accounts: { name: '', currency: 'EUR', balance: 0 },
  notifications: { title: '', body: '', level: 'info', read: false, createdAt: new Date(0).toISOString() },
  subscription: { endpoint: 'https://', expirationTime: null, keys: { p256dh: '', auth: '' } },
  symbols: { code: '', entity: '' },
};

/** Edits one record as JSON in a modal dialog; the backend's verdict is shown as it answered. */
export function RecordEditor({ target, onClose, onSaved }: { target: EditTarget; onClose: () => void; onSaved: (id: string) => void }) {
  const ref = useModalDialog(true);
  const id = useId();
  const initial = target.record ?? {
    ...TEMPLATES[target.collection],
    ...(target.collection === 'notifications' ? { createdAt: new Date().toISOString() } : {}),
  };
  const [text, setText] = useState(() => JSON.stringify(initial, null, 2));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (e) {
      setError(t('admin.invalidJson', { message: e instanceof Error ? e.message : String(e) }));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const collections = api.collections();
      type Input = CollectionTypes[CollectionName]['input'];
      const saved = target.record
        ? await collections.replace(target.collection, target.record.id, body as Input)
        : await collections.create(target.collection, body as Input);
      onSaved(saved.id);
    } catch (e) {
      setError(backendMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const title = target.record ? t('admin.editRecord', { id: target.record.id }) : t('admin.newRecord', { name: target.collection });
  return (
    <dialog ref={ref} className="dialog dialog--wide" aria-labelledby={`${id}-title`} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <h2 id={`${id}-title`}>{title}</h2>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-json`}>
            {t('admin.json')}
          </label>
          <textarea
            id={`${id}-json`}
            className="field__control field__control--code"
            rows={12}
            spellCheck={false}
            value={text}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          <p className="field__hint" id={`${id}-hint`}>
            {t('admin.jsonHint')}
          </p>
          {error && (
            <p className="field__error" id={`${id}-error`} role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="dialog__actions">
          <button type="button" className="button button--text" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--filled" disabled={busy}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
