// @vitest-environment node
/**
 * The hand-made units of generated strings: what they stand in for (fast-check's full-Unicode unit
 * and its webUrl) they must still cover, and never make a value their schema refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyCodePoint, SchemaValidator, webUrl } from './index.ts';

describe('anyCodePoint', () => {
  it('is one code point, never a lone surrogate, from U+0000 up to U+10FFFF', () => {
    const points = fc.sample(anyCodePoint, { numRuns: 5000, seed: 7 }).map((c) => {
      expect([...c]).toHaveLength(1);
      return c.codePointAt(0)!;
    });
    expect(points.every((p) => p < 0xd800 || p > 0xdfff)).toBe(true);
    // Both ends, the characters after the surrogates and past the BMP all come up.
    expect(points).toContain(0);
    expect(points).toContain(0x10ffff);
    expect(points.some((p) => p >= 0xe000 && p <= 0xffff)).toBe(true);
    expect(points.some((p) => p > 0xffff && p < 0x10ffff)).toBe(true);
  });
});

describe('webUrl', () => {
  const validator = new SchemaValidator({ openapi: '3.1.0', paths: {}, components: { schemas: {} } });
  it('makes absolute http(s) URLs that format uri accepts, with and without a query and a fragment', () => {
    const urls = fc.sample(webUrl({ query: true }), { numRuns: 300, seed: 3 });
    for (const url of urls) {
      expect(['http:', 'https:']).toContain(new URL(url).protocol);
      expect(validator.against('uri', { type: 'string', format: 'uri' }, url), url).toEqual([]);
    }
    expect(urls.some((u) => u.includes('?'))).toBe(true);
    expect(urls.some((u) => u.includes('#'))).toBe(true);
    expect(urls.some((u) => !u.includes('?') && !u.includes('#'))).toBe(true);
    expect(fc.sample(webUrl(), { numRuns: 100, seed: 3 }).some((u) => u.includes('?') || u.includes('#'))).toBe(false);
  });
});
