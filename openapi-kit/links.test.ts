import { describe, expect, it } from 'vitest';
import { asOpenApiDocument, SpecError } from './document.ts';
import { operationSpecs } from './operations.ts';
import { evaluate, linkSpecs, UnresolvedExpression, type LinkContext } from './links.ts';

const document = (links: unknown) =>
  asOpenApiDocument({
    openapi: '3.1.0',
    paths: {
      '/pets': {
        post: {
          operationId: 'createPet',
          responses: { '201': { $ref: '#/components/responses/Created' } },
        },
      },
      '/pets/{id}': { get: { operationId: 'getPet', responses: { '200': { description: 'a pet' } } } },
    },
    components: {
      schemas: {},
      responses: { Created: { description: 'created', links } },
      links: { Read: { operationId: 'getPet', parameters: { id: '$response.body#/id' } } },
    },
  });
const links = (raw: unknown) => {
  const doc = document(raw);
  return linkSpecs(doc, operationSpecs(doc));
};

describe('linkSpecs', () => {
  it('reads links through $refs, by operationId or by an operationRef into the document', () => {
    expect(
      links({
        ReadIt: { $ref: '#/components/links/Read' },
        ByRef: { operationRef: '#/paths/~1pets~1{id}/get', parameters: { id: '$response.body#/id' } },
      }),
    ).toEqual([
      {
        key: 'createPet 201 → getPet (ReadIt)',
        name: 'ReadIt',
        from: 'createPet',
        status: '201',
        to: 'getPet',
        parameters: { id: '$response.body#/id' },
        description: '',
      },
      {
        key: 'createPet 201 → getPet (ByRef)',
        name: 'ByRef',
        from: 'createPet',
        status: '201',
        to: 'getPet',
        parameters: { id: '$response.body#/id' },
        description: '',
      },
    ]);
  });

  it('refuses a link to an operation the document does not have', () => {
    expect(() => links({ Lost: { operationId: 'getCat' } })).toThrow(
      new SpecError('the link Lost of createPet 201 names no operation of the document (getCat)'),
    );
  });

  it('reads a response without links as none', () => {
    expect(links(undefined)).toEqual([]);
  });
});

describe('evaluate', () => {
  const ctx: LinkContext = {
    url: 'http://x/pets?q=1',
    method: 'POST',
    statusCode: 201,
    request: { path: { owner: 'ada' }, query: new URLSearchParams('q=1'), headers: new Headers({ 'x-a': 'b' }), body: { name: 'rex' } },
    response: { headers: new Headers({ location: '/pets/7' }), body: { id: 7, tags: ['a', 'b'] } },
  };

  it.each<[string, unknown]>([
    ['$response.body#/id', 7],
    ['$response.body#/tags/1', 'b'],
    ['$response.header.Location', '/pets/7'],
    ['$request.path.owner', 'ada'],
    ['$request.query.q', '1'],
    ['$request.body#/name', 'rex'],
    ['$request.header.X-A', 'b'],
    ['$statusCode', 201],
    ['$method', 'POST'],
    ['$url', 'http://x/pets?q=1'],
    ['pets-{$response.body#/id}', 'pets-7'],
    ['a constant', 'a constant'],
  ])('%s', (expression, value) => {
    expect(evaluate(expression, ctx)).toEqual(value);
  });

  it('keeps a constant that is no string as it is', () => {
    expect(evaluate({ a: 1 }, ctx)).toEqual({ a: 1 });
  });

  it('says so when the exchange has no value for an expression', () => {
    expect(() => evaluate('$response.body#/owner', ctx)).toThrow(UnresolvedExpression);
    expect(() => evaluate('$request.cookie.x', ctx)).toThrow(UnresolvedExpression);
  });
});
