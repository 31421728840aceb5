// @vitest-environment node
/** Validating values against the document's schemas, the problems in words, and the OpenApiSpec that bundles them. */
import { describe, expect, it } from 'vitest';
import { describeProblem, type OpenApiDocument, OpenApiSpec, SchemaValidator, SpecError } from './index.ts';

const DOC: OpenApiDocument = {
  openapi: '3.1.0',
  paths: {
    '/things': {
      get: { operationId: 'listThings', responses: { '200': { description: 'OK' } } },
      post: {
        operationId: 'createThing',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
        responses: { '201': { description: 'Created' } },
      },
    },
    '/things/{id}': { get: { operationId: 'getThing', responses: { '200': { description: 'OK' } } } },
    '/things/mine': { get: { operationId: 'myThing', responses: { '200': { description: 'OK' } } } },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        required: ['code'],
        additionalProperties: false,
        properties: { code: { type: 'string', pattern: '^[A-Z]+$' }, size: { type: 'integer', minimum: 1 } },
      },
      'a/b': { type: 'string', format: 'email' },
    },
  },
};

describe('SchemaValidator', () => {
  it('accepts a valid value and gives the first problem only, by default', () => {
    const v = new SchemaValidator(DOC);
    expect(v.reportsEveryProblem).toBe(false);
    expect(v.atPointer('/components/schemas/Thing', { code: 'AB', size: 2 })).toEqual([]);
    expect(v.atPointer('/components/schemas/Thing', { code: 'ab', size: 0 })).toEqual([
      {
        instancePath: '/code',
        schemaPath: 'openapi#/components/schemas/Thing/properties/code/pattern',
        keyword: 'pattern',
        message: 'must match pattern "^[A-Z]+$"',
        params: { pattern: '^[A-Z]+$' },
      },
    ]);
  });

  it('gives every problem, each placed in the document, when detailed', () => {
    const v = new SchemaValidator(DOC, { detailed: true });
    expect(v.reportsEveryProblem).toBe(true);
    expect(v.schema('Thing', { code: 'ab', size: 0, x: 1 }).map((p) => [p.instancePath, p.schemaPath, p.message])).toEqual([
      ['', '#/components/schemas/Thing/additionalProperties', 'must NOT have additional properties'],
      ['/code', '#/components/schemas/Thing/properties/code/pattern', 'must match pattern "^[A-Z]+$"'],
      ['/size', '#/components/schemas/Thing/properties/size/minimum', 'must be >= 1'],
    ]);
  });

  it('places a schema object that appears twice at its first place', () => {
    const shared = { type: 'string' };
    const twice: OpenApiDocument = { ...DOC, components: { schemas: { A: shared, B: { type: 'object', properties: { x: shared } } } } };
    const v = new SchemaValidator(twice, { detailed: true });
    expect(v.schema('A', 1).map((p) => p.schemaPath)).toEqual(['#/components/schemas/A/type']);
    expect(v.schema('B', { x: 1 }).map((p) => p.schemaPath)).toEqual(['#/components/schemas/A/type']);
  });

  it('finds a schema by a name that needs escaping, with formats checked', () => {
    const v = new SchemaValidator(DOC);
    expect(v.schema('a/b', 'ada@example.org')).toEqual([]);
    expect(v.schema('a/b', 'not an address').map((p) => p.message)).toEqual(['must match format "email"']);
  });

  it("validates against a schema outside the document whose '#/' references point into it", () => {
    const v = new SchemaValidator(DOC);
    const list = { type: 'array', items: { $ref: '#/components/schemas/Thing' } };
    expect(v.against('list', list, [{ code: 'A' }])).toEqual([]);
    expect(v.against('list', list, [{ code: 'a' }]).map((p) => p.instancePath)).toEqual(['/0/code']);
    const absolute = { $ref: 'openapi#/components/schemas/Thing' };
    expect(v.against('absolute', absolute, { code: 'A' })).toEqual([]);
    expect(v.against('absolute', absolute, {}).map((p) => p.message)).toEqual(["must have required property 'code'"]);
  });

  it('leaves values that merely look like references alone', () => {
    const v = new SchemaValidator(DOC);
    const schema = { type: 'object', properties: { link: { const: '#/somewhere' } } };
    expect(v.against('link', schema, { link: '#/somewhere' })).toEqual([]);
    expect(v.against('link', schema, { link: 'openapi#/somewhere' })).toHaveLength(1);
    expect(v.against('none', undefined, 42)).toEqual([]);
  });

  it("validates a field named '$ref' like any other", () => {
    const v = new SchemaValidator(DOC);
    const schema = { type: 'object', required: ['$ref'], properties: { $ref: { type: 'string' } } };
    expect(v.against('named', schema, { $ref: '#/anything' })).toEqual([]);
    expect(v.against('named', schema, { $ref: 5 }).map((p) => [p.instancePath, p.message])).toEqual([['/$ref', 'must be string']]);
  });

  it('compiles a schema once per key', () => {
    const v = new SchemaValidator(DOC);
    expect(v.against('k', { type: 'string' }, 1)).toHaveLength(1);
    expect(v.against('k', { type: 'number' }, 1)).toHaveLength(1);
    expect(v.against('other', { type: 'number' }, 1)).toEqual([]);
  });
});

describe('describeProblem', () => {
  const problem = (keyword: string, instancePath: string, params: Record<string, unknown>, message = 'is wrong') => ({
    instancePath,
    schemaPath: '#/x',
    keyword,
    message,
    params,
  });

  it('says where in the value the problem is, after the label', () => {
    expect(describeProblem(problem('pattern', '', {}, 'must match'), 'body')).toBe('body must match');
    expect(describeProblem(problem('type', '/items/0/code', {}, 'must be string'), 'body')).toBe('body.items.0.code must be string');
  });

  it('names an unknown field', () => {
    expect(describeProblem(problem('additionalProperties', '/a', { additionalProperty: 'x' }), 'form')).toBe(
      "form.a has an unknown field 'x'",
    );
    expect(describeProblem(problem('unevaluatedProperties', '', { unevaluatedProperty: 'y' }), 'body')).toBe(
      "body has an unknown field 'y'",
    );
    expect(describeProblem(problem('additionalProperties', '', {}), 'body')).toBe("body has an unknown field '?'");
  });

  it('says the value is invalid when no problem is known', () => {
    expect(describeProblem(undefined, "query parameter 'q'")).toBe("query parameter 'q' is invalid");
  });
});

describe('OpenApiSpec', () => {
  it('finds operations by id, by template and by concrete path', () => {
    const spec = new OpenApiSpec(DOC);
    expect(spec.byId('getThing').path).toBe('/things/{id}');
    expect(() => spec.byId('nothing')).toThrow(new Error("openapi.yaml has no operation 'nothing'"));
    expect(spec.find('post', '/things')?.id).toBe('createThing');
    expect(spec.find('GET', '/things/mine')?.id).toBe('myThing');
    expect(spec.find('GET', '/things/7')).toBeUndefined();
    expect(spec.match('get', '/things/mine')?.id).toBe('myThing');
    expect(spec.match('GET', '/things/7')?.id).toBe('getThing');
    expect(spec.collections.map((c) => [c.name, c.read.id])).toEqual([['things', 'getThing']]);
    expect(spec.errors).toBeNull();
  });

  it('checks answers and requests of an operation', async () => {
    const spec = new OpenApiSpec(DOC);
    const create = spec.byId('createThing');
    expect(spec.check(create, { status: 500, headers: new Headers(), body: new Uint8Array() })).toEqual([
      { kind: 'status', message: 'status 500 is not documented for createThing (documented: 201)' },
    ]);
    const body = new TextEncoder().encode('{"code":"a"}');
    const request = { pathname: '/things', query: new URLSearchParams(), contentType: 'application/json', body };
    expect(await spec.checkRequest(create, request)).toEqual(['body.code must match pattern "^[A-Z]+$"']);
  });

  it('passes the detailed option to its validator', () => {
    expect(new OpenApiSpec(DOC, { detailed: true }).validator.reportsEveryProblem).toBe(true);
    expect(new OpenApiSpec(DOC).validator.reportsEveryProblem).toBe(false);
  });

  it('refuses a document by its name, and one whose schemas cannot be compiled', () => {
    expect(() => new OpenApiSpec({ openapi: '2.0' }, { name: 'old.yaml' })).toThrow(new SpecError('old.yaml is not an OpenAPI 3 document'));
    const broken = () => new OpenApiSpec({ ...DOC, type: 42 });
    expect(broken).toThrow(SpecError);
    expect(broken).toThrow(/^the schemas cannot be compiled: schema is invalid: data\/type must be equal to one of the allowed values/);
  });
});
