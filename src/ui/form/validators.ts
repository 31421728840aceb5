import type { FirstKey, PartKey } from '../../i18n/en';

/** A rule's message: a word of the forms' part of English (or of the first screens'). */
export type RuleKey = FirstKey | PartKey<'forms'>;

/** A failed rule: the message to show and its placeholders. */
export interface ValidationError {
  key: RuleKey;
  params?: Record<string, number | string>;
  /** Words the data gives for this error in several languages (a pattern's message), shown instead of the key's. */
  text?: Readonly<{ en: string } & Partial<Record<string, string>>>;
}

/** A rule checks a field's text value; empty values pass every rule but `required`. */
export type Validator = (value: string) => ValidationError | null;

const isEmpty = (value: string) => value.trim() === '';

export const Validators = {
  required: (): Validator => (value) => (isEmpty(value) ? { key: 'validation.required' } : null),
  pattern:
    (pattern: RegExp, key: RuleKey = 'validation.pattern'): Validator =>
    (value) => {
      if (isEmpty(value)) return null;
      // Anchored like the HTML pattern attribute: the whole value must match.
      const whole = new RegExp(`^(?:${pattern.source})$`, pattern.flags.replace('g', ''));
      return whole.test(value) ? null : { key };
    },
  minLength:
    (min: number): Validator =>
    (value) =>
      !isEmpty(value) && [...value].length < min ? { key: 'validation.minLength', params: { min } } : null,
  maxLength:
    (max: number): Validator =>
    (value) =>
      [...value].length > max ? { key: 'validation.maxLength', params: { max } } : null,
  min:
    (min: number): Validator =>
    (value) => {
      if (isEmpty(value)) return null;
      const n = Number(value);
      return Number.isNaN(n) || n < min ? { key: 'validation.min', params: { min } } : null;
    },
  max:
    (max: number): Validator =>
    (value) => {
      if (isEmpty(value)) return null;
      const n = Number(value);
      return Number.isNaN(n) || n > max ? { key: 'validation.max', params: { max } } : null;
    },
  email: (): Validator => Validators.pattern(/[^\s@]+@[^\s@]+\.[^\s@]+/, 'validation.email'),
};

/** The first rule a value breaks, or null. */
export function validate(value: string, rules: readonly Validator[]): ValidationError | null {
  for (const rule of rules) {
    const error = rule(value);
    if (error) return error;
  }
  return null;
}
