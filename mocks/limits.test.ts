// @vitest-environment node
/**
 * The mock keeps its limits as constants (mocks/body.ts, mocks/profile.ts, mocks/db.ts); openapi.yaml
 * states them machine-readably. They must be the same numbers.
 */
import { describe, expect, it } from 'vitest';
import { MAX_AVATAR_BYTES, MAX_FORM_BYTES, MAX_JSON_BYTES } from './body.ts';
import { COLLECTIONS } from './db.ts';
import { OpenApiSpec } from './openapi/index.ts';
import { AVATAR_TYPES } from './profile.ts';
import { loadSpec } from './spec.node.ts';

const spec = new OpenApiSpec(loadSpec());
const media = spec.operations.flatMap((op) => Object.values(op.body?.content ?? {}).map((m) => ({ op: op.id, ...m })));

describe("the mock's limits are openapi.yaml's", () => {
  it('every JSON request body states x-max-body-bytes, and it is MAX_JSON_BYTES', () => {
    const json = media.filter((m) => m.media === 'application/json');
    expect(json.length).toBeGreaterThan(0);
    for (const m of json) expect(m.maxBodyBytes, m.op).toBe(MAX_JSON_BYTES);
  });

  it('every multipart request body states x-max-body-bytes, and it is MAX_FORM_BYTES', () => {
    const forms = media.filter((m) => m.media === 'multipart/form-data');
    expect(forms.length).toBeGreaterThan(0);
    for (const m of forms) expect(m.maxBodyBytes, m.op).toBe(MAX_FORM_BYTES);
  });

  it("the avatar's size and image types are MAX_AVATAR_BYTES and AVATAR_TYPES", () => {
    const forms = media.filter((m) => m.fileFields.includes('avatar'));
    expect(forms.length).toBeGreaterThan(0);
    for (const m of forms) {
      expect(m.maxFileBytes.avatar, m.op).toBe(MAX_AVATAR_BYTES);
      expect([...(m.fileTypes.avatar ?? [])].sort(), m.op).toEqual([...AVATAR_TYPES].sort());
    }
  });

  it('every collection of the mock is one of the document, with its x-max-records as the limit', () => {
    expect(spec.collections.map((c) => c.name).sort()).toEqual(Object.keys(COLLECTIONS).sort());
    for (const c of spec.collections) expect(c.maxRecords, c.name).toBe(COLLECTIONS[c.name]!.limit);
  });
});
