import { describe, expect, it } from 'vitest';
import { createFormState, type FieldConfig } from './form-state';
import { Validators } from './validators';

type Name = 'name' | 'age';
const FIELDS: FieldConfig<Name>[] = [
  { name: 'name', rules: [Validators.required(), Validators.minLength(2)] },
  { name: 'age', rules: [Validators.min(0), Validators.max(150)], initial: '30' },
];

describe('createFormState', () => {
  it('starts from the field initials and the given values', () => {
    const form = createFormState(FIELDS, { initial: { name: 'Ada' } });
    expect(form.values.value).toEqual({ name: 'Ada', age: '30' });
    expect(form.valid.value).toBe(true);
    expect(form.dirty.value).toBe(false);
    expect(form.restoredDraft).toBe(false);
  });

  it('validates every field as values change', () => {
    const form = createFormState(FIELDS);
    expect(form.errors.value).toEqual({ name: { key: 'validation.required' } });
    form.setValue('name', 'A');
    expect(form.errors.value.name).toEqual({ key: 'validation.minLength', params: { min: 2 } });
    form.setValue('age', '200');
    expect(form.errors.value.age).toEqual({ key: 'validation.max', params: { max: 150 } });
    form.setValue('name', 'Ada');
    form.setValue('age', '36');
    expect(form.errors.value).toEqual({});
    expect(form.valid.value).toBe(true);
  });

  it('shows an error only once the field is touched', () => {
    const form = createFormState(FIELDS);
    form.setValue('name', 'A');
    expect(form.visibleError('name')).toBeNull();
    form.touch('name');
    expect(form.visibleError('name')).toEqual({ key: 'validation.minLength', params: { min: 2 } });
    // Touching another field shows nothing for this one: it is valid.
    form.touch('age');
    expect(form.visibleError('age')).toBeNull();
  });

  it('shows every error after submit, touched or not', () => {
    const form = createFormState(FIELDS);
    form.setValue('age', '-1');
    expect(form.visibleError('name')).toBeNull();
    expect(form.visibleError('age')).toBeNull();
    expect(form.submit()).toBe(false);
    expect(form.submitted.value).toBe(true);
    expect(form.visibleError('name')).toEqual({ key: 'validation.required' });
    expect(form.visibleError('age')).toEqual({ key: 'validation.min', params: { min: 0 } });
  });

  it('shows no error for a touched valid field, and hides it again once fixed', () => {
    const form = createFormState(FIELDS);
    form.touch('name');
    expect(form.visibleError('name')).toEqual({ key: 'validation.required' });
    form.setValue('name', 'Grace');
    expect(form.visibleError('name')).toBeNull();
  });

  it('touching a field already touched changes nothing, so nothing watching it is told again', () => {
    const form = createFormState(FIELDS);
    form.touch('name');
    const touched = form.touched.value;
    form.touch('name');
    expect(form.touched.value).toBe(touched);
    form.touch('age');
    expect(form.touched.value).toEqual({ name: true, age: true });
  });

  it('submit answers true when every field is valid', () => {
    const form = createFormState(FIELDS, { initial: { name: 'Ada' } });
    expect(form.submit()).toBe(true);
  });

  it('reset starts over: new baseline, untouched, not submitted', () => {
    const form = createFormState(FIELDS);
    form.setValue('name', 'x');
    form.touch('name');
    form.submit();
    form.reset({ name: 'Saved' });
    expect(form.values.value).toEqual({ name: 'Saved', age: '30' });
    expect(form.touched.value).toEqual({});
    expect(form.submitted.value).toBe(false);
    expect(form.dirty.value).toBe(false);
    form.setValue('name', 'Changed');
    expect(form.dirty.value).toBe(true);
  });

  describe('drafts', () => {
    const KEY = 'draft.test';

    it('saves the values under draftKey while the form is dirty', () => {
      const form = createFormState(FIELDS, { draftKey: KEY });
      expect(localStorage.getItem(KEY)).toBeNull();
      form.setValue('name', 'Half typed');
      expect(JSON.parse(localStorage.getItem(KEY)!)).toEqual({ name: 'Half typed', age: '30' });
      // Typing the original value back makes the form clean: no draft is kept.
      form.setValue('name', '');
      expect(localStorage.getItem(KEY)).toBeNull();
      form.dispose();
    });

    it('restores a saved draft on creation, over the initial values', () => {
      localStorage.setItem(KEY, JSON.stringify({ name: 'From draft' }));
      const form = createFormState(FIELDS, { draftKey: KEY, initial: { name: 'From server', age: '40' } });
      expect(form.restoredDraft).toBe(true);
      expect(form.values.value).toEqual({ name: 'From draft', age: '40' });
      expect(form.dirty.value).toBe(true);
      form.dispose();
    });

    it('removes the draft on reset', () => {
      const form = createFormState(FIELDS, { draftKey: KEY });
      form.setValue('name', 'Typed');
      expect(localStorage.getItem(KEY)).not.toBeNull();
      form.reset();
      expect(localStorage.getItem(KEY)).toBeNull();
      expect(form.values.value.name).toBe('');
      form.dispose();
    });

    it('reset forgets the draft even once disposed, as when a save ends after its screen was left', () => {
      const form = createFormState(FIELDS, { draftKey: KEY });
      form.setValue('name', 'Typed');
      form.dispose();
      form.reset({ name: 'Typed' });
      expect(localStorage.getItem(KEY)).toBeNull();
      expect(createFormState(FIELDS, { draftKey: KEY }).restoredDraft).toBe(false);
    });

    it('restores a value of exactly the longest kept length', () => {
      const longest = 'x'.repeat(10_000);
      localStorage.setItem(KEY, JSON.stringify({ name: longest }));
      const form = createFormState(FIELDS, { draftKey: KEY });
      expect(form.restoredDraft).toBe(true);
      expect(form.values.value.name).toBe(longest);
      form.dispose();
    });

    it('stops saving once disposed', () => {
      const form = createFormState(FIELDS, { draftKey: KEY });
      form.dispose();
      form.setValue('name', 'After dispose');
      expect(localStorage.getItem(KEY)).toBeNull();
    });

    it('ignores bad draft data', () => {
      const bad = ['{not json', '"text"', '42', 'null', '[]', '["a"]', '{"name": 5, "age": null}', '{"other":"x"}'];
      for (const raw of bad) {
        localStorage.setItem(KEY, raw);
        const form = createFormState(FIELDS, { draftKey: KEY, initial: { name: 'Server' } });
        expect(form.restoredDraft, raw).toBe(false);
        expect(form.values.value, raw).toEqual({ name: 'Server', age: '30' });
        form.dispose();
      }
    });

    it('restores nothing from a stored text or list, even into fields named by an index', () => {
      // A text or a list has characters or items at "0" and "1": only a stored object is a draft.
      const indexed: FieldConfig<'0' | '1'>[] = [{ name: '0' }, { name: '1' }];
      for (const raw of ['"text"', '["a", "b"]']) {
        localStorage.setItem(KEY, raw);
        const form = createFormState(indexed, { draftKey: KEY });
        expect(form.restoredDraft, raw).toBe(false);
        expect(form.values.value, raw).toEqual({ 0: '', 1: '' });
        form.dispose();
      }
    });

    it('a form without a draft key leaves storage alone on reset', () => {
      localStorage.setItem('undefined', 'someone else’s');
      const form = createFormState(FIELDS);
      form.setValue('name', 'Typed');
      form.reset();
      expect(localStorage.getItem('undefined')).toBe('someone else’s');
      form.dispose();
    });

    it('keeps the usable fields of a partly bad draft, and ignores oversized values', () => {
      localStorage.setItem(KEY, JSON.stringify({ name: 'Kept', age: 7, unknown: 'dropped' }));
      const form = createFormState(FIELDS, { draftKey: KEY });
      expect(form.values.value).toEqual({ name: 'Kept', age: '30' });
      form.dispose();
      localStorage.setItem(KEY, JSON.stringify({ name: 'x'.repeat(10_001) }));
      const big = createFormState(FIELDS, { draftKey: KEY });
      expect(big.restoredDraft).toBe(false);
      expect(big.values.value.name).toBe('');
      big.dispose();
    });
  });
});
