import { describe, expect, it } from 'vitest';
import { COLLECTION_SCHEMAS } from '../../api/collection-fields';
import { createFormState } from '../../ui/form/form-state';
import { bodyOf, fieldConfigs, fieldErrorOf, valuesOf } from './record-form';

const { accounts, notifications, subscription, symbols } = COLLECTION_SCHEMAS;

describe('a record as a form', () => {
  it('shows a record’s values as text, nested fields by their path', () => {
    expect(valuesOf(accounts, { id: '1', name: 'Savings', currency: 'EUR', balance: 12.5 })).toEqual({
      name: 'Savings',
      currency: 'EUR',
      balance: '12.5',
    });
    expect(
      valuesOf(subscription, { endpoint: 'https://push.example.org/1', expirationTime: null, keys: { p256dh: 'P', auth: 'A' } }),
    ).toEqual({
      endpoint: 'https://push.example.org/1',
      expirationTime: '',
      'keys.p256dh': 'P',
      'keys.auth': 'A',
    });
  });

  it('starts a new record empty, a choice on its first value, a flag off, a time now', () => {
    const now = new Date(2025, 2, 4, 5, 6, 7);
    expect(valuesOf(notifications, null, now)).toEqual({
      title: '',
      body: '',
      level: 'info',
      read: 'false',
      createdAt: '2025-03-04T05:06:07',
    });
  });

  it('sends each value in its type: numbers, flags, times in UTC, nested objects; an empty optional number as null', () => {
    expect(bodyOf(accounts, { name: ' Savings ', currency: 'EUR', balance: '-3.25' })).toEqual({
      name: 'Savings',
      currency: 'EUR',
      balance: -3.25,
    });
    const local = '2025-03-04T05:06:07';
    expect(bodyOf(notifications, { title: 'Hi', body: '', level: 'warning', read: 'true', createdAt: local })).toEqual({
      title: 'Hi',
      body: '',
      level: 'warning',
      read: true,
      createdAt: new Date(local).toISOString(),
    });
    expect(bodyOf(subscription, { endpoint: 'https://p.example.org', expirationTime: '', 'keys.p256dh': 'P', 'keys.auth': 'A' })).toEqual({
      endpoint: 'https://p.example.org',
      expirationTime: null,
      keys: { p256dh: 'P', auth: 'A' },
    });
  });

  it('asks to fill what cannot be empty: not a text whose empty value the contract takes', () => {
    const form = createFormState(fieldConfigs(notifications), {
      initial: { title: '', body: '', level: 'info', read: 'false', createdAt: '' },
    });
    expect(form.errors.value).toEqual({ title: { key: 'validation.required' }, createdAt: { key: 'validation.required' } });
  });

  it('checks each field by the contract’s rules', () => {
    // A pattern the contract puts in words is checked before the lengths, and said in those words.
    const codeWords = symbols.fields.find((f) => f.name === 'code')!.patternMessage!;
    expect(codeWords.en).toBe('One to five capital letters, such as AAPL.');
    const form = createFormState(fieldConfigs(symbols), { initial: { code: 'toolong', entity: '' } });
    expect(form.errors.value).toEqual({
      code: { key: 'validation.pattern', text: codeWords },
      entity: { key: 'validation.required' },
    });
    form.setValue('code', 'ab');
    expect(form.errors.value.code).toEqual({ key: 'validation.pattern', text: codeWords });
    // A pattern without words keeps the generic message, after the lengths.
    const plain = createFormState(
      fieldConfigs({ fields: [{ name: 'x', kind: 'text', required: true, pattern: '^[a-z]+$', maxLength: 3 }] }),
      {
        initial: { x: 'TOOLONG' },
      },
    );
    expect(plain.errors.value).toEqual({ x: { key: 'validation.maxLength', params: { max: 3 } } });
    plain.setValue('x', 'AB');
    expect(plain.errors.value).toEqual({ x: { key: 'validation.pattern' } });
    const money = createFormState(fieldConfigs(accounts), { initial: { name: 'x', currency: 'EUR', balance: 'lots' } });
    expect(money.errors.value).toEqual({ balance: { key: 'validation.number' } });
    money.setValue('balance', '2000000000');
    expect(money.errors.value).toEqual({ balance: { key: 'validation.max', params: { max: 1000000000 } } });
  });
});

describe('the server’s verdict on a field, in words', () => {
  it.each([
    ['body.name must NOT have fewer than 1 characters', accounts, 'name', { key: 'validation.required' }],
    ['body.entity must NOT have fewer than 3 characters', symbols, 'entity', { key: 'validation.minLength', params: { min: 3 } }],
    ['body.code must NOT have more than 5 characters', symbols, 'code', { key: 'validation.maxLength', params: { max: 5 } }],
    [
      'body.code must match pattern "^[A-Z]{1,5}$"',
      symbols,
      'code',
      { key: 'validation.pattern', text: symbols.fields[0]!.patternMessage },
    ],
    ['body.balance must be <= 1000000000', accounts, 'balance', { key: 'validation.max', params: { max: 1000000000 } }],
    ['body.balance must be >= -1000000000', accounts, 'balance', { key: 'validation.min', params: { min: -1000000000 } }],
    ['body.balance must be number', accounts, 'balance', { key: 'validation.number' }],
    ['body.level must be equal to one of the allowed values', notifications, 'level', { key: 'validation.choice' }],
    ["body must have required property 'currency'", accounts, 'currency', { key: 'validation.required' }],
    [
      'body.keys.auth must match pattern "^[A-Za-z0-9_=-]{1,100}$"',
      subscription,
      'keys.auth',
      { key: 'validation.pattern', text: subscription.fields.find((f) => f.name === 'keys.auth')!.patternMessage },
    ],
    ["body must have required property 'keys'", subscription, 'keys.p256dh', { key: 'validation.required' }],
  ] as const)('%s', (message, schema, field, error) => {
    expect(fieldErrorOf(schema, message)).toEqual({ field, error });
  });

  it('is no field’s when it names none the form has', () => {
    expect(fieldErrorOf(symbols, "body has an unknown field 'x'")).toBeNull();
    expect(fieldErrorOf(symbols, 'body.id must match pattern "^x$"')).toBeNull();
    expect(fieldErrorOf(symbols, "Collection 'symbols' holds at most 3 records")).toBeNull();
  });
});
