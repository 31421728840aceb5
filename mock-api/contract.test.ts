// @vitest-environment node
/** The contract the mock validates records, bodies and filters with: openapi.yaml itself. */
import { describe, expect, it } from 'vitest';
import { createContract } from './contract.ts';
import { loadSpec } from '../openapi-kit/node.ts';

const contract = createContract(loadSpec());

describe('schema', () => {
  // Made within each test, so that how it is made is part of what the test covers.
  const account = () => contract.schema<{ id: string }>('Account');

  it('accepts a record that honours components.schemas[name], as is', () => {
    const value = { id: '1', name: 'Fees', currency: 'EUR', balance: 1 };
    expect(account()['~standard'].validate(value)).toEqual({ value });
    expect(account()['~standard'].vendor).toBe('openapi');
  });

  it('refuses one that breaks it with the first problem in words', () => {
    expect(account()['~standard'].validate({ id: '1', name: 'Fees', currency: 'eur', balance: 1 })).toEqual({
      issues: [{ message: 'body.currency must match pattern "^[A-Z]{3}$"' }],
    });
  });
});

describe('check and checkAt', () => {
  it('name the problem after the label given', () => {
    expect(contract.check('Id', 'a b')).toBe('body must match pattern "^[A-Za-z0-9_-]{1,40}$"');
    expect(contract.check('Id', 'ab')).toBeNull();
    expect(contract.checkAt('/components/schemas/Id', 7, 'the id')).toBe('the id must be string');
  });
});

describe('checkQuery', () => {
  const q = (query: string) => new URLSearchParams(query);

  it('accepts no filter, and filters that honour their schemas', () => {
    expect(contract.checkQuery('/accounts', q(''))).toBeNull();
    expect(contract.checkQuery('/accounts', q('name=Fees&currency=EUR'))).toBeNull();
  });

  it('refuses a filter that breaks its schema, naming it', () => {
    expect(contract.checkQuery('/accounts', q('currency=eur'))).toBe(`query parameter 'currency' must match pattern "^[A-Z]{3}$"`);
  });

  it('checks every filter, not only the first', () => {
    expect(contract.checkQuery('/accounts', q('name=Fees&currency=eur'))).toBe(
      `query parameter 'currency' must match pattern "^[A-Z]{3}$"`,
    );
  });

  it('refuses a filter given twice', () => {
    expect(contract.checkQuery('/accounts', q('name=a&name=b'))).toBe("query parameter 'name' must be given at most once");
  });

  it('leaves alone what is no query parameter of the operation: headers and path parameters of the same name', () => {
    expect(contract.checkQuery('/accounts', q(`Prefer=${encodeURIComponent('é'.repeat(300))}`))).toBeNull();
    expect(contract.checkQuery('/accounts/{id}', q('id=not%20an%20id'))).toBeNull();
  });

  it('has nothing to say of a path the document does not list', () => {
    expect(contract.checkQuery('/nowhere', q('name=a&name=b'))).toBeNull();
  });
});
