// @vitest-environment node
/**
 * Reading the REST collections of an OpenAPI document, with what its vendor extensions say of them,
 * and the order `x-sort` means.
 */
import { describe, expect, it } from 'vitest';
import { collectionSpecAt, collectionSpecs, compareSortValues, operationSpecs, SpecError } from './index.ts';
import { DOC, doc, ops } from './sample-document.test-support.ts';

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

  it('finds a collection under a record at its path: its id is the last parameter of its item path', () => {
    const nested = doc(`openapi: 3.1.0
paths:
  /owners/{ownerId}/pets:
    get: { operationId: listPets }
    post: { operationId: createPet, requestBody: { content: { application/json: {} } }, responses: { '201': {} } }
  /owners/{ownerId}/pets/{petId}:
    get: { operationId: getPet }
    delete: { operationId: deletePet, responses: { '204': {} } }
components: { schemas: {} }`);
    // Not among the top-level collections, whose paths hold no parameter.
    expect(collectionSpecs(nested, operationSpecs(nested))).toEqual([]);
    const pets = collectionSpecAt(nested, operationSpecs(nested), '/owners/{ownerId}/pets');
    expect(pets).toMatchObject({ itemPath: '/owners/{ownerId}/pets/{petId}', idParam: 'petId', removedStatuses: [204] });
    expect([pets?.list.id, pets?.create.id, pets?.read.id, pets?.remove?.id]).toEqual(['listPets', 'createPet', 'getPet', 'deletePet']);
    expect(collectionSpecAt(nested, operationSpecs(nested), '/owners/{ownerId}/pets/{petId}')).toBeNull();
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
