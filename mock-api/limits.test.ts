// @vitest-environment node
/**
 * The mock reads its limits from openapi.yaml: body sizes (`x-max-body-bytes`), the avatar's
 * types and size, the collections' `x-max-records`. The few numbers it also keeps as constants
 * (for tests, or where the document is not at hand) must be the document's.
 */
import { describe, expect, it } from 'vitest';
import { avatarRules, imageName, SIGNATURES } from './avatar.ts';
import { MAX_AVATAR_BYTES } from './body.ts';
import { COLLECTIONS } from './db.ts';
import { MAX_MESSAGE, REASONS } from './errors.ts';
import { rateLimitOf } from './rate.ts';
import { OpenApiSpec, resolveRef } from '../openapi-kit/index.ts';
import { loadSpec } from '../openapi-kit/node.ts';

const spec = new OpenApiSpec(loadSpec());
const media = spec.operations.flatMap((op) => Object.values(op.body?.content ?? {}).map((m) => ({ op: op.id, ...m })));

describe("the mock's limits are openapi.yaml's", () => {
  it('every request body states x-max-body-bytes, which the mock reads', () => {
    expect(media.length).toBeGreaterThan(0);
    for (const m of media) expect(m.maxBodyBytes, `${m.op} ${m.media}`).toBeGreaterThan(0);
  });

  it('every avatar field states its types and size; MAX_AVATAR_BYTES is that size', () => {
    const forms = media.filter((m) => m.fileFields.includes('avatar'));
    expect(forms.map((m) => m.op).sort()).toEqual(['createProfile', 'updateProfile']);
    for (const m of forms) {
      expect(m.maxFileBytes.avatar, m.op).toBe(MAX_AVATAR_BYTES);
      expect(m.fileTypes.avatar, m.op).toEqual(avatarRules(spec).types);
    }
  });

  it('every avatar type the document accepts can be recognised by its first bytes', () => {
    for (const type of avatarRules(spec).types) {
      expect(SIGNATURES[type], type).toBeDefined();
      expect(imageName(type)).not.toBe('');
    }
  });

  it("the anonymous creates of push subscriptions are limited as createSubscription's x-rate-limit says, read from it", () => {
    // A bucket of `requests` refilled one every `seconds`: never more than `requests` within `seconds`.
    expect(rateLimitOf(spec, 'createSubscription')).toEqual({ burst: 10, intervalMs: 60_000 });
    const without = structuredClone(spec.doc);
    const create = without.paths['/subscription']?.post as Record<string, unknown>;
    delete create['x-rate-limit'];
    expect(() => rateLimitOf(new OpenApiSpec(without), 'createSubscription')).toThrow(
      'createSubscription states no x-rate-limit: { requests, seconds } (whole numbers from 1)',
    );
  });

  it('every collection of the document is one of the mock, with its x-max-records as COLLECTIONS.limit', () => {
    expect(spec.collections.map((c) => c.name).sort()).toEqual(Object.keys(COLLECTIONS).sort());
    for (const c of spec.collections) expect(c.maxRecords, c.name).toBe(COLLECTIONS[c.name]!.limit);
  });

  it("an error message is cut at Error.message's maxLength", () => {
    const error = resolveRef(spec.doc, '#/components/schemas/Error');
    expect((error.properties as Record<string, { maxLength?: number }>).message?.maxLength).toBe(MAX_MESSAGE);
  });

  it("each status's reason phrase is the one the document's examples give", () => {
    expect(spec.errors?.phrases.size).toBeGreaterThan(0);
    for (const [status, phrases] of spec.errors!.phrases) expect([...phrases], String(status)).toEqual([REASONS[status]]);
  });
});
