import type { CollectionSchema, RecordField } from '../../api/collection-fields';
import type { FieldConfig } from '../../ui/form/form-state';
import { inLanguage } from '../../i18n';
import { type ValidationError, type Validator, Validators } from '../../ui/form/validators';

/*
 * A record of a collection as a form: its fields from the collection's schema (api/collection-fields.ts),
 * each with the rules the contract sets, its values as text, and the body sent back. The server's
 * verdict on a field ("body.name must NOT have fewer than 1 characters") is put on that field, in words.
 */

export type Values = Record<string, string>;
type Record_ = Record<string, unknown>;

/** A field's label: the contract's title for it, in the language on screen, else its name. */
export function labelOf(field: RecordField): string {
  return field.title ? inLanguage(field.title) : field.name;
}

/** A value of a choice as the picker offers it: the contract's words for it, in the language on screen, else the value. */
export function optionLabel(field: RecordField, value: string): string {
  const words = field.optionTitles?.[value];
  return words ? inLanguage(words) : value;
}

/**
 * The heading of a list's column: the label its field has in the form, so the list and the form
 * name a value alike; a key no field has (the id, a nested object) heads its column itself.
 */
export function columnLabel(schema: CollectionSchema, key: string): string {
  const field = schema.fields.find((f) => f.name === key);
  return field ? labelOf(field) : key;
}

const isNumber: Validator = (value) => (value.trim() !== '' && !Number.isFinite(Number(value)) ? { key: 'validation.number' } : null);

/**
 * Whether a field cannot be left empty: a property the contract requires, unless an empty text is
 * one of its values (no least length, no format that refuses it); a yes-or-no always has a value.
 */
export function mustFill(field: RecordField): boolean {
  if (!field.required || field.kind === 'boolean') return false;
  if (field.kind !== 'text') return true;
  return (field.minLength ?? 0) > 0 || (field.pattern !== undefined && !new RegExp(field.pattern).test(''));
}

/** A value that breaks the field's pattern, said in the contract's words for it when it has some. */
function patternRule(field: RecordField & { pattern: string }): Validator {
  const rule = Validators.pattern(new RegExp(field.pattern));
  const text = field.patternMessage;
  return text ? (value) => (rule(value) ? { key: 'validation.pattern', text } : null) : rule;
}

/**
 * The rules of a field, the same as the contract's. A pattern the contract puts in words comes
 * before the lengths: "Three capital letters, such as EUR." says more than "at most 3 characters".
 */
function rulesOf(field: RecordField): Validator[] {
  const rules: Validator[] = [];
  if (mustFill(field)) rules.push(Validators.required());
  if (field.kind === 'number') rules.push(isNumber);
  const worded = field.pattern !== undefined && field.patternMessage !== undefined;
  if (worded) rules.push(patternRule(field as RecordField & { pattern: string }));
  if (field.minLength !== undefined && field.minLength > 1) rules.push(Validators.minLength(field.minLength));
  if (field.maxLength !== undefined) rules.push(Validators.maxLength(field.maxLength));
  if (field.pattern && !worded) rules.push(Validators.pattern(new RegExp(field.pattern)));
  if (field.minimum !== undefined) rules.push(Validators.min(field.minimum));
  if (field.maximum !== undefined) rules.push(Validators.max(field.maximum));
  return rules;
}

export function fieldConfigs(schema: CollectionSchema): FieldConfig[] {
  return schema.fields.map((field) => ({ name: field.name, rules: rulesOf(field) }));
}

function valueAt(record: Record_, path: string): unknown {
  return path.split('.').reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record_)[key] : undefined), record);
}

/** A time as the browser's date-and-time field shows it: local, to the second. */
function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/** A record's values as the form's text; a new record starts from each field's natural empty value. */
export function valuesOf(schema: CollectionSchema, record: Record_ | null, now = new Date()): Values {
  return Object.fromEntries(
    schema.fields.map((field) => {
      const value = record ? valueAt(record, field.name) : undefined;
      if (field.kind === 'boolean') return [field.name, String(value === true)];
      if (field.kind === 'choice') return [field.name, typeof value === 'string' ? value : (field.options?.[0] ?? '')];
      if (field.kind === 'datetime') return [field.name, localTime(typeof value === 'string' ? value : now.toISOString())];
      return [field.name, value === undefined || value === null ? '' : String(value)];
    }),
  );
}

/** The body to send: each value in its type, nested fields in their object, an empty optional field left out (null when it may be). */
export function bodyOf(schema: CollectionSchema, values: Values): Record_ {
  const body: Record_ = {};
  for (const field of schema.fields) {
    const text = values[field.name] ?? '';
    let value: unknown = text;
    if (field.kind === 'number') value = text.trim() === '' ? null : Number(text);
    else if (field.kind === 'boolean') value = text === 'true';
    else if (field.kind === 'datetime') value = text ? new Date(text).toISOString() : '';
    else if (field.kind === 'text' || field.kind === 'url') value = text.trim();
    // An empty number is left out, or sent as null where the contract allows it.
    if (value === null && !field.nullable) continue;
    const path = field.name.split('.');
    let at = body;
    for (const key of path.slice(0, -1)) {
      at[key] ??= {};
      at = at[key] as Record_;
    }
    at[path.at(-1)!] = value;
  }
  return body;
}

/** The server's words for a broken rule, and the catalogue's message for each (first match wins). */
const VERDICTS: ReadonlyArray<readonly [RegExp, (n: number) => ValidationError]> = [
  [/^required$|must NOT have fewer than 1 characters/, () => ({ key: 'validation.required' })],
  [/must NOT have fewer than (\d+) characters/, (min) => ({ key: 'validation.minLength', params: { min } })],
  [/must NOT have more than (\d+) characters/, (max) => ({ key: 'validation.maxLength', params: { max } })],
  [/must be >=? (-?[\d.e+]+)/, (min) => ({ key: 'validation.min', params: { min } })],
  [/must be <=? (-?[\d.e+]+)/, (max) => ({ key: 'validation.max', params: { max } })],
  [/must be (number|integer)/, () => ({ key: 'validation.number' })],
  [/must be equal to one of the allowed values/, () => ({ key: 'validation.choice' })],
];

/**
 * The field a server's message is about, and the message in the catalogue's words; null for one
 * about no field (or one the form has not), which is shown as the server said it.
 */
export function fieldErrorOf(schema: CollectionSchema, message: string): { field: string; error: ValidationError } | null {
  const required = /^body must have required property '([^']+)'/.exec(message);
  const about = /^body\.([\w.]+) (.+)$/.exec(message);
  const path = required ? required[1] : about?.[1];
  const problem = required ? 'required' : (about?.[2] ?? '');
  // A nested object missing as a whole is put on its first field.
  const field = schema.fields.find((f) => f.name === path) ?? schema.fields.find((f) => f.name.startsWith(`${path}.`));
  if (!path || !field) return null;
  for (const [pattern, make] of VERDICTS) {
    const match = pattern.exec(problem);
    if (match) return { field: field.name, error: make(Number(match[1])) };
  }
  return {
    field: field.name,
    error: field.patternMessage ? { key: 'validation.pattern', text: field.patternMessage } : { key: 'validation.pattern' },
  };
}
