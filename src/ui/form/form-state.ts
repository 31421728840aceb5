import { batch, computed, effect, signal, type ReadonlySignal } from '@preact/signals-core';
import { readPersisted, removePersisted, writePersisted } from '../../lib/persist';
import { validate, type ValidationError, type Validator } from './validators';

export interface FieldConfig<Name extends string = string> {
  name: Name;
  rules?: readonly Validator[];
  initial?: string;
}

export interface FormState<Name extends string> {
  values: ReadonlySignal<Record<Name, string>>;
  errors: ReadonlySignal<Partial<Record<Name, ValidationError>>>;
  touched: ReadonlySignal<Partial<Record<Name, boolean>>>;
  submitted: ReadonlySignal<boolean>;
  valid: ReadonlySignal<boolean>;
  /** True when the user changed something since the form was loaded or saved. */
  dirty: ReadonlySignal<boolean>;
  /** A field's error is shown only when it is invalid and touched, or once the form was submitted. */
  visibleError(name: Name): ValidationError | null;
  setValue(name: Name, value: string): void;
  touch(name: Name): void;
  /** Marks the form submitted; true when every field is valid. */
  submit(): boolean;
  /** Starts over from these values (after a save, or to discard the draft). */
  reset(values?: Partial<Record<Name, string>>): void;
  /** Whether the values came back from a saved draft. */
  restoredDraft: boolean;
  dispose(): void;
}

export interface FormOptions<Name extends string> {
  /** localStorage key that keeps what was typed until the form is saved or discarded. */
  draftKey?: string;
  /** Starting values (a record being edited); a saved draft is laid over them. */
  initial?: Partial<Record<Name, string>>;
}

/** The state of a form built from field rules: framework-free, so it is tested without a DOM. */
export function createFormState<Name extends string>(
  fields: readonly FieldConfig<Name>[],
  { draftKey, initial }: FormOptions<Name> = {},
): FormState<Name> {
  const names = fields.map((f) => f.name);
  const initialValues = () =>
    ({ ...Object.fromEntries(fields.map((f) => [f.name, f.initial ?? ''])), ...(initial ?? {}) }) as Record<Name, string>;

  const decodeDraft = (raw: unknown): Partial<Record<Name, string>> | null => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
    const out: Partial<Record<Name, string>> = {};
    for (const name of names) {
      const v = (raw as Record<string, unknown>)[name];
      if (typeof v === 'string' && v.length <= 10_000) out[name] = v;
    }
    return Object.keys(out).length ? out : null;
  };
  const draft = draftKey ? readPersisted(draftKey, decodeDraft, null) : null;

  let baseline = initialValues();
  const values = signal<Record<Name, string>>({ ...baseline, ...(draft ?? {}) });
  const touched = signal<Partial<Record<Name, boolean>>>({});
  const submitted = signal(false);

  const errors = computed(() => {
    const out: Partial<Record<Name, ValidationError>> = {};
    for (const f of fields) {
      const error = validate(values.value[f.name], f.rules ?? []);
      if (error) out[f.name] = error;
    }
    return out;
  });
  const valid = computed(() => Object.keys(errors.value).length === 0);
  const dirty = computed(() => names.some((n) => values.value[n] !== baseline[n]));

  const stopDraft = draftKey
    ? effect(() => {
        if (dirty.value) writePersisted(draftKey, values.value);
        else removePersisted(draftKey);
      })
    : () => {};

  return {
    values,
    errors,
    touched,
    submitted,
    valid,
    dirty,
    restoredDraft: draft !== null,
    visibleError(name) {
      const error = errors.value[name];
      if (!error) return null;
      return touched.value[name] || submitted.value ? error : null;
    },
    setValue(name, value) {
      values.value = { ...values.value, [name]: value };
    },
    touch(name) {
      if (!touched.value[name]) touched.value = { ...touched.value, [name]: true };
    },
    submit() {
      submitted.value = true;
      return valid.value;
    },
    reset(next) {
      batch(() => {
        baseline = { ...initialValues(), ...(next ?? {}) };
        values.value = { ...baseline };
        touched.value = {};
        submitted.value = false;
      });
      if (draftKey) removePersisted(draftKey);
    },
    dispose: stopDraft,
  };
}
