// @vitest-environment node
/** Judging a request against its operation: each way a request can break the document, in the words strict mode reports. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { OpenApiSpec, pathSegments, type RequestIn } from './index.ts';

const TEXT = `
openapi: 3.1.0
paths:
  /items/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string, pattern: '^[a-z0-9 ]{1,5}$' } }
      - { name: If-Match, in: header, required: true, schema: { type: string, pattern: '^"[a-z]+"$' } }
      - { name: X-Note, in: header, schema: { type: string, maxLength: 3 } }
    get:
      operationId: getItem
      security: [{ bearer: [] }]
      parameters:
        - { name: limit, in: query, required: true, schema: { type: string, pattern: '^[0-9]+$' } }
        - { name: sort, in: query, schema: { type: string, enum: [asc, desc] } }
        - { name: trace, in: cookie, required: true, schema: { type: string } }
      responses: { '200': { description: OK } }
    put:
      operationId: putItem
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, required: [name], properties: { name: { type: string } }, additionalProperties: false }
            x-max-body-bytes: 20
          application/merge-patch+json:
            schema: { type: object, properties: { name: { type: string } } }
          text/plain: { x-max-body-bytes: 4 }
          multipart/form-data:
            schema:
              type: object
              required: [name]
              additionalProperties: false
              properties:
                name: { type: string, maxLength: 5 }
                picture: { type: string, contentMediaType: image/png, maxLength: 4 }
                doc: { anyOf: [{ type: string, contentMediaType: 'image/*' }, { type: string, contentMediaType: text/plain }] }
      responses: { '204': { description: Replaced } }
    patch:
      operationId: patchItem
      requestBody: { content: { application/json: { schema: { type: object } } } }
      responses: { '204': { description: Patched } }
    delete:
      operationId: deleteItem
      responses: { '204': { description: Deleted } }
components: { schemas: {} }
`;

const spec = () => new OpenApiSpec(parse(TEXT));
const bytes = (text: string) => new TextEncoder().encode(text);
const request = (overrides: Partial<RequestIn> = {}): RequestIn => ({
  pathname: '/items/abc',
  query: new URLSearchParams('limit=10'),
  contentType: undefined,
  body: null,
  ...overrides,
});
const check = (id: string, overrides: Partial<RequestIn> = {}) => {
  const s = spec();
  return s.checkRequest(s.byId(id), request(overrides));
};

/** A multipart body and its Content-Type, built as a browser would send it. */
async function multipart(build: (form: FormData) => void): Promise<{ contentType: string; body: Uint8Array }> {
  const form = new FormData();
  build(form);
  const encoded = new Response(form);
  return { contentType: encoded.headers.get('content-type')!, body: new Uint8Array(await encoded.arrayBuffer()) };
}

describe('pathSegments', () => {
  it("gives each path parameter's raw value, or null for another path", () => {
    const s = spec();
    expect(pathSegments(s.byId('getItem'), '/items/a%20b')).toEqual({ id: 'a%20b' });
    expect(pathSegments(s.byId('getItem'), '/items/a/b')).toBeNull();
    expect(pathSegments(s.byId('getItem'), '/things/a')).toBeNull();
  });
});

describe('parameters', () => {
  it('accepts a request that honours them', async () => {
    expect(await check('getItem', { pathname: '/items/a%20b', query: new URLSearchParams('limit=1&sort=asc') })).toEqual([]);
  });

  it('judges the path parameter once decoded, and names bad %-encoding', async () => {
    expect(await check('getItem', { pathname: '/items/ABC' })).toEqual([`path parameter 'id' must match pattern "^[a-z0-9 ]{1,5}$"`]);
    expect(await check('getItem', { pathname: '/items/a%zz' })).toEqual(["path parameter 'id' is no valid %-encoding: 'a%zz'"]);
  });

  it('leaves the path alone when it is not the operation’s', async () => {
    expect(await check('getItem', { pathname: '/elsewhere/ABC' })).toEqual([]);
  });

  it('names a missing required query parameter, one given twice and one that breaks its schema', async () => {
    expect(await check('getItem', { query: new URLSearchParams('') })).toEqual(["query parameter 'limit' is required"]);
    expect(await check('getItem', { query: new URLSearchParams('limit=1&limit=2&limit=3') })).toEqual([
      "query parameter 'limit' is given 3 times",
    ]);
    expect(await check('getItem', { query: new URLSearchParams('limit=x&sort=up') })).toEqual([
      `query parameter 'limit' must match pattern "^[0-9]+$"`,
      "query parameter 'sort' must be equal to one of the allowed values",
    ]);
  });
});

describe('headers', () => {
  it('judges header parameters and credentials only when the headers are given', async () => {
    expect(await check('getItem', { headers: new Headers({ 'if-match': '"v"', authorization: 'Bearer t' }) })).toEqual([]);
    expect(await check('getItem')).toEqual([]);
  });

  it('names a missing required header, an invalid one, and missing credentials on a secured operation', async () => {
    expect(await check('getItem', { headers: new Headers({ 'x-note': 'long' }) })).toEqual([
      "header 'If-Match' is required",
      "header 'X-Note' must NOT have more than 3 characters",
      'the operation is secured and the request carries no Authorization',
    ]);
    expect(await check('getItem', { headers: new Headers({ 'if-match': 'v', authorization: 'x' }) })).toEqual([
      `header 'If-Match' must match pattern "^"[a-z]+"$"`,
    ]);
  });

  it('does not ask an open operation for credentials', async () => {
    expect(await check('deleteItem', { headers: new Headers({ 'if-match': '"v"' }) })).toEqual([]);
  });
});

describe('body', () => {
  it('does not judge a body refused unread', async () => {
    expect(await check('deleteItem', { body: null, contentType: 'text/plain' })).toEqual([]);
  });

  it('names a body sent to an operation that takes none', async () => {
    expect(await check('deleteItem', { body: bytes('x') })).toEqual(['a body was sent to an operation that takes none']);
    expect(await check('deleteItem', { body: new Uint8Array() })).toEqual([]);
  });

  it('names a missing required body; an optional one may be left out', async () => {
    expect(await check('putItem', { body: new Uint8Array(), contentType: 'application/json' })).toEqual(['the required body is missing']);
    expect(await check('patchItem', { body: new Uint8Array(), contentType: 'application/json' })).toEqual([]);
  });

  it('names a media type the operation does not take', async () => {
    expect(await check('putItem', { body: bytes('{}'), contentType: 'application/xml' })).toEqual([
      "Content-Type 'application/xml' is not one of application/json, application/merge-patch+json, text/plain, multipart/form-data",
    ]);
    expect(await check('putItem', { body: bytes('{}') })).toEqual([
      "Content-Type '' is not one of application/json, application/merge-patch+json, text/plain, multipart/form-data",
    ]);
  });

  it('judges JSON (and +json) against its schema, and names JSON that is not', async () => {
    expect(await check('putItem', { body: bytes('{"name":"a"}'), contentType: 'Application/JSON; charset=utf-8' })).toEqual([]);
    expect(await check('putItem', { body: bytes('{"nam":"a"}'), contentType: 'application/json' })).toEqual([
      "body must have required property 'name'",
    ]);
    expect(await check('putItem', { body: bytes('{"name":1}'), contentType: 'application/merge-patch+json' })).toEqual([
      'body.name must be string',
    ]);
    expect(await check('putItem', { body: bytes('{"name":'), contentType: 'application/json' })).toEqual(['the body is not valid JSON']);
    expect(await check('putItem', { body: new Uint8Array([0x22, 0xff, 0x22]), contentType: 'application/json' })).toEqual([
      'the body is not valid JSON',
    ]);
  });

  it('names a body larger than x-max-body-bytes, with its other problems', async () => {
    expect(await check('putItem', { body: bytes(`{"name":"${'a'.repeat(9)}"}`), contentType: 'application/json' })).toEqual([]);
    expect(await check('putItem', { body: bytes(`{"name":"${'a'.repeat(10)}"}`), contentType: 'application/json' })).toEqual([
      'the body has 21 bytes, more than 20',
    ]);
    expect(await check('putItem', { body: bytes(`{"name":${'1'.repeat(20)}`), contentType: 'application/json' })).toEqual([
      'the body has 28 bytes, more than 20',
      'the body is not valid JSON',
    ]);
    expect(await check('putItem', { body: bytes('12345'), contentType: 'text/plain' })).toEqual(['the body has 5 bytes, more than 4']);
    expect(await check('putItem', { body: bytes('not json'), contentType: 'text/plain' })).toEqual(['the body has 8 bytes, more than 4']);
    expect(await check('putItem', { body: bytes('1234'), contentType: 'text/plain' })).toEqual([]);
  });

  it('accepts a form whose text fields and files honour the document', async () => {
    const sent = await multipart((form) => {
      form.append('name', 'Ada');
      form.append('picture', new Blob(['abcd'], { type: 'image/png' }), 'a.png');
      form.append('doc', new Blob(['x'], { type: 'image/gif' }), 'a.gif');
    });
    expect(await check('putItem', sent)).toEqual([]);
    const plain = await multipart((form) => {
      form.append('name', 'Ada');
      form.append('doc', new Blob(['x'], { type: 'Text/Plain' }), 'a.txt');
    });
    expect(await check('putItem', plain)).toEqual([]);
  });

  it('accepts a file part whose type is written in capitals', async () => {
    const body = bytes(
      [
        '--b',
        'Content-Disposition: form-data; name="name"',
        '',
        'Ada',
        '--b',
        'Content-Disposition: form-data; name="doc"; filename="a.txt"',
        'Content-Type: Text/Plain',
        '',
        'x',
        '--b--',
        '',
      ].join('\r\n'),
    );
    expect(await check('putItem', { body, contentType: 'multipart/form-data; boundary=b' })).toEqual([]);
  });

  it('names each problem of a form', async () => {
    const sent = await multipart((form) => {
      form.append('name', 'Ada');
      form.append('name', 'Adalbert');
      form.append('picture', 'text instead');
      form.append('doc', new Blob(['x'], { type: 'application/pdf' }), 'a.pdf');
      form.append('extra', new Blob(['x']), 'x.bin');
    });
    expect(await check('putItem', sent)).toEqual([
      "form field 'name' is given more than once",
      "form field 'picture' is text, not a file",
      "file 'doc' is 'application/pdf', not one of image/*, text/plain",
      "form field 'extra' is a file",
      'form.name must NOT have more than 5 characters',
    ]);
    const large = await multipart((form) => {
      form.append('picture', new Blob(['abcde'], { type: 'image/png' }), 'a.png');
    });
    expect(await check('putItem', large)).toEqual(["file 'picture' has 5 bytes, more than 4", "form must have required property 'name'"]);
  });

  it('names a form whose text fields break the schema, files left out of it', async () => {
    const sent = await multipart((form) => {
      form.append('name', 'Ada');
      form.append('nickname', 'A');
    });
    expect(await check('putItem', sent)).toEqual(["form has an unknown field 'nickname'"]);
  });

  it('names a body that is not multipart although it says so', async () => {
    expect(await check('putItem', { body: bytes('name=Ada'), contentType: 'multipart/form-data; boundary=zzz' })).toEqual([
      'the body is not valid multipart/form-data',
    ]);
  });
});
