// @vitest-environment node
/**
 * Reading an OpenAPI document: its pointers and references, its media types, and the check that a
 * parse result is an OpenAPI 3 document, with the one-line SpecError a broken one gets.
 */
import { describe, expect, it } from 'vitest';
import { asOpenApiDocument, atPointer, follow, isJsonMedia, mediaTypeOf, pointerToken, resolveRef, SpecError } from './index.ts';
import { DOC } from './sample-document.test-support.ts';

describe('pointers and references', () => {
  it('escapes and reads pointer tokens', () => {
    expect(pointerToken('a/b~c')).toBe('a~1b~0c');
    const tree = { 'a/b': { '~c': [10, { d: 'deep' }] } };
    expect(atPointer(tree, '#/a~1b/~0c/1/d')).toBe('deep');
    expect(atPointer(tree, '/a~1b/~0c/0')).toBe(10);
    expect(atPointer(tree, '#')).toBe(tree);
    expect(atPointer(tree, '#/a~1b//~0c/0')).toBe(10);
    expect(atPointer(tree, '#/missing/deeper')).toBeUndefined();
    expect(atPointer(tree, '#/a~1b/~0c/0/x')).toBeUndefined();
    expect(atPointer({ 'a#b': 1 }, '/a#b')).toBe(1);
  });

  it('resolves a reference to an object, or says which one is unresolved', () => {
    expect(resolveRef(DOC(), '#/components/schemas/Jpeg')).toEqual({ type: 'string', contentMediaType: 'image/jpeg', maxLength: 30 });
    expect(() => resolveRef(DOC(), '#/components/schemas/Nope')).toThrow(new SpecError('unresolved reference #/components/schemas/Nope'));
    expect(() => resolveRef(DOC(), '#/openapi')).toThrow('unresolved reference #/openapi');
  });

  it('follows a chain of references to the object and its pointer', () => {
    const chain = { a: { $ref: '#/b' }, b: { $ref: '#/c' }, c: { type: 'string' } };
    expect(follow(chain, { $ref: '#/a' }, '/start')).toEqual({ node: { type: 'string' }, pointer: '/c' });
    expect(follow(chain, { type: 'x' }, '/start')).toEqual({ node: { type: 'x' }, pointer: '/start' });
    expect(follow(chain, 'not an object', '/start')).toEqual({ node: {}, pointer: '/start' });
  });

  it('refuses a reference loop and a reference to another document', () => {
    const loop = { a: { $ref: '#/b' }, b: { $ref: '#/a' } };
    expect(() => follow(loop, { $ref: '#/a' }, '/x')).toThrow(new SpecError('$ref loop at /a'));
    expect(() => follow({}, { $ref: 'other.yaml#/a' }, '/x')).toThrow(new SpecError('only local references are supported: other.yaml#/a'));
  });

  it('follows a chain of twenty references', () => {
    const long: Record<string, unknown> = { n20: { type: 'string' } };
    for (let i = 0; i < 20; i++) long[`n${i}`] = { $ref: `#/n${i + 1}` };
    expect(follow(long, { $ref: '#/n0' }, '/x').pointer).toBe('/n20');
    long.n20 = { $ref: '#/n21' };
    long.n21 = { type: 'string' };
    expect(() => follow(long, { $ref: '#/n0' }, '/x')).toThrow('$ref loop at /n20');
  });
});

describe('media types', () => {
  it('reads the media type of a Content-Type', () => {
    expect(mediaTypeOf(' Application/JSON ; charset=utf-8')).toBe('application/json');
    expect(mediaTypeOf(null)).toBe('');
    expect(mediaTypeOf(undefined)).toBe('');
  });

  it('knows JSON and its +json dialects', () => {
    expect(isJsonMedia('application/json')).toBe(true);
    expect(isJsonMedia('application/problem+json')).toBe(true);
    expect(isJsonMedia('application/jsonx')).toBe(false);
    expect(isJsonMedia('text/plain')).toBe(false);
  });
});
describe('asOpenApiDocument', () => {
  it.each<[string, unknown, string]>([
    ['a list', [], 'spec.yaml is not an OpenAPI document (no mapping at the top)'],
    ['null', null, 'spec.yaml is not an OpenAPI document (no mapping at the top)'],
    ['Swagger 2', { swagger: '2.0', openapi: '2.0' }, 'spec.yaml is not an OpenAPI 3 document'],
    ['no version', { paths: {} }, 'spec.yaml is not an OpenAPI 3 document'],
    ['no paths', { openapi: '3.1.0', components: { schemas: {} } }, 'spec.yaml has no paths'],
    ['components that are a list', { openapi: '3.1.0', paths: {}, components: [] }, 'spec.yaml has components that are no mapping'],
    [
      'schemas that are a list',
      { openapi: '3.1.0', paths: {}, components: { schemas: [] } },
      'spec.yaml has component schemas that are no mapping',
    ],
  ])('refuses %s', (_, parsed, message) => {
    expect(() => asOpenApiDocument(parsed, 'spec.yaml')).toThrow(new SpecError(message));
  });

  it('reads a document without components as one with no component schemas', () => {
    expect(asOpenApiDocument({ openapi: '3.1.0', paths: {} }).components.schemas).toEqual({});
  });

  it("reads an OpenAPI 3.0 document's schemas as JSON Schema 2020-12: nullable, boolean exclusive bounds", () => {
    const doc = asOpenApiDocument({
      openapi: '3.0.3',
      paths: {},
      components: {
        schemas: {
          A: { type: 'string', nullable: true, enum: ['a'], example: { nullable: true } },
          B: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
          C: { type: 'integer', nullable: false },
        },
      },
    });
    expect(doc.components.schemas).toEqual({
      A: { type: ['string', 'null'], enum: ['a', null], example: { nullable: true } },
      B: { type: 'integer', exclusiveMinimum: 1, maximum: 9 },
      C: { type: 'integer' },
    });
  });

  it('leaves an OpenAPI 3.1 document as it is', () => {
    const schemas = { A: { type: 'string', nullable: true } };
    expect(asOpenApiDocument({ openapi: '3.1.0', paths: {}, components: { schemas } }).components.schemas).toEqual(schemas);
  });

  it("calls the document 'the document' when it has no name", () => {
    expect(() => asOpenApiDocument(7)).toThrow('the document is not an OpenAPI document (no mapping at the top)');
  });
});
