// @vitest-environment node
/** Negotiation by language and answers that count, as a document states them (./languages.ts, ./counts.ts). */
import { describe, expect, it } from 'vitest';
import { countSpecs, languageNegotiations, languagesTaken, OpenApiSpec, SpecError } from './index.ts';
import { doc } from './sample-document.test-support.ts';

const negotiating = (match: string, fields: string, writeHeader = true) =>
  doc(`openapi: 3.1.0
paths:
  /xs:
    get:
      operationId: list
      parameters: [{ $ref: '#/components/parameters/Lang' }]
      responses: { '200': { description: ok, headers: { Content-Language: { schema: { type: string } } } } }
    post: { operationId: create, requestBody: { content: { application/json: {} } }, responses: { '201': { description: made } } }
  /xs/{id}:
    get:
      operationId: read
      parameters: [{ $ref: '#/components/parameters/Lang' }]
      responses: { '200': { description: ok, headers: { content-language: { schema: { type: string } } } } }
    put:
      operationId: replace${fields === '' ? '' : `\n      x-language-fields: ${fields}`}
      parameters: [${writeHeader ? '{ name: Content-Language, in: header, schema: { type: string } }' : ''}]
      responses: { '200': { description: ok } }
components:
  schemas: {}
  parameters:
    Lang: { name: Accept-Language, in: header, schema: { type: string }${match === '' ? '' : `, x-language-match: ${match}`} }`);

const negotiation = (match: string, fields: string, writeHeader = true) => {
  const spec = new OpenApiSpec(negotiating(match, fields, writeHeader));
  return spec.languages;
};

describe('languageNegotiations', () => {
  it('finds the collection whose read takes Accept-Language and answers Content-Language, with its list and its write', () => {
    const [n, ...rest] = negotiation('[filter, lookup]', '[title, body]');
    expect(rest).toEqual([]);
    expect([n?.read.id, n?.list?.id, n?.write?.id, n?.match, n?.fields]).toEqual([
      'read',
      'list',
      'replace',
      ['filter', 'lookup'],
      ['title', 'body'],
    ]);
  });

  it('reads no scheme and no fields where the document states none, and no write without Content-Language', () => {
    const [n] = negotiation('', '');
    expect([n?.match, n?.fields]).toEqual([[], []]);
    const [bare] = negotiation('', '[title]', false);
    expect([bare?.write, bare?.fields]).toEqual([null, []]);
  });

  it.each(['[]', '[filter, prefix]', 'filter'])('refuses x-language-match: %s', (value) => {
    expect(() => negotiation(value, '')).toThrow(
      new SpecError("x-language-match of GET /xs/{id}'s Accept-Language must list filter, lookup or both"),
    );
  });

  it('refuses x-language-fields that are not field names', () => {
    expect(() => negotiation('', "[title, '']")).toThrow(new SpecError('x-language-fields of PUT /xs/{id} must list field names'));
  });

  it('finds none in a document whose reads do not negotiate', () => {
    const plain = doc(`openapi: 3.1.0
paths:
  /xs: { get: { operationId: list }, post: { operationId: create, requestBody: { content: { application/json: {} } }, responses: { '201': {} } } }
  /xs/{id}: { get: { operationId: read } }
components: { schemas: {} }`);
    expect(languageNegotiations(plain, new OpenApiSpec(plain).collections)).toEqual([]);
  });
});

describe('languagesTaken', () => {
  const available = ['en', 'zh-Hans', 'pt-BR', 'pt'];

  it('takes the equal tag, whatever the case, before any other', () => {
    expect(languagesTaken('PT', available, ['filter', 'lookup'], 'en')).toEqual(['pt']);
    expect(languagesTaken('zh-hans', available, [], 'en')).toEqual(['zh-Hans']);
  });

  it('with filter, the tags a range is a prefix of; with lookup, the longest a range shortens to', () => {
    expect(languagesTaken('zh', available, ['filter'], 'en')).toEqual(['zh-Hans']);
    expect(languagesTaken('zh', available, ['lookup'], 'en')).toEqual([]);
    expect(languagesTaken('zh-Hans-CN', available, ['lookup'], 'en')).toEqual(['zh-Hans']);
    expect(languagesTaken('zh-Hans-CN', available, ['filter'], 'en')).toEqual([]);
    expect(languagesTaken('z', available, ['filter', 'lookup'], 'en')).toEqual([]);
  });

  it('takes the fallback for *, and nothing for a language there is not', () => {
    expect(languagesTaken('*', available, [], 'en')).toEqual(['en']);
    expect(languagesTaken('tlh', available, ['filter', 'lookup'], 'en')).toEqual([]);
  });
});

describe('countSpecs', () => {
  const counting = (countOf: string, status = "'200'") =>
    doc(`openapi: 3.1.0
paths:
  /xs:
    get: { operationId: list, parameters: [{ name: seen, in: query, schema: { type: string } }] }
  /xs/count:
    get: { operationId: count, responses: { ${status}: { $ref: '#/components/responses/Count' } } }
components:
  schemas: {}
  responses:
    Count: { description: a count, x-count-of: ${countOf} }`);

  it('reads what an answer counts: the list, its query parameters, the field', () => {
    const d = counting("{ operationId: list, parameters: { seen: 'false' }, field: n }");
    const [c] = countSpecs(d, new OpenApiSpec(d).operations);
    expect([c?.op.id, c?.status, c?.of.id, c?.parameters, c?.field]).toEqual(['count', '200', 'list', { seen: 'false' }, 'n']);
  });

  it.each([
    ['{ operationId: nothing, field: n }', "'200'", "x-count-of of GET /xs/count's 200: 'nothing' is no GET operation of the document"],
    ['{ operationId: list }', "'200'", "x-count-of of GET /xs/count's 200 must be { operationId, field, parameters? }"],
    [
      "{ operationId: list, field: n, parameters: { other: 'x' } }",
      "'200'",
      "x-count-of of GET /xs/count's 200: parameters must map query parameters of list to strings",
    ],
    ['{ operationId: list, field: n }', "'404'", "x-count-of of GET /xs/count's 404: only a 2xx answer counts"],
  ])('refuses x-count-of: %s on %s', (countOf, status, message) => {
    expect(() => new OpenApiSpec(counting(countOf, status))).toThrow(new SpecError(message));
  });
});
