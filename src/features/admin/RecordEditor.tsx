import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { useModalDialog } from '../../ui/widgets/useModalDialog';
import { formatNumber, inLanguage, withWords } from '../../i18n';
import { enAdmin } from '../../i18n/en-admin';
import { enForms } from '../../i18n/en-forms';
import { api } from '../../api/instance';
import { ApiError } from '../../api/errors';
import type { CollectionName, CollectionTypes } from '../../api/collections';
import { COLLECTION_SCHEMAS, type RecordField } from '../../api/collection-fields';
import { createFormState } from '../../ui/form/form-state';
import { Field, focusFirstError } from '../../ui/form/Field';
import type { ValidationError } from '../../ui/form/validators';
import { backendMessage } from './backend-message';
import { bodyOf, fieldConfigs, fieldErrorOf, labelOf, mustFill, optionLabel, valuesOf } from './record-form';
import { enMember } from '../../i18n/en-member';

const t = withWords(enAdmin, enForms, enMember);

export interface EditTarget {
  collection: CollectionName;
  record: ({ id: string } & Record<string, unknown>) | null;
}

/**
 * What a field asks for, in words: the contract's description; then, for a pattern the contract
 * gives no words for, the pattern itself, else the range or the length. A pattern's words are the
 * error a value that breaks it gets: said once, where it applies.
 */
function hintOf(field: RecordField): string | undefined {
  const words: string[] = [];
  if (field.description) words.push(inLanguage(field.description));
  if (field.pattern && !field.patternMessage) words.push(t('admin.hint.format', { pattern: field.pattern }));
  else if (field.minimum !== undefined && field.maximum !== undefined)
    words.push(t('admin.hint.range', { min: formatNumber(field.minimum), max: formatNumber(field.maximum) }));
  else if (field.maxLength !== undefined && field.kind !== 'datetime' && (!field.description || !field.pattern))
    words.push(t('admin.hint.maxLength', { max: field.maxLength }));
  return words.length > 0 ? words.join(' ') : undefined;
}

const INPUT_TYPES = { text: 'text', url: 'url', number: 'number', datetime: 'datetime-local' } as const;

/**
 * Creates or edits one record in a modal dialog, through a form made from the collection's schema:
 * each field with the contract's rules, checked as it is typed; what the backend still refuses is
 * put on its field in words, anything else said above the buttons.
 */
export function RecordEditor({ target, onClose, onSaved }: { target: EditTarget; onClose: () => void; onSaved: (id: string) => void }) {
  const ref = useModalDialog(true);
  const id = useId();
  const schema = COLLECTION_SCHEMAS[target.collection];
  const form = useMemo(() => createFormState(fieldConfigs(schema), { initial: valuesOf(schema, target.record) }), [schema, target.record]);
  // Stryker disable next-line ArrowFunction,ArrayDeclaration: a form left undisposed only keeps watching values nothing changes any more
  useEffect(() => () => form.dispose(), [form]);
  const formRef = useRef<HTMLFormElement>(null);
  const [error, setError] = useState<string | null>(null);
  // The backend's verdict on a field holds for the value it judged: typing anew takes it away.
  const [refused, setRefused] = useState<{ field: string; value: string; error: ValidationError } | null>(null);
  const [busy, setBusy] = useState(false);
  const values = form.values.value;
  const refusedError = refused && values[refused.field] === refused.value ? refused : null;
  // The field refused takes the focus once it shows why.
  useEffect(() => {
    if (refused) focusFirstError(formRef.current);
  }, [refused]);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setRefused(null);
    if (!form.submit()) {
      requestAnimationFrame(() => focusFirstError(formRef.current));
      return;
    }
    setBusy(true);
    try {
      const collections = api.collections();
      type Input = CollectionTypes[CollectionName]['input'];
      const body = bodyOf(schema, values) as Input;
      const saved = target.record
        ? await collections.replace(target.collection, target.record.id, { ...body, id: target.record.id } as Input)
        : await collections.create(target.collection, body);
      onSaved(saved.id);
    } catch (e) {
      const onField = e instanceof ApiError && e.status === 400 ? fieldErrorOf(schema, e.body.message) : null;
      if (onField) setRefused({ ...onField, value: values[onField.field] ?? '' });
      else setError(backendMessage(e));
    } finally {
      setBusy(false);
    }
  }

  const errorCount = Object.keys(form.errors.value).length + (refusedError && !form.errors.value[refusedError.field] ? 1 : 0);
  const title = target.record ? t('admin.editRecord', { id: target.record.id }) : t('admin.newRecord', { name: target.collection });
  return (
    <dialog ref={ref} className="dialog dialog--wide" aria-labelledby={`${id}-title`} onClose={onClose}>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <h2 id={`${id}-title`}>{title}</h2>
        {form.submitted.value && errorCount > 0 && (
          <p className="form__summary" role="alert">
            {t('validation.summary', { count: errorCount })}
          </p>
        )}
        {schema.fields.map((field) => (
          <Field
            key={field.name}
            form={form}
            name={field.name}
            label={labelOf(field)}
            hint={hintOf(field)}
            required={mustFill(field)}
            error={refusedError?.field === field.name ? refusedError.error : null}
            {...(field.kind === 'choice'
              ? { options: (field.options ?? []).map((o) => [o, optionLabel(field, o)] as const) }
              : field.kind === 'boolean'
                ? {
                    options: [
                      ['true', t('admin.yes')],
                      ['false', t('admin.no')],
                    ] as const,
                  }
                : { type: INPUT_TYPES[field.kind], inputMode: field.kind === 'number' ? ('decimal' as const) : undefined })}
          />
        ))}
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
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
