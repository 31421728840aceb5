/**
 * fast-check arbitraries derived from JSON Schemas (the schemas of openapi.yaml), so that generated
 * input follows the contract instead of a hand-written copy of it.
 *
 * - `valid(schema)` generates values meant to satisfy the schema, leaning on the edges: exact
 *   length and range bounds, unicode (emoji, RTL, combining marks, NUL), optional fields left out.
 * - `invalid(schema)` generates `{ note, value }` variants meant to break it: wrong types, null
 *   where not allowed, missing required fields, unknown fields, lengths min-1 / max+1, 100 KB
 *   strings, numbers out of range, pattern, format and enum breakers, each labelled by `note`.
 *
 * Whether a value really is valid is decided by ajv over the same schema when a request is sent
 * (see verify's request-judge.ts): the generator only aims, the validator judges.
 *
 * Supported keywords: $ref (into the document), allOf (merged), type (also as a list), enum,
 * const, properties, required, additionalProperties, unevaluatedProperties, minProperties, items,
 * minItems, maxItems, minLength, maxLength, pattern, format (email, uri, uri-reference, date-time),
 * minimum, maximum. Anything else is generated as if the keyword were absent.
 */
import fc from 'fast-check';

import type { JsonSchema } from './document.ts';
import { anyCodePoint, clampCodePoints, NASTY_FRAGMENTS, Repeated } from './string-pieces.ts';
import { asSchema, isObject, num, ValidValues, type JsonType, type SchemaArbitraryOptions } from './valid-values.ts';
export type { JsonSchema };

/** A generated value that should break its schema, and how. */
export interface Variant {
  note: string;
  value: unknown;
}

/** Sets a key as an own data property, even `__proto__`, on a copy of an object. */
export function withKey(obj: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(obj)) Object.defineProperty(copy, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function withoutKey(obj: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of Object.keys(obj))
    if (k !== key) Object.defineProperty(copy, k, { value: obj[k], enumerable: true, writable: true, configurable: true });
  return copy;
}

/** Values valid against a schema (./valid-values.ts), and variants meant to break it. */
export class SchemaArbitraries extends ValidValues {
  private readonly hugeLength: number;

  constructor(options: SchemaArbitraryOptions) {
    super(options);
    this.hugeLength = options.hugeLength ?? 100 * 1024;
  }

  invalid(input: JsonSchema, depth = 0): fc.Arbitrary<Variant> {
    const schema = this.normalize(input);
    const types = this.types(schema);
    const variants: Array<fc.Arbitrary<Variant>> = [];
    const wrongType = this.wrongType(types);
    if (wrongType) variants.push(wrongType);
    if (Array.isArray(schema.enum)) variants.push(this.enumBreaker(schema.enum as unknown[]));
    if (types.includes('string')) variants.push(...this.stringBreakers(schema));
    if (types.includes('number') || types.includes('integer'))
      variants.push(...this.numberBreakers(schema, types.includes('integer') && !types.includes('number')));
    if (types.includes('array')) variants.push(...this.arrayBreakers(schema, depth));
    if (types.includes('object')) variants.push(...this.objectBreakers(schema, depth));
    if (variants.length === 0) throw new Error(`No way to break the schema ${JSON.stringify(schema)}: give it a type`);
    return fc.oneof(...variants);
  }

  /** A value of every JSON type the schema does not allow (`null` among them when it is not allowed). */
  private wrongType(types: JsonType[]): fc.Arbitrary<Variant> | null {
    if (types.length === 0) return null;
    const samples: Array<[JsonType, unknown]> = [
      ['null', null],
      ['boolean', true],
      ['boolean', false],
      ['number', 42],
      ['number', -0.5],
      ['string', ''],
      ['string', '42'],
      ['string', 'true'],
      ['array', []],
      ['array', ['x']],
      ['object', {}],
      ['object', { nested: { deeper: [1, 'two', null] } }],
    ];
    const allowed = ([t, v]: [JsonType, unknown]) =>
      t === 'number' ? types.includes('number') || (types.includes('integer') && Number.isInteger(v)) : types.includes(t);
    const wrong = samples.filter((s) => !allowed(s));
    if (wrong.length === 0) return null;
    return fc.constantFrom(...wrong).map(([t, value]) => ({ note: `wrong type (${t} where ${types.join('|')})`, value }));
  }

  private enumBreaker(values: unknown[]): fc.Arbitrary<Variant> {
    const strings = values.filter((v): v is string => typeof v === 'string');
    const near = strings.flatMap((s) => [s.toUpperCase(), ` ${s}`, `${s}\u0000`, s.replace(/e/g, 'е') /* Cyrillic е */, s.slice(1)]);
    const candidates = [...near, '', 'unknown', '0'].filter((c) => !values.includes(c));
    return fc.constantFrom(...candidates).map((value) => ({ note: `not one of the enum ${JSON.stringify(values)}`, value }));
  }

  private stringBreakers(schema: JsonSchema): Array<fc.Arbitrary<Variant>> {
    const min = num(schema.minLength);
    const max = num(schema.maxLength);
    const out: Array<fc.Arbitrary<Variant>> = [];
    const base = this.validString(schema);
    if (min !== undefined && min > 0) {
      out.push(base.map((s) => ({ note: `length ${min - 1} (minLength ${min})`, value: [...s].slice(0, min - 1).join('') })));
    }
    if (max !== undefined) {
      out.push(
        fc.tuple(base, fc.constantFrom('x', '😀', 'e\u0301', '\u0000', 'ש')).map(([s, pad]) => ({
          note: `length ${max + 1} (maxLength ${max})`,
          value: clampCodePoints(s + pad.repeat(max + 1), max + 1, max + 1),
        })),
      );
    }
    out.push(
      fc.constantFrom('x', '😀', 'ש\u202E', 'e\u0301').map((unit) => ({
        note: `huge string (~${this.hugeLength} code units)`,
        value: new Repeated(unit, Math.ceil(this.hugeLength / unit.length)),
      })),
    );
    if (typeof schema.pattern === 'string') {
      const re = new RegExp(schema.pattern, 'u');
      const breakers = fc.oneof(
        fc.tuple(base, fc.constantFrom(...NASTY_FRAGMENTS, ',', ' ', '!', '/', 'a', 'Z', '0', '-')).map(([s, c]) => `${s}${c}`),
        fc.tuple(base, fc.constantFrom(...NASTY_FRAGMENTS, ',', ' ')).map(([s, c]) => `${c}${s}`),
        base.map((s) => (s === s.toLowerCase() ? s.toUpperCase() : s.toLowerCase())),
        fc.tuple(base, base, base).map((parts) => parts.join('')),
        fc.string({ unit: anyCodePoint, maxLength: 30 }),
        base.map((s) => [...s].slice(0, 1).join('')),
        fc.constant(''),
      );
      out.push(breakers.filter((s) => !re.test(s)).map((value) => ({ note: `does not match ${schema.pattern}`, value })));
    }
    const formats: Record<string, string[]> = {
      email: [
        'not-an-email',
        'a@',
        '@example.org',
        'a b@example.org',
        'ada@example..org',
        'ada@@example.org',
        `${'x'.repeat(250)}@e.org`,
        'ünï@例え.jp',
        'ada@example.org\n',
      ],
      uri: [
        'no-scheme',
        'http://',
        '://example.org',
        'http://exa mple.org',
        '/relative/path',
        'https://example.org/%zz',
        'https://[::1',
        '\u0000',
      ],
      'uri-reference': ['http://exa mple.org', '\\\\host\\share', 'https://[::1', '%zz'],
      'date-time': [
        '2026-13-01T00:00:00Z',
        '2026-02-30T10:00:00Z',
        '2026-11-20',
        '2026-11-20T10:00:00',
        'yesterday',
        '2026-11-20T25:61:00Z',
        '+275760-09-13T00:00:00Z',
        '',
      ],
    };
    const badFormats = typeof schema.format === 'string' ? formats[schema.format] : undefined;
    if (badFormats) out.push(fc.constantFrom(...badFormats).map((value) => ({ note: `not a valid ${String(schema.format)}`, value })));
    return out;
  }

  private numberBreakers(schema: JsonSchema, integer: boolean): Array<fc.Arbitrary<Variant>> {
    const min = num(schema.minimum);
    const max = num(schema.maximum);
    const out: Array<fc.Arbitrary<Variant>> = [];
    if (min !== undefined) {
      out.push(
        fc
          .constantFrom(min - 1, min - 0.5, min - 1e6, -Number.MAX_VALUE, Number.MIN_SAFE_INTEGER - 2)
          .filter((v) => v < min)
          .map((value) => ({ note: `below minimum ${min}`, value })),
      );
    }
    if (max !== undefined) {
      out.push(
        fc
          .constantFrom(max + 1, max + 0.5, max * 10 + 1, Number.MAX_VALUE, 1e308)
          .filter((v) => v > max)
          .map((value) => ({ note: `above maximum ${max}`, value })),
      );
    }
    if (integer) out.push(fc.constantFrom(0.5, 1.000001, -2.5).map((value) => ({ note: 'not an integer', value })));
    return out;
  }

  private arrayBreakers(schema: JsonSchema, depth: number): Array<fc.Arbitrary<Variant>> {
    const minItems = num(schema.minItems);
    const maxItems = num(schema.maxItems);
    const itemSchema = asSchema(schema.items);
    const item = this.valid(itemSchema, depth + 1);
    const out: Array<fc.Arbitrary<Variant>> = [];
    if (maxItems !== undefined) {
      out.push(
        fc
          .array(item, { minLength: maxItems + 1, maxLength: maxItems + 3 })
          .map((value) => ({ note: `more than maxItems ${maxItems}`, value })),
      );
    }
    if (minItems !== undefined && minItems > 0) {
      out.push(
        fc
          .array(item, { minLength: minItems - 1, maxLength: minItems - 1 })
          .map((value) => ({ note: `fewer than minItems ${minItems}`, value })),
      );
    }
    if (depth < 3) {
      out.push(
        fc
          .tuple(fc.array(item, { maxLength: Math.max(0, (maxItems ?? 3) - 1) }), this.invalid(itemSchema, depth + 1), fc.nat())
          .map(([items, bad, at]) => {
            const value = [...items];
            value.splice(at % (items.length + 1), 0, bad.value);
            return { note: `an item: ${bad.note}`, value };
          }),
      );
    }
    return out;
  }

  private objectBreakers(schema: JsonSchema, depth: number): Array<fc.Arbitrary<Variant>> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
    const base = this.validObject(schema, depth);
    const out: Array<fc.Arbitrary<Variant>> = [];
    if (required.length > 0) {
      out.push(
        fc.tuple(base, fc.constantFrom(...required)).map(([o, key]) => ({ note: `missing required '${key}'`, value: withoutKey(o, key) })),
      );
    }
    if (schema.additionalProperties === false) {
      const names = fc.oneof(
        fc.constantFrom('extra', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'ID', 'id ', '', '\u0000', '😀'),
        fc.string({ minLength: 1, maxLength: 10 }),
      );
      out.push(
        fc
          .tuple(
            base,
            names.filter((k) => !Object.hasOwn(properties, k)),
            fc.jsonValue({ maxDepth: 1 }),
          )
          .map(([o, key, v]) => ({ note: `unknown field '${key}'`, value: withKey(o, key, v) })),
      );
    }
    const minProperties = num(schema.minProperties);
    if (minProperties !== undefined && minProperties > 0)
      out.push(fc.constant({ note: `fewer than minProperties ${minProperties}`, value: {} }));
    const keys = Object.keys(properties);
    if (keys.length > 0 && depth < 3) {
      out.push(
        fc
          .constantFrom(...keys)
          .chain((key) =>
            fc
              .tuple(base, this.invalid(asSchema(properties[key]), depth + 1))
              .map(([o, bad]) => ({ note: `.${key}: ${bad.note}`, value: withKey(o, key, bad.value) })),
          ),
      );
    }
    return out;
  }
}
