import { useId, type ChangeEvent, type FocusEvent, type InputHTMLAttributes } from 'react';
import type { FormState } from './form-state';
import type { ValidationError } from './validators';
import { inLanguage, withWords } from '../../i18n';
import { enForms } from '../../i18n/en-forms';

const t = withWords(enForms);

interface FieldProps<Name extends string> {
  form: FormState<Name>;
  name: Name;
  label: string;
  hint?: string;
  required?: boolean;
  multiline?: boolean;
  type?: InputHTMLAttributes<HTMLInputElement>['type'];
  autoComplete?: string;
  inputMode?: InputHTMLAttributes<HTMLInputElement>['inputMode'];
  /** For a select: its options as [value, label]. */
  options?: ReadonlyArray<readonly [string, string]>;
  /** An error found elsewhere (the server refused the value), shown when the rules find none. */
  error?: ValidationError | null;
}

/**
 * A labelled control bound to a form state. Its hint and error are linked with
 * aria-describedby, and aria-invalid is set only while the error is shown.
 */
export function Field<Name extends string>({
  form,
  name,
  label,
  hint,
  required,
  multiline,
  // Stryker disable next-line StringLiteral: an input whose type is empty is a text input, as one whose type is text (HTML's default for a missing or unknown type)
  type = 'text',
  autoComplete,
  inputMode,
  options,
  error: outside = null,
}: FieldProps<Name>) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const error = form.visibleError(name) ?? outside;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const common = {
    id,
    name,
    value: form.values.value[name],
    'aria-invalid': error ? true : undefined,
    'aria-required': required || undefined,
    'aria-describedby': describedBy,
    onBlur: (e: FocusEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
      // Pressing the form's submit button moves focus before the click lands: an error shown now
      // would move the button from under the pointer and swallow the click. Submitting shows it.
      const next = e.relatedTarget;
      if (next instanceof HTMLButtonElement && next.type === 'submit' && next.form === e.currentTarget.form) return;
      form.touch(name);
    },
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => form.setValue(name, e.target.value),
  };
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label className="field__label" htmlFor={id}>
        {label}
        {required && <span className="field__required">{t('common.required')}</span>}
      </label>
      {options ? (
        <select className="field__control" {...common}>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      ) : multiline ? (
        <textarea className="field__control" rows={4} {...common} />
      ) : (
        <input className="field__control" type={type} autoComplete={autoComplete} inputMode={inputMode} {...common} />
      )}
      {hint && (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field__error" id={errorId}>
          {error.text ? inLanguage(error.text) : t(error.key, error.params)}
        </p>
      )}
    </div>
  );
}

/** Moves focus to the first field showing an error, so keyboard and screen-reader users land on it. */
export function focusFirstError(formElement: HTMLFormElement | null): void {
  formElement?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
}
