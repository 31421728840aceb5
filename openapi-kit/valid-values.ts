/**
 * Values meant to satisfy a JSON Schema, leaning on the edges: exact length and range bounds,
 * unicode (emoji, RTL, combining marks, NUL), optional fields left out. ./arbitraries.ts adds the
 * values meant to break it.
 */
import fc from 'fast-check';

import type { JsonSchema } from './document.ts';
import { satisfying, schemaWords } from './satisfying.ts';
import { anyCodePoint, codePoints, nastyString, webUrl } from './string-pieces.ts';

/** Options for the walker. */
export interface SchemaArbitraryOptions {
  /** Resolves a `$ref` (e.g. `#/components/schemas/Id`) to its schema. */
  resolve(ref: string): JsonSchema;
  /** Length of the huge strings among the invalid variants (default 100 KB). */
  hugeLength?: number;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const asSchema = (v: unknown): JsonSchema => (isObject(v) ? v : {});
export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const;
export type JsonType = (typeof JSON_TYPES)[number];

/** Values valid against a schema; ./arbitraries.ts's SchemaArbitraries adds the invalid ones. */
export class ValidValues {
  private readonly patterns = new Map<string, fc.Arbitrary<string>>();
  private readonly validCache = new WeakMap<object, Map<number, fc.Arbitrary<unknown>>>();

  private readonly options: SchemaArbitraryOptions;

  constructor(options: SchemaArbitraryOptions) {
    this.options = options;
  }

  /** Follows $ref and merges allOf into one schema (properties, required and closedness combined). */
  normalize(input: JsonSchema): JsonSchema {
    let schema = input;
    for (let guard = 0; typeof schema.$ref === 'string'; guard++) {
      if (guard > 20) throw new Error(`$ref loop at ${String(schema.$ref)}`);
      const { $ref, ...rest } = schema;
      schema = { ...this.options.resolve($ref as string), ...rest };
    }
    if (!Array.isArray(schema.allOf)) return schema;
    const parts = (schema.allOf as unknown[]).map((p) => this.normalize(asSchema(p)));
    const { allOf: _allOf, unevaluatedProperties, ...own } = schema;
    const merged: Record<string, unknown> = {};
    const properties: Record<string, unknown> = {};
    const required = new Set<string>();
    let closed = unevaluatedProperties === false;
    for (const part of [...parts, own]) {
      for (const [k, v] of Object.entries(part)) {
        if (k === 'properties' && isObject(v)) Object.assign(properties, v);
        else if (k === 'required' && Array.isArray(v)) {
          for (const r of v) required.add(String(r));
        } else if (k === 'additionalProperties' || k === 'unevaluatedProperties') closed ||= v === false;
        else merged[k] = v;
      }
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.size > 0) merged.required = [...required];
    if (closed) merged.additionalProperties = false;
    if (merged.type === undefined && merged.properties) merged.type = 'object';
    return merged;
  }

  protected types(schema: JsonSchema): JsonType[] {
    const t = schema.type;
    const known = (x: unknown): x is JsonType => (JSON_TYPES as readonly unknown[]).includes(x);
    if (typeof t === 'string' || Array.isArray(t)) return ([t].flat() as unknown[]).filter(known);
    if (schema.properties) return ['object'];
    if (schema.items) return ['array'];
    return [];
  }

  /** Values valid against a schema; built once per schema object and depth (arbitraries are immutable). */
  valid(input: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
    let byDepth = this.validCache.get(input);
    let arb = byDepth?.get(depth);
    if (arb) return arb;
    arb = this.buildValid(input, depth);
    if (!byDepth) {
      byDepth = new Map();
      this.validCache.set(input, byDepth);
    }
    byDepth.set(depth, arb);
    return arb;
  }

  private buildValid(input: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    const schema = this.normalize(input);
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    const types = this.types(schema);
    if (types.length === 0) return depth > 2 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
    return fc.oneof(...types.map((t) => this.validOfType(t, schema, depth)));
  }

  private validOfType(type: JsonType, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
      case 'number':
        return this.validNumber(schema, type === 'integer');
      case 'string':
        return this.validString(schema);
      case 'array':
        return this.validArray(schema, depth);
      case 'object':
        return this.validObject(schema, depth);
    }
  }

  private validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
    const min = num(schema.minimum);
    const max = num(schema.maximum);
    const edges = [min, max].filter((x): x is number => x !== undefined);
    const inner = integer
      ? fc.integer({
          min: Math.max(min ?? Number.MIN_SAFE_INTEGER, Number.MIN_SAFE_INTEGER),
          max: Math.min(max ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
        })
      : fc.double({ noNaN: true, noDefaultInfinity: true, ...(min === undefined ? {} : { min }), ...(max === undefined ? {} : { max }) });
    return edges.length === 0 ? inner : fc.oneof({ arbitrary: inner, weight: 4 }, { arbitrary: fc.constantFrom(...edges), weight: 1 });
  }

  /** Strings a pattern matches: built once per pattern (fast-check parses the pattern and builds its arbitrary each time). */
  private matching(pattern: string): fc.Arbitrary<string> {
    let arb = this.patterns.get(pattern);
    if (!arb) {
      arb = fc.stringMatching(new RegExp(pattern));
      this.patterns.set(pattern, arb);
    }
    return arb;
  }

  protected validString(schema: JsonSchema): fc.Arbitrary<string> {
    const min = num(schema.minLength) ?? 0;
    const max = num(schema.maxLength);
    const fits = (s: string) => {
      const n = codePoints(s);
      return n >= min && (max === undefined || n <= max);
    };
    if (typeof schema.pattern === 'string') {
      return satisfying(this.matching(schema.pattern), fits, `the string schema ${schemaWords(schema)}`);
    }
    switch (schema.format) {
      case 'uuid':
        return satisfying(fc.uuid(), fits, `the string schema ${schemaWords(schema)}`);
      case 'date':
        return satisfying(
          fc
            .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          fits,
          `the string schema ${schemaWords(schema)}`,
        );
      case 'ipv4':
        return satisfying(fc.ipV4(), fits, `the string schema ${schemaWords(schema)}`);
      case 'ipv6':
        return satisfying(fc.ipV6(), fits, `the string schema ${schemaWords(schema)}`);
      case 'hostname':
        return satisfying(fc.domain(), fits, `the string schema ${schemaWords(schema)}`);
      case 'email':
        return satisfying(fc.emailAddress(), fits, `the string schema ${schemaWords(schema)}`);
      case 'uri':
        return satisfying(webUrl({ query: true }), fits, `the string schema ${schemaWords(schema)}`);
      case 'uri-reference':
        return satisfying(
          fc.oneof(
            webUrl(),
            fc.array(fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/), { minLength: 1, maxLength: 4 }).map((segs) => `/${segs.join('/')}`),
          ),
          fits,
          `the string schema ${schemaWords(schema)}`,
        );
      case 'date-time':
        return satisfying(
          fc
            .date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true })
            .chain((d) =>
              fc.constantFrom(d.toISOString(), d.toISOString().replace(/\.\d{3}Z$/, 'Z'), d.toISOString().replace(/\.\d{3}Z$/, '+02:00')),
            ),
          fits,
          `the string schema ${schemaWords(schema)}`,
        );
    }
    const upper = max ?? Math.max(min, 40);
    const edges: Array<fc.Arbitrary<string>> = [fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: min })];
    if (max !== undefined) edges.push(fc.string({ unit: 'grapheme-ascii', minLength: max, maxLength: max }));
    return fc.oneof(
      { arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: Math.min(upper, min + 30) }), weight: 4 },
      { arbitrary: fc.string({ unit: anyCodePoint, minLength: min, maxLength: Math.min(upper, min + 30) }), weight: 2 },
      { arbitrary: nastyString(min, upper), weight: 3 },
      { arbitrary: fc.oneof(...edges), weight: 2 },
    );
  }

  private validArray(schema: JsonSchema, depth: number): fc.Arbitrary<unknown[]> {
    const minLength = num(schema.minItems) ?? 0;
    const maxLength = num(schema.maxItems) ?? minLength + 5;
    const item = this.valid(asSchema(schema.items), depth + 1);
    return fc.oneof(
      { arbitrary: fc.array(item, { minLength, maxLength }), weight: 4 },
      { arbitrary: fc.array(item, { minLength: maxLength, maxLength }), weight: 1 },
    );
  }

  protected validObject(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, sub] of Object.entries(properties)) model[key] = this.valid(asSchema(sub), depth + 1);
    let arb: fc.Arbitrary<Record<string, unknown>> = fc.record(model, { requiredKeys: required });
    const extra = schema.additionalProperties;
    if (extra !== false && schema.unevaluatedProperties !== false && depth < 2) {
      // Open objects may carry fields of their own.
      const value = isObject(extra) ? this.valid(extra, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      const names = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(k in properties));
      arb = fc.tuple(arb, fc.dictionary(names, value, { maxKeys: 2 })).map(([o, more]) => ({ ...more, ...o }));
    }
    const minProperties = num(schema.minProperties) ?? 0;
    return minProperties > 0
      ? satisfying(arb, (o) => Object.keys(o).length >= minProperties, `the object schema ${schemaWords(schema)}`)
      : arb;
  }
}
