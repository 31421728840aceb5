import { describe, expect, it } from 'vitest';
import type { JsonSchema } from './document.ts';
import type { ParamSpec } from './operations.ts';
import { decodeParam, encodeParam, repeats, shapeOf } from './parameters.ts';

const doc = {
  components: { schemas: { Id: { type: 'integer', format: 'int64' }, Tags: { type: 'array', items: { type: 'string' } } } },
};
const param = (p: Partial<ParamSpec> & Pick<ParamSpec, 'in' | 'schema'>): ParamSpec => ({
  name: 'x',
  required: false,
  pointer: '/p',
  ...p,
});

describe('shapeOf', () => {
  it.each<[string, JsonSchema, string]>([
    ['a type', { type: 'boolean' }, 'boolean'],
    ['a $ref', { $ref: '#/components/schemas/Id' }, 'integer'],
    ['a nullable type list', { type: ['number', 'null'] }, 'number'],
    ['two types', { type: ['number', 'string'] }, 'any'],
    ['items alone', { items: {} }, 'array'],
    ['an allOf of one type', { allOf: [{ $ref: '#/components/schemas/Id' }, { minimum: 1 }] }, 'integer'],
    ['a string enum', { enum: ['a', 'b'] }, 'string'],
    ['nothing', {}, 'any'],
  ])('%s', (_, schema, shape) => {
    expect(shapeOf(doc, schema)).toBe(shape);
  });
});

describe('encodeParam and decodeParam', () => {
  it('sends an integer as its digits and reads it back as a number', () => {
    const p = param({ in: 'path', schema: { $ref: '#/components/schemas/Id' } });
    expect(encodeParam(p, 42)).toEqual(['42']);
    expect(decodeParam(doc, p, ['42'])).toBe(42);
    expect(decodeParam(doc, p, ['4x2'])).toBe('4x2');
  });

  it('repeats an exploded query array (form, the default) and joins one that does not explode', () => {
    const exploded = param({ in: 'query', schema: { $ref: '#/components/schemas/Tags' } });
    expect(encodeParam(exploded, ['a', 'b'])).toEqual(['a', 'b']);
    expect(decodeParam(doc, exploded, ['a', 'b'])).toEqual(['a', 'b']);
    const joined = param({ in: 'query', explode: false, schema: { type: 'array', items: { type: 'integer' } } });
    expect(encodeParam(joined, [1, 2])).toEqual(['1,2']);
    expect(decodeParam(doc, joined, ['1,2'])).toEqual([1, 2]);
    expect(decodeParam(doc, joined, [''])).toEqual([]);
  });

  it('lets only an exploded query array be given several times', () => {
    expect(repeats(doc, param({ in: 'query', schema: { $ref: '#/components/schemas/Tags' } }))).toBe(true);
    expect(repeats(doc, param({ in: 'query', explode: false, schema: { $ref: '#/components/schemas/Tags' } }))).toBe(false);
    expect(repeats(doc, param({ in: 'query', schema: { type: 'string' } }))).toBe(false);
    expect(repeats(doc, param({ in: 'path', schema: { $ref: '#/components/schemas/Tags' } }))).toBe(false);
  });

  it('reads booleans, leaves strings as text and gives several values of a scalar back as a list', () => {
    expect(decodeParam(doc, param({ in: 'query', schema: { type: 'boolean' } }), ['true'])).toBe(true);
    expect(decodeParam(doc, param({ in: 'query', schema: { type: 'boolean' } }), ['yes'])).toBe('yes');
    expect(decodeParam(doc, param({ in: 'query', schema: { type: 'string' } }), ['007'])).toBe('007');
    expect(decodeParam(doc, param({ in: 'query', schema: { type: 'integer' } }), ['1', '2'])).toEqual(['1', '2']);
    expect(decodeParam(doc, param({ in: 'query', schema: { type: 'integer' } }), [])).toBeUndefined();
  });

  it('writes an object as key,value pairs in a path and reads it back', () => {
    const p = param({ in: 'path', schema: { type: 'object', properties: { a: { type: 'string' } } } });
    expect(encodeParam(p, { a: 'x', b: 'y' })).toEqual(['a,x,b,y']);
    expect(decodeParam(doc, p, ['a,x,b,y'])).toEqual({ a: 'x', b: 'y' });
    expect(decodeParam(doc, p, ['a,x,b'])).toBe('a,x,b');
  });
});
