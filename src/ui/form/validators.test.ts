// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { validate, Validators } from './validators';

describe('Validators', () => {
  it('required fails on empty and blank values only', () => {
    const rule = Validators.required();
    expect(rule('')).toEqual({ key: 'validation.required' });
    expect(rule('   \t')).toEqual({ key: 'validation.required' });
    expect(rule('x')).toBeNull();
    expect(rule('0')).toBeNull();
  });

  it('pattern must match the whole value (anchored like the HTML attribute)', () => {
    const rule = Validators.pattern(/[a-z]{3}/);
    expect(rule('abc')).toBeNull();
    expect(rule('abcd')).toEqual({ key: 'validation.pattern' });
    expect(rule('xabc')).toEqual({ key: 'validation.pattern' });
    expect(rule('ab')).toEqual({ key: 'validation.pattern' });
  });

  it('pattern anchors alternations as a whole and keeps the flags', () => {
    const rule = Validators.pattern(/cat|dog/i, 'validation.username');
    expect(rule('Cat')).toBeNull();
    expect(rule('dog')).toBeNull();
    expect(rule('catdog')).toEqual({ key: 'validation.username' });
    expect(rule('hotdog')).toEqual({ key: 'validation.username' });
  });

  it('pattern with the g flag gives the same answer every time', () => {
    const rule = Validators.pattern(/\d+/g);
    expect([rule('123'), rule('123'), rule('123')]).toEqual([null, null, null]);
  });

  it('minLength counts characters, not UTF-16 units', () => {
    const rule = Validators.minLength(3);
    expect(rule('ab')).toEqual({ key: 'validation.minLength', params: { min: 3 } });
    expect(rule('abc')).toBeNull();
    expect(rule('😀😀')).toEqual({ key: 'validation.minLength', params: { min: 3 } });
  });

  it('maxLength counts characters, not UTF-16 units', () => {
    const rule = Validators.maxLength(3);
    expect(rule('abcd')).toEqual({ key: 'validation.maxLength', params: { max: 3 } });
    expect(rule('abc')).toBeNull();
    expect(rule('😀😀😀')).toBeNull();
  });

  it('min and max compare numbers and reject what is not a number', () => {
    const min = Validators.min(5);
    const max = Validators.max(10);
    expect(min('4')).toEqual({ key: 'validation.min', params: { min: 5 } });
    expect(min('5')).toBeNull();
    expect(min('5.5')).toBeNull();
    expect(min('abc')).toEqual({ key: 'validation.min', params: { min: 5 } });
    expect(max('11')).toEqual({ key: 'validation.max', params: { max: 10 } });
    expect(max('10')).toBeNull();
    expect(max('-3')).toBeNull();
    expect(max('ten')).toEqual({ key: 'validation.max', params: { max: 10 } });
  });

  it('min and max leave an empty value alone, even where an empty value read as 0 would break them', () => {
    expect(Validators.max(-1)('')).toBeNull();
    expect(Validators.max(-1)('   ')).toBeNull();
    expect(Validators.min(1)('')).toBeNull();
  });

  it('email accepts name@domain.tld and rejects the rest', () => {
    const rule = Validators.email();
    expect(rule('ada@example.org')).toBeNull();
    expect(rule('a.b+c@sub.example.co.uk')).toBeNull();
    for (const bad of ['ada', 'ada@', 'ada@example', '@example.org', 'a da@example.org', 'ada@example.org x']) {
      expect(rule(bad), bad).toEqual({ key: 'validation.email' });
    }
  });

  it('empty values pass every rule but required', () => {
    const rules = [
      Validators.pattern(/x/),
      Validators.minLength(3),
      Validators.maxLength(3),
      Validators.min(1),
      Validators.max(0),
      Validators.email(),
    ];
    for (const rule of rules) expect(rule('')).toBeNull();
    expect(Validators.required()('')).not.toBeNull();
  });
});

describe('validate', () => {
  it('answers the first rule that fails, or null', () => {
    const rules = [Validators.required(), Validators.minLength(2), Validators.maxLength(4)];
    expect(validate('', rules)).toEqual({ key: 'validation.required' });
    expect(validate('a', rules)).toEqual({ key: 'validation.minLength', params: { min: 2 } });
    expect(validate('abcde', rules)).toEqual({ key: 'validation.maxLength', params: { max: 4 } });
    expect(validate('abc', rules)).toBeNull();
    expect(validate('anything', [])).toBeNull();
  });
});

describe('Validators from a freshly loaded module', () => {
  // The rules are built when the module loads; loading it again inside the test checks that
  // definition, not one a previous test file left in the module cache.
  async function fresh() {
    vi.resetModules();
    return import('./validators');
  }

  it('required refuses a blank value and takes any other', async () => {
    const { Validators } = await fresh();
    expect(Validators.required()(' ')).toEqual({ key: 'validation.required' });
    expect(Validators.required()('a')).toBeNull();
  });

  it('pattern matches the whole value, with its own or the default message, and leaves an empty value alone', async () => {
    const { Validators } = await fresh();
    expect(Validators.pattern(/\d+/)('12')).toBeNull();
    expect(Validators.pattern(/\d+/)('12a')).toEqual({ key: 'validation.pattern' });
    expect(Validators.pattern(/\d+/, 'validation.username')('a')).toEqual({ key: 'validation.username' });
    expect(Validators.pattern(/\d+/)('')).toBeNull();
  });

  it('minLength and maxLength count characters', async () => {
    const { Validators } = await fresh();
    expect(Validators.minLength(2)('a')).toEqual({ key: 'validation.minLength', params: { min: 2 } });
    expect(Validators.minLength(2)('ab')).toBeNull();
    expect(Validators.minLength(2)('')).toBeNull();
    expect(Validators.maxLength(2)('abc')).toEqual({ key: 'validation.maxLength', params: { max: 2 } });
    expect(Validators.maxLength(2)('ab')).toBeNull();
  });

  it('min and max compare numbers and leave an empty value alone', async () => {
    const { Validators } = await fresh();
    expect(Validators.min(5)('4')).toEqual({ key: 'validation.min', params: { min: 5 } });
    expect(Validators.min(5)('5')).toBeNull();
    expect(Validators.min(5)('')).toBeNull();
    expect(Validators.max(5)('6')).toEqual({ key: 'validation.max', params: { max: 5 } });
    expect(Validators.max(5)('5')).toBeNull();
    expect(Validators.max(-1)('')).toBeNull();
  });

  it('email takes name@domain.tld and refuses the rest', async () => {
    const { Validators } = await fresh();
    expect(Validators.email()('ada@example.org')).toBeNull();
    expect(Validators.email()('ada@example')).toEqual({ key: 'validation.email' });
    expect(Validators.email()('')).toBeNull();
  });

  it('validate answers the first rule a value breaks', async () => {
    const { Validators, validate } = await fresh();
    expect(validate('', [Validators.required(), Validators.minLength(2)])).toEqual({ key: 'validation.required' });
    expect(validate('a', [Validators.required(), Validators.minLength(2)])).toEqual({
      key: 'validation.minLength',
      params: { min: 2 },
    });
  });
});
