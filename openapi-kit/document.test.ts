// @vitest-environment node
/**
 * Reading an OpenAPI document: a small document written for the purpose shows each rule the
 * reader applies, and each one-line SpecError a broken document gets.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  asOpenApiDocument,
  atPointer,
  collectionSpecs,
  compareSortValues,
  escapeRegExp,
  follow,
  isJsonMedia,
  matchOperation,
  mediaTypeOf,
  type OpenApiDocument,
  operationSpecs,
  pointerToken,
  resolveRef,
  responseFor,
  SpecError,
} from './index.ts';

const doc = (text: string): OpenApiDocument => asOpenApiDocument(parse(text));

const DOC_TEXT = `
openapi: 3.1.0
security: [{ bearer: [read] }]
paths:
  /things:
    x-max-records: 2
    parameters:
      - { $ref: '#/components/parameters/Trace' }
      - { name: q, in: query, schema: { type: string } }
    get:
      operationId: listThings
      summary: List things
      description: Every thing.
      parameters:
        - { name: q, in: query, required: true, schema: { type: integer } }
      security: [{}]
      responses:
        '200':
          description: The things.
          headers:
            X-Count: { required: true, schema: { type: integer }, example: 3 }
            X-Note: { schema: { type: string }, examples: { first: { value: hello }, second: { value: bye } } }
            X-Plain: { schema: { type: string } }
          content:
            application/json:
              schema: { type: array }
              example: [1]
              examples:
                one: { $ref: '#/components/examples/One' }
                bare: { summary: no value }
        4XX: { $ref: '#/components/responses/Problem' }
        default: { description: Anything else }
    post:
      operationId: createThing
      security: [{ bearer: [write, 1] }, { key: scopes }]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Thing' }
            x-max-body-bytes: 100
          multipart/form-data:
            schema: { $ref: '#/components/schemas/ThingForm' }
            encoding:
              picture: { contentType: 'Image/PNG, image/webp' }
      responses:
        '201': { description: Created, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
        '204': { description: 'No body' }
  /things/{id}:
    get:
      operationId: getThing
      responses: { '200': { content: { Text/Plain: {} } } }
    put:
      operationId: putThing
      requestBody: { content: { application/json: {} } }
      responses: { '204': { description: Replaced } }
    delete:
      operationId: deleteThing
      responses: { '204': { description: Deleted } }
    patch:
      operationId: patchThing
      responses: { '405': { description: Not allowed } }
  /things/mine:
    get:
      operationId: myThing
      responses: { '200': { description: Mine } }
  /status:
    servers: [{ url: 'https://elsewhere.example' }, { url: / }]
    get:
      operationId: status
      security: []
      responses: { '200': { description: Up } }
  /notes:
    post:
      operationId: createNote
      requestBody: { content: { application/json: {} } }
      responses: { '201': { description: Created } }
  /either:
    get:
      operationId: either
      security: [{}, { bearer: [] }]
      responses: {}
  /drafts:
    servers: [{ url: 'https://elsewhere.example' }, null]
    get: { operationId: listDrafts }
    post: { operationId: createDraft, requestBody: { content: { application/json: {} } }, responses: { '200': {} } }
  /drafts/{id}:
    get: { operationId: getDraft }
  /forms:
    get: { operationId: listForms }
    post: { operationId: createForm, requestBody: { content: { multipart/form-data: {} } }, responses: { '201': {} } }
  /forms/{id}:
    get: { operationId: getForm }
  /drops:
    get: { operationId: listDrops }
    post: { operationId: createDrop, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /drops/{id}:
    delete: { operationId: deleteDrop }
  /notes/{id}:
    get: { operationId: getNote }
  /boxes/{b}:
    get: { operationId: listBox }
    post: { operationId: createInBox, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /boxes/{b}/{item}:
    get: { operationId: getInBox }
  /singleton:
    get: { operationId: getSingleton, responses: {} }
    post:
      operationId: createSingleton
      requestBody: { content: { application/json: {} } }
      responses: { '201': { description: Created } }
  /ignored: 7
  /blank:
components:
  parameters:
    Trace: { name: X-Trace, in: header, schema: { type: string } }
  examples:
    One: { value: [1, 2] }
  responses:
    Problem:
      description: A problem.
      content: { application/problem+json: { schema: { type: object } } }
  schemas:
    Thing: { type: object, properties: { name: { type: string } } }
    ThingForm:
      type: object
      properties:
        name: { type: string }
        picture: { $ref: '#/components/schemas/Picture' }
        photo: { type: string, contentMediaType: Image/WebP, maxLength: 50 }
        scan:
          anyOf:
            - { type: string, contentMediaType: image/png, maxLength: 10 }
            - { type: string, contentMediaType: image/gif }
        mixed:
          anyOf:
            - { type: string, contentMediaType: image/png }
            - { type: string }
        empty: { anyOf: [] }
    Picture:
      anyOf:
        - { type: string, contentMediaType: image/png, maxLength: 20 }
        - { $ref: '#/components/schemas/Jpeg' }
    Jpeg: { type: string, contentMediaType: image/jpeg, maxLength: 30 }
`;

// Read inside each test rather than at load, so that what a test asserts is what it ran.
const DOC = () => doc(DOC_TEXT);
const ops = () => operationSpecs(DOC());
const op = (id: string) => ops().find((o) => o.id === id)!;

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

describe('collectionSpecs', () => {
  it('finds the collections: a list, a create of JSON answering 201 and an item path read by id', () => {
    // /drafts creates with 200, /forms with a form, /drops reads no item, /notes lists none, /boxes/{b} is no collection path, /singleton has no item path.
    const collections = collectionSpecs(DOC(), ops());
    expect(collections).toHaveLength(1);
    const things = collections[0]!;
    expect(things).toMatchObject({ name: 'things', path: '/things', itemPath: '/things/{id}', idParam: 'id', maxRecords: 2 });
    expect([things.list.id, things.create.id, things.read.id, things.replace?.id, things.remove?.id]).toEqual([
      'listThings',
      'createThing',
      'getThing',
      'putThing',
      'deleteThing',
    ]);
    expect(things.others.map((o) => o.id)).toEqual(['patchThing']);
  });

  it('leaves replace, remove and maxRecords out when the document has none', () => {
    const small = doc(`openapi: 3.1.0
paths:
  /xs:
    get: { operationId: list }
    post: { operationId: create, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /xs/{key}:
    get: { operationId: read }
components: { schemas: {} }`);
    const [xs] = collectionSpecs(small, operationSpecs(small));
    expect(xs).toMatchObject({ name: 'xs', idParam: 'key', others: [] });
    expect(xs && 'replace' in xs).toBe(false);
    expect(xs && 'remove' in xs).toBe(false);
    expect(xs && 'maxRecords' in xs).toBe(false);
  });

  it("creates with the collection path's POST, and keeps every other operation of both paths", () => {
    const mixed = doc(`openapi: 3.1.0
paths:
  /xs:
    get: { operationId: list }
    put: { operationId: replaceAll, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
    post: { operationId: create, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
    delete: { operationId: clear }
  /xs/{id}:
    get: { operationId: read }
    patch: { operationId: patch }
components: { schemas: {} }`);
    const [xs] = collectionSpecs(mixed, operationSpecs(mixed));
    expect(xs?.create.id).toBe('create');
    expect(xs?.others.map((o) => o.id)).toEqual(['replaceAll', 'clear', 'patch']);
  });

  it('finds no collection on a path that creates with another method than POST', () => {
    const putOnly = doc(`openapi: 3.1.0
paths:
  /xs:
    get: { operationId: list }
    put: { operationId: replaceAll, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /xs/{id}:
    get: { operationId: read }
components: { schemas: {} }`);
    expect(collectionSpecs(putOnly, operationSpecs(putOnly))).toEqual([]);
  });

  it.each(['-1', '1.5', "'3'"])('refuses x-max-records: %s', (value) => {
    const broken = doc(`openapi: 3.1.0
paths:
  /xs:
    x-max-records: ${value}
    get: { operationId: list }
    post: { operationId: create, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /xs/{id}:
    get: { operationId: read }
components: { schemas: {} }`);
    expect(() => collectionSpecs(broken, operationSpecs(broken))).toThrow(
      new SpecError('x-max-records of /xs must be a non-negative integer'),
    );
  });

  it('accepts x-max-records: 0', () => {
    const zero = doc(`openapi: 3.1.0
paths:
  /xs:
    x-max-records: 0
    get: { operationId: list }
    post: { operationId: create, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /xs/{id}:
    get: { operationId: read }
components: { schemas: {} }`);
    expect(collectionSpecs(zero, operationSpecs(zero))[0]?.maxRecords).toBe(0);
  });
});

describe('collection semantics: x-sort and x-body-id-matches-path', () => {
  const withExtensions = (sort: string, matches: string) =>
    doc(`openapi: 3.1.0
paths:
  /xs:
    get: { operationId: list${sort === '' ? '' : `, x-sort: ${sort}`} }
    post: { operationId: create, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /xs/{id}:
    get: { operationId: read }
    put: { operationId: replace${matches === '' ? '' : `, x-body-id-matches-path: ${matches}`} }
components: { schemas: {} }`);
  const collection = (sort: string, matches: string) => {
    const d = withExtensions(sort, matches);
    return collectionSpecs(d, operationSpecs(d))[0]!;
  };

  it('reads the order of the list: a field, descending with a leading -', () => {
    expect(collection('-createdAt', '').order).toEqual({ field: 'createdAt', descending: true });
    expect(collection('rank', '').order).toEqual({ field: 'rank', descending: false });
    expect('order' in collection('', '')).toBe(false);
  });

  it.each(["'createdAt,-id'", "'-'", '--x', '7up', '{ by: x }'])('refuses x-sort: %s', (value) => {
    expect(() => collection(value, '')).toThrow(new SpecError('x-sort of GET /xs must be a field name, with a leading - for descending'));
  });

  it('reads whether a replace checks the body id against the URL, false when unsaid', () => {
    expect(collection('', 'true').replaceChecksBodyId).toBe(true);
    expect(collection('', 'false').replaceChecksBodyId).toBe(false);
    expect(collection('', '').replaceChecksBodyId).toBe(false);
    expect(() => collection('', "'yes'")).toThrow(new SpecError('x-body-id-matches-path of PUT /xs/{id} must be true or false'));
  });
});

describe("a collection's ids: x-sequential-ids and the record's id field", () => {
  const collection = (pathExtra: string, record: string) => {
    const d = doc(`openapi: 3.1.0
paths:
  /xs:
    ${pathExtra}
    get: { operationId: list }
    post: { operationId: create, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /xs/{xId}:
    get: { operationId: read, responses: { '200': { content: { application/json: { schema: ${record} } } } } }
components: { schemas: { Base: { properties: { xId: { type: string } } } } }`);
    return collectionSpecs(d, operationSpecs(d))[0]!;
  };

  it('reads whether a create without an id gets the next integer, false when unsaid', () => {
    expect(collection('x-sequential-ids: true', '{}').sequentialIds).toBe(true);
    expect(collection('x-sequential-ids: false', '{}').sequentialIds).toBe(false);
    expect(collection('', '{}').sequentialIds).toBe(false);
    expect(() => collection("x-sequential-ids: 'yes'", '{}')).toThrow(new SpecError('x-sequential-ids of /xs must be true or false'));
  });

  it("takes the id from the record's field named as the path parameter, through allOf, else from id", () => {
    expect(collection('', '{ properties: { xId: {}, name: {} } }').idField).toBe('xId');
    expect(collection('', "{ allOf: [{ $ref: '#/components/schemas/Base' }] }").idField).toBe('xId');
    expect(collection('', '{ properties: { id: {}, name: {} } }').idField).toBe('id');
    expect(collection('', '{}').idField).toBe('id');
  });
});

describe('compareSortValues', () => {
  it('orders numbers by value, not by their text', () => {
    expect(compareSortValues(9, 10)).toBeLessThan(0);
    expect(compareSortValues(10, 9)).toBeGreaterThan(0);
    expect(compareSortValues(3, 3)).toBe(0);
  });

  it('orders two RFC 3339 date-times by the instant, whatever their offset or case', () => {
    // 10:30+01:00 is 09:30Z: earlier, though its text sorts after.
    expect(compareSortValues('2026-11-20T10:30:00+01:00', '2026-11-20T10:00:00Z')).toBeLessThan(0);
    expect(compareSortValues('2026-11-20t09:30:00z', '2026-11-20T10:30:00+01:00')).toBe(0);
    expect(compareSortValues('2026-11-20T10:00:00.5Z', '2026-11-20T10:00:00Z')).toBeGreaterThan(0);
  });

  it('orders anything else by its text, code unit by code unit', () => {
    expect(compareSortValues('B', 'a')).toBeLessThan(0);
    expect(compareSortValues('a', 'B')).toBeGreaterThan(0);
    expect(compareSortValues('same', 'same')).toBe(0);
    // Text that Date.parse would read as a date is still text: "10" after "9".
    expect(compareSortValues('10', '9')).toBeLessThan(0);
    expect(compareSortValues('2026-11-20', '2026-11-3')).toBeLessThan(0);
  });
});

describe('matchOperation', () => {
  it('matches a concrete path, literal paths before templates', () => {
    expect(matchOperation(ops(), 'get', '/things/mine')?.id).toBe('myThing');
    expect(matchOperation(ops(), 'GET', '/things/42')?.id).toBe('getThing');
    expect(matchOperation(ops(), 'delete', '/things/42')?.id).toBe('deleteThing');
    expect(matchOperation(ops(), 'GET', '/things/4/2')).toBeUndefined();
    expect(matchOperation(ops(), 'GET', '/things/')).toBeUndefined();
    expect(matchOperation(ops(), 'GET', '/thingsx')).toBeUndefined();
    expect(matchOperation(ops(), 'POST', '/status')).toBeUndefined();
  });

  it('escapes what regular expressions would read as operators', () => {
    expect(escapeRegExp('a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o')).toBe('a\\.b\\*c\\+d\\?e\\^f\\$g\\{h\\}i\\(j\\)k\\|l\\[m\\]n\\\\o');
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
