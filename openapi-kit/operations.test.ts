// @vitest-environment node
/**
 * Reading the operations of an OpenAPI document: a small document written for the purpose
 * (./sample-document.test-support.ts) shows each rule the reader applies, and each one-line
 * SpecError a broken document gets.
 */
import { describe, expect, it } from 'vitest';
import { operationSpecs, responseFor, SpecError } from './index.ts';
import { doc, op, ops } from './sample-document.test-support.ts';

describe('operationSpecs', () => {
  it('reads every operation of every path item, in document order', () => {
    expect(ops().map((o) => `${o.method} ${o.path} ${o.id}`)).toEqual([
      'GET /things listThings',
      'POST /things createThing',
      'GET /things/{id} getThing',
      'PUT /things/{id} putThing',
      'DELETE /things/{id} deleteThing',
      'PATCH /things/{id} patchThing',
      'GET /things/mine myThing',
      'GET /status status',
      'POST /notes createNote',
      'GET /either either',
      'GET /drafts listDrafts',
      'POST /drafts createDraft',
      'GET /drafts/{id} getDraft',
      'GET /forms listForms',
      'POST /forms createForm',
      'GET /forms/{id} getForm',
      'GET /drops listDrops',
      'POST /drops createDrop',
      'DELETE /drops/{id} deleteDrop',
      'GET /notes/{id} getNote',
      'GET /boxes/{b} listBox',
      'POST /boxes/{b} createInBox',
      'GET /boxes/{b}/{item} getInBox',
      'GET /singleton getSingleton',
      'POST /singleton createSingleton',
    ]);
  });

  it("merges the path's parameters with the operation's, the operation's winning", () => {
    expect(op('listThings').params).toEqual([
      { name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' }, pointer: '/components/parameters/Trace/schema' },
      { name: 'q', in: 'query', required: true, schema: { type: 'integer' }, pointer: '/paths/~1things/get/parameters/0/schema' },
    ]);
    expect(op('createThing').params.map((p) => p.pointer)).toEqual([
      '/components/parameters/Trace/schema',
      '/paths/~1things/parameters/1/schema',
    ]);
    expect(op('getThing').params).toEqual([]);
  });

  it('reads summary, description and where the operation is served', () => {
    expect(op('listThings')).toMatchObject({ summary: 'List things', description: 'Every thing.', root: false });
    expect(op('createThing')).toMatchObject({ summary: '', description: '' });
    expect(op('status').root).toBe(true);
    expect(op('listDrafts').root).toBe(false);
  });

  it("reads the security in force: the operation's, else the document's", () => {
    expect(op('listThings')).toMatchObject({ security: [{}], secured: false });
    expect(op('createThing')).toMatchObject({ security: [{ bearer: ['write', '1'] }, { key: [] }], secured: true });
    expect(op('getThing')).toMatchObject({ security: [{ bearer: ['read'] }], secured: true });
    expect(op('status')).toMatchObject({ security: [], secured: false });
    expect(op('either')).toMatchObject({ security: [{}, { bearer: [] }], secured: false });
    const open = operationSpecs(doc('openapi: 3.1.0\npaths: { /a: { get: { operationId: a } } }\ncomponents: { schemas: {} }'));
    expect(open[0]).toMatchObject({ security: [], secured: false, statuses: [], responses: {} });
    const odd = operationSpecs(
      doc('openapi: 3.1.0\nsecurity: [7, { k: [] }]\npaths: { /a: { get: { operationId: a } } }\ncomponents: { schemas: {} }'),
    );
    expect(odd[0]).toMatchObject({ security: [{ k: [] }], secured: true });
  });

  it('reads the roles a caller must hold: the names listed for a scheme that lists no scopes, asked by every requirement', () => {
    const roles = operationSpecs(
      doc(`openapi: 3.1.0
paths:
  /a:
    get: { operationId: admin, security: [{ bearer: [admin] }] }
    put: { operationId: either, security: [{ bearer: [admin, editor] }, { key: [editor] }] }
    post: { operationId: scoped, security: [{ oidc: [openid] }, { oauth: [write] }] }
    delete: { operationId: mixed, security: [{ bearer: [admin], oidc: [openid] }] }
    patch: { operationId: open, security: [{}, { bearer: [admin] }] }
    head: { operationId: unknownScheme, security: [{ nowhere: [admin] }] }
components:
  schemas: {}
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    key: { type: apiKey, in: header, name: X-Key }
    oidc: { type: openIdConnect, openIdConnectUrl: /x }
    oauth: { type: oauth2, flows: {} }
`),
    );
    const of = (id: string) => roles.find((o) => o.id === id)?.roles;
    expect(of('admin')).toEqual(['admin']);
    expect(of('either')).toEqual(['editor']);
    expect(of('scoped')).toEqual([]);
    expect(of('mixed')).toEqual(['admin']);
    expect(of('open')).toEqual([]);
    expect(of('unknownScheme')).toEqual(['admin']);
    expect(op('createThing').roles).toEqual([]);
  });

  it('reads the responses, their headers, examples and content', () => {
    const list = op('listThings');
    expect(list.statuses).toEqual(['200', '4XX', 'default']);
    expect(list.responses['200']).toStrictEqual({
      status: '200',
      description: 'The things.',
      pointer: '/paths/~1things/get/responses/200',
      headers: [
        {
          name: 'X-Count',
          required: true,
          schema: { type: 'integer' },
          pointer: '/paths/~1things/get/responses/200/headers/X-Count/schema',
          example: 3,
        },
        {
          name: 'X-Note',
          required: false,
          schema: { type: 'string' },
          pointer: '/paths/~1things/get/responses/200/headers/X-Note/schema',
          example: 'hello',
        },
        {
          name: 'X-Plain',
          required: false,
          schema: { type: 'string' },
          pointer: '/paths/~1things/get/responses/200/headers/X-Plain/schema',
        },
      ],
      content: [
        {
          media: 'application/json',
          schema: { type: 'array' },
          pointer: '/paths/~1things/get/responses/200/content/application~1json/schema',
          examples: [[1], [1, 2]],
          namedExamples: { one: [1, 2] },
        },
      ],
    });
    expect(list.responses['4XX']).toMatchObject({ status: '4XX', description: 'A problem.', pointer: '/components/responses/Problem' });
    expect(list.responses.default).toStrictEqual({
      status: 'default',
      description: 'Anything else',
      pointer: '/paths/~1things/get/responses/default',
      headers: [],
      content: null,
    });
    expect(op('getThing').responses['200']).toStrictEqual({
      status: '200',
      description: '',
      pointer: '/paths/~1things~1{id}/get/responses/200',
      headers: [],
      content: [{ media: 'text/plain', examples: [], namedExamples: {} }],
    });
  });

  it('reads a request body: whether it is required, each media type, its files and limits', () => {
    const body = op('createThing').body!;
    expect(body.required).toBe(true);
    expect(body.content['application/json']).toStrictEqual({
      media: 'application/json',
      schema: { $ref: '#/components/schemas/Thing' },
      pointer: '/paths/~1things/post/requestBody/content/application~1json/schema',
      fileFields: [],
      fileTypes: {},
      maxFileBytes: {},
      maxBodyBytes: 100,
    });
    const form = body.content['multipart/form-data']!;
    expect(form.fileFields).toEqual(['picture', 'photo', 'scan']);
    // The encoding's contentType wins over the types the schema allows.
    expect(form.fileTypes).toEqual({ picture: ['image/png', 'image/webp'], photo: ['image/webp'], scan: ['image/png', 'image/gif'] });
    expect(form.maxFileBytes).toEqual({ picture: 30, photo: 50 });
    expect(form.maxBodyBytes).toBeUndefined();
    expect(op('putThing').body).toStrictEqual({
      required: false,
      content: {
        'application/json': {
          media: 'application/json',
          schema: {},
          pointer: '/paths/~1things~1{id}/put/requestBody/content/application~1json/schema',
          fileFields: [],
          fileTypes: {},
          maxFileBytes: {},
        },
      },
    });
    expect(op('getThing').body).toBeUndefined();
  });

  const one = (operation: string, extra = '') =>
    doc(`openapi: 3.1.0\npaths: { /a: { ${operation} } }\ncomponents: { schemas: {} }${extra}`);

  it.each([
    ['0', '/paths/~1a/post/requestBody/content/application~1json/x-max-body-bytes must be a positive integer'],
    ['-1', '/paths/~1a/post/requestBody/content/application~1json/x-max-body-bytes must be a positive integer'],
    ['1.5', '/paths/~1a/post/requestBody/content/application~1json/x-max-body-bytes must be a positive integer'],
    ["'10'", '/paths/~1a/post/requestBody/content/application~1json/x-max-body-bytes must be a positive integer'],
  ])('refuses x-max-body-bytes: %s', (value, message) => {
    const broken = one(`post: { operationId: a, requestBody: { content: { application/json: { x-max-body-bytes: ${value} } } } }`);
    expect(() => operationSpecs(broken)).toThrow(new SpecError(message));
  });

  it('accepts x-max-body-bytes of 1', () => {
    const body = operationSpecs(
      one('post: { operationId: a, requestBody: { content: { application/json: { x-max-body-bytes: 1 } } } }'),
    )[0]!.body;
    expect(body?.content['application/json']?.maxBodyBytes).toBe(1);
  });

  it('names an operation without operationId by its method and path, and refuses one operationId used twice', () => {
    expect(operationSpecs(one('get: { responses: {} }'))[0]!.id).toBe('GET /a');
    expect(operationSpecs(one("get: { operationId: '' }"))[0]!.id).toBe('GET /a');
    expect(() => operationSpecs(one('get: { operationId: x }, put: { operationId: x }'))).toThrow(
      new SpecError("operationId 'x' is used twice"),
    );
  });
});

describe('responseFor', () => {
  it('picks the exact status, then its range, then default', () => {
    const list = op('listThings');
    expect(responseFor(list, 200)?.status).toBe('200');
    expect(responseFor(list, 404)?.status).toBe('4XX');
    expect(responseFor(list, 500)?.status).toBe('default');
    expect(responseFor(op('putThing'), 500)).toBeUndefined();
  });
});
