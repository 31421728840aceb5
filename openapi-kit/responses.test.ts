// @vitest-environment node
/** Judging an answer against its operation: each way an answer can break the document, in the words reports give. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type Answer, errorConvention, mediaMatches, OpenApiSpec } from './index.ts';

const TEXT = `
openapi: 3.1.0
paths:
  /items:
    get:
      operationId: listItems
      responses:
        '200':
          description: The items.
          headers:
            X-Count: { required: true, schema: { type: integer, minimum: 0 } }
            X-Tag: { schema: { type: string, maxLength: 3 } }
            X-Rate: { schema: { type: number, maximum: 1 } }
          content:
            application/json:
              schema:
                type: object
                properties: { items: { type: array, items: { type: string } } }
                unevaluatedProperties: false
        '204': { description: Nothing }
        '206':
          description: Some
          content:
            application/json:
              schema: { type: object, properties: { n: { type: number } }, additionalProperties: false }
              example: { status: 206, error: Partial Content, message: not an Error }
        '205': { description: Reset, content: {} }
        '207':
          description: Any object.
          content: { application/json: { schema: { type: object } } }
        '300':
          description: Any JSON.
          content: { application/json: {} }
        '302':
          description: An image or any text.
          content: { image/png: {}, 'text/*': {} }
        '303':
          description: Anything at all.
          content: { '*/*': {} }
        4XX: { $ref: '#/components/responses/Error' }
  /plain:
    get:
      operationId: plain
      responses: { '200': { description: OK } }
components:
  responses:
    Error:
      description: An error.
      content:
        application/json:
          schema: { $ref: '#/components/schemas/Error' }
          examples:
            notFound: { value: { status: 404, error: Not Found, message: No item } }
            gone: { value: { status: 404, error: Gone Away, message: No item } }
            bad: { value: { status: 400, error: Bad Request, message: Bad } }
            odd: { value: { status: '409', error: Conflict } }
            text: { value: 'just text' }
            weird: { value: { status: 500, error: 5, message: Odd } }
  schemas:
    Error:
      type: object
      required: [message]
      properties: { status: { type: integer }, error: { type: string }, message: { type: string } }
`;

const spec = () => new OpenApiSpec(parse(TEXT), { detailed: true });
const answer = (status: number, headers: Record<string, string>, body = ''): Answer => ({
  status,
  headers: new Headers(headers),
  body: new TextEncoder().encode(body),
});
const judge = (a: Answer, id = 'listItems') => {
  const s = spec();
  return s.check(s.byId(id), a);
};
const messages = (a: Answer, id?: string) => judge(a, id).map((v) => `${v.kind}: ${v.message}`);
const json = { 'content-type': 'application/json' };

describe('mediaMatches', () => {
  it('matches exact types and the wildcards of a documented type', () => {
    expect(mediaMatches('image/png', 'image/png')).toBe(true);
    expect(mediaMatches('image/*', 'image/webp')).toBe(true);
    expect(mediaMatches('*/*', 'application/json')).toBe(true);
    expect(mediaMatches('image/*', 'text/plain')).toBe(false);
    expect(mediaMatches('image/*', 'imagex/png')).toBe(false);
    expect(mediaMatches('image/*', 'x/image/')).toBe(false);
    expect(mediaMatches('image/png', 'image/webp')).toBe(false);
    expect(mediaMatches('*/json', 'text/json')).toBe(false);
  });
});

describe('checkAnswer', () => {
  it('accepts an answer that honours the document', () => {
    expect(judge(answer(200, { ...json, 'x-count': '2', 'x-tag': 'ab' }, '{"items":["a"]}'))).toEqual([]);
    expect(judge(answer(204, {}))).toEqual([]);
    expect(judge(answer(300, json, '[1]'))).toEqual([]);
    expect(judge(answer(302, { 'content-type': 'text/csv' }, 'a,b'))).toEqual([]);
    expect(judge(answer(303, { 'content-type': 'application/octet-stream' }, 'x'))).toEqual([]);
  });

  it('names an undocumented status with those documented', () => {
    expect(judge(answer(500, json, '{}'))).toEqual([
      { kind: 'status', message: 'status 500 is not documented for listItems (documented: 200, 204, 205, 206, 207, 300, 302, 303, 4XX)' },
    ]);
  });

  it('names a missing required header and a header that breaks its schema, numbers read as numbers', () => {
    expect(messages(answer(200, { ...json, 'x-count': '-1', 'x-tag': 'abcd' }, '{}'))).toEqual([
      "header: header X-Count: '-1' must be >= 0",
      "header: header X-Tag: 'abcd' must NOT have more than 3 characters",
    ]);
    expect(messages(answer(200, json, '{}'))).toEqual(['header: the required header X-Count is missing (listItems 200)']);
    const long = 'x'.repeat(150);
    expect(messages(answer(200, { ...json, 'x-count': '1', 'x-tag': long }, '{}'))).toEqual([
      `header: header X-Tag: '${'x'.repeat(100)}…' must NOT have more than 3 characters`,
    ]);
  });

  it('reads a number header as a number', () => {
    expect(messages(answer(200, { ...json, 'x-count': '1', 'x-rate': '0.5' }, '{}'))).toEqual([]);
    expect(messages(answer(200, { ...json, 'x-count': '1', 'x-rate': '2' }, '{}'))).toEqual(["header: header X-Rate: '2' must be <= 1"]);
  });

  it('holds only an Error body to the Error convention', () => {
    expect(judge(answer(207, json, '{"status":1,"error":"Nope","message":""}'))).toEqual([]);
  });

  it('places a header problem in the document', () => {
    expect(judge(answer(200, { ...json, 'x-count': 'many' }, '{}'))).toEqual([
      {
        kind: 'header',
        message: "header X-Count: 'many' must be integer",
        instancePath: '',
        schemaPath: '#/paths/~1items/get/responses/200/headers/X-Count/schema/type',
      },
      {
        kind: 'header',
        message: "header X-Count: 'many' must be >= 0",
        instancePath: '',
        schemaPath: '#/paths/~1items/get/responses/200/headers/X-Count/schema/minimum',
      },
    ]);
  });

  it('names a body where none is documented, cut to 200 characters', () => {
    expect(messages(answer(204, {}, 'oops'))).toEqual(['body: a body came where listItems 204 documents none: oops']);
    expect(messages(answer(205, json, '{}'))).toEqual(['body: a body came where listItems 205 documents none: {}']);
    expect(judge(answer(205, {}))).toEqual([]);
    expect(messages(answer(200, {}, 'y'.repeat(250)), 'plain')).toEqual([
      `body: a body came where plain 200 documents none: ${'y'.repeat(200)}…`,
    ]);
    expect(messages(answer(200, {}, 'y'.repeat(200)), 'plain')).toEqual([
      `body: a body came where plain 200 documents none: ${'y'.repeat(200)}`,
    ]);
  });

  it('names an undocumented Content-Type, or none', () => {
    expect(messages(answer(206, { 'content-type': 'text/html' }, '<p>'))).toEqual([
      "content-type: Content-Type 'text/html' is not documented for listItems 206 (documented: application/json)",
    ]);
    expect(messages(answer(302, {}, 'x'))).toEqual([
      "content-type: Content-Type '(none)' is not documented for listItems 302 (documented: image/png, text/*)",
    ]);
  });

  it('names an empty body of a media type other than JSON', () => {
    expect(messages(answer(302, { 'content-type': 'image/png' }))).toEqual(['body: an empty image/png body (listItems 302)']);
    expect(messages(answer(302, { 'content-type': 'image/png' }, 'png'))).toEqual([]);
  });

  it('names a JSON body that is not JSON, cut to 200 characters', () => {
    expect(messages(answer(206, json, '{oops'))).toEqual([
      'body: the body is not JSON although the Content-Type is application/json: {oops',
    ]);
    expect(messages(answer(206, json, `{${'z'.repeat(300)}`))).toEqual([
      `body: the body is not JSON although the Content-Type is application/json: {${'z'.repeat(199)}…`,
    ]);
  });

  it('names each schema problem of the body, with where it is and the unknown field', () => {
    expect(judge(answer(206, json, '{"n":"x","extra":1}'))).toEqual([
      {
        kind: 'body',
        message: "body must NOT have additional properties ('extra')",
        instancePath: '',
        schemaPath: '#/paths/~1items/get/responses/206/content/application~1json/schema/additionalProperties',
      },
      {
        kind: 'body',
        message: 'body at /n must be number',
        instancePath: '/n',
        schemaPath: '#/paths/~1items/get/responses/206/content/application~1json/schema/properties/n/type',
      },
    ]);
    expect(messages(answer(200, { ...json, 'x-count': '0' }, '{"items":[1],"more":true}'))).toEqual([
      'body: body at /items/0 must be string',
      "body: body must NOT have unevaluated properties ('more')",
    ]);
  });

  it('holds an Error body to the status and the reason phrases of the examples', () => {
    expect(judge(answer(404, json, '{"status":404,"error":"Not Found","message":"No item 7"}'))).toEqual([]);
    expect(judge(answer(404, json, '{"status":404,"error":"Gone Away","message":"No item 7"}'))).toEqual([]);
    expect(judge(answer(418, json, '{"status":418,"error":"Teapot","message":"Short"}'))).toEqual([]);
    expect(judge(answer(404, json, '{"message":"No item 7"}'))).toEqual([]);
    expect(messages(answer(400, json, '{"status":404,"error":"Not Found","message":" "}'))).toEqual([
      'error-body: the Error body says status 404 in a 400 answer',
      "error-body: the Error body's error is \"Not Found\"; the document's examples give 'Bad Request' for 400",
      'error-body: the Error body has an empty message',
    ]);
    expect(messages(answer(404, json, '{"status":404,"error":"Lost","message":"x"}'))).toEqual([
      "error-body: the Error body's error is \"Lost\"; the document's examples give 'Not Found' or 'Gone Away' for 404",
    ]);
  });

  it('looks for an empty message only in an Error body whose message is text', () => {
    const doc = parse(TEXT);
    doc.components.schemas.Error.properties.message = {};
    const s = new OpenApiSpec(doc, { detailed: true });
    expect(s.check(s.byId('listItems'), answer(404, json, '{"status":404,"error":"Not Found","message":0}'))).toEqual([]);
    expect(s.check(s.byId('listItems'), answer(404, json, '{"status":404,"error":"Not Found","message":[]}'))).toEqual([]);
  });

  it('does not hold an invalid Error body to the convention twice', () => {
    expect(messages(answer(400, json, '{"status":"400","error":"Bad","message":""}'))).toEqual(['body: body at /status must be integer']);
  });
});

describe('errorConvention', () => {
  it('reads the reason phrase of each status from the Error examples, skipping what is no Error example', () => {
    const s = spec();
    expect(errorConvention(s.doc, s.operations)).toEqual({
      pointer: '/components/schemas/Error',
      phrases: new Map([
        [404, new Set(['Not Found', 'Gone Away'])],
        [400, new Set(['Bad Request'])],
      ]),
    });
  });

  it('is null for a document without an Error schema', () => {
    const bare = new OpenApiSpec(parse('openapi: 3.1.0\npaths: {}\ncomponents: { schemas: {} }'));
    expect(bare.errors).toBeNull();
    expect(errorConvention(bare.doc, bare.operations)).toBeNull();
  });
});
