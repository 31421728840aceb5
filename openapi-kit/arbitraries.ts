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
export type { JsonSchema };

/**
 * One Unicode scalar value (any code point but the surrogates): the unit of the strings that reach
 * past ASCII. fast-check's own full-Unicode unit ('binary') builds a reverse map of all 1.1 million
 * code points the first time a process uses it (about 1.5 s of a 7 s verify run here), to shrink
 * values it did not make; these strings are only ever generated, never shrunk from outside.
 */
export const anyCodePoint: fc.Arbitrary<string> = fc
  .integer({ min: 0, max: 0x10ffff - 0x800 })
  .map((n) => String.fromCodePoint(n < 0xd800 ? n : n + 0x800));

/** A path segment, query or fragment piece of a URL: unreserved and sub-delimiter characters, and %-escapes. */
const urlPiece = fc.stringMatching(/^(?:[A-Za-z0-9._~!$&'()*+,;=:@-]|%[0-9A-F]{2}){1,12}$/);

/**
 * An absolute http(s) URL with a domain, a path and maybe a query and a fragment. fast-check's
 * webUrl would do, but its path characters are made with the full-Unicode unit (see anyCodePoint).
 */
export const webUrl = (options: { query?: boolean } = {}): fc.Arbitrary<string> =>
  fc
    .record({
      scheme: fc.constantFrom('http', 'https'),
      host: fc.domain(),
      path: fc.array(urlPiece, { maxLength: 4 }),
      query: options.query ? fc.option(fc.array(fc.tuple(urlPiece, urlPiece), { minLength: 1, maxLength: 3 })) : fc.constant(null),
      fragment: options.query ? fc.option(urlPiece) : fc.constant(null),
    })
    .map(
      ({ scheme, host, path, query, fragment }) =>
        `${scheme}://${host}/${path.join('/')}${query ? `?${query.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}${fragment === null ? '' : `#${fragment}`}`,
    );

/** A generated value that should break its schema, and how. */
export interface Variant {
  note: string;
  value: unknown;
}

/**
 * A long string kept symbolic, so that counterexamples print as `"x".repeat(100000)` rather than
 * the string itself. JSON.stringify and String() give the full string.
 */
export class Repeated {
  readonly unit: string;
  readonly count: number;

  constructor(unit: string, count: number) {
    this.unit = unit;
    this.count = count;
  }
  toString(): string {
    return this.unit.repeat(this.count);
  }
  toJSON(): string {
    return this.toString();
  }
  [fc.toStringMethod](): string {
    return `${JSON.stringify(this.unit)}.repeat(${this.count})`;
  }
}

/** A string or a symbolic long string. */
export type Text = string | Repeated;
export const textOf = (t: Text): string => (typeof t === 'string' ? t : t.toString());

/** Code points, as JSON Schema (and ajv) count a string's length. */
export const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/** Fragments that trip up naive string handling; each is one or a few code points. */
export const NASTY_FRAGMENTS: readonly string[] = [
  '😀', // astral emoji (a surrogate pair in UTF-16)
  '👩‍👩‍👧‍👦', // ZWJ sequence: one grapheme, seven code points
  '🇩🇪', // regional indicators
  'שלום', // RTL (Hebrew)
  'مرحبا', // RTL (Arabic)
  '\u202E', // RIGHT-TO-LEFT OVERRIDE
  '\u200F', // RIGHT-TO-LEFT MARK
  'e\u0301', // combining acute accent
  'Z\u0351\u0352\u0353\u0354', // a stack of combining marks
  '\u0000', // NUL
  '\uFEFF', // BOM / zero-width no-break space
  '\u200B', // zero-width space
  '\u2028', // LINE SEPARATOR (breaks naive JS string embedding)
  '\r\n',
  '\t',
  '"',
  '\\',
  "'",
  '<script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder is one of the hostile strings, on purpose.
  '${x}',
  '%00',
  '%s',
  '../',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'İ', // changes length when lower-cased
  'ß', // changes length when upper-cased
  'ﬀ',
  '\u{10FFFF}', // last code point
];

const nastyString = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom(...NASTY_FRAGMENTS), { minLength: 1, maxLength: 8 })
    .map((parts) => clampCodePoints(parts.join(''), minLength, maxLength));

/** Cuts or pads (with 'x') a string to a code point length within [min, max]. */
function clampCodePoints(s: string, min: number, max: number): string {
  let points = [...s];
  if (points.length > max) points = points.slice(0, max);
  while (points.length < min) points.push('x');
  return points.join('');
}

/**
 * A generator that cannot produce what a schema asks (a pattern and a length no string meets, a
 * value the validator refuses whatever is drawn) gives up instead of drawing for ever: `what` says
 * which value it was after.
 */
export class GeneratorGaveUp extends Error {
  readonly what: string;

  constructor(what: string, tries: number) {
    super(`no value for ${what} in ${tries} tries`);
    this.what = what;
  }
}

/** Draws in a row that may miss before a `satisfying` filter gives up. */
export const MAX_MISSES = 500;

/**
 * `arb.filter(predicate)` that throws GeneratorGaveUp after MAX_MISSES misses in a row, where
 * fast-check's own filter would loop without end (and block the event loop with it).
 */
export function satisfying<T, U extends T = T>(
  arb: fc.Arbitrary<T>,
  predicate: ((value: T) => value is U) | ((value: T) => boolean),
  what: string,
): fc.Arbitrary<U> {
  let misses = 0;
  return arb.filter((value): value is U => {
    if (predicate(value)) {
      misses = 0;
      return true;
    }
    if (++misses >= MAX_MISSES) {
      misses = 0;
      throw new GeneratorGaveUp(what, MAX_MISSES);
    }
    return false;
  });
}

/** A schema in a few words, for a GeneratorGaveUp. */
const schemaWords = (schema: JsonSchema): string => {
  const text = JSON.stringify(schema);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/** Options for the walker. */
export interface SchemaArbitraryOptions {
  /** Resolves a `$ref` (e.g. `#/components/schemas/Id`) to its schema. */
  resolve(ref: string): JsonSchema;
  /** Length of the huge strings among the invalid variants (default 100 KB). */
  hugeLength?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asSchema = (v: unknown): JsonSchema => (isObject(v) ? v : {});
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const;
type JsonType = (typeof JSON_TYPES)[number];

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

export class SchemaArbitraries {
  private readonly hugeLength: number;
  private readonly patterns = new Map<string, fc.Arbitrary<string>>();
  private readonly validCache = new WeakMap<object, Map<number, fc.Arbitrary<unknown>>>();

  private readonly options: SchemaArbitraryOptions;

  constructor(options: SchemaArbitraryOptions) {
    this.options = options;
    this.hugeLength = options.hugeLength ?? 100 * 1024;
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

  private types(schema: JsonSchema): JsonType[] {
    const t = schema.type;
    const known = (x: unknown): x is JsonType => (JSON_TYPES as readonly unknown[]).includes(x);
    if (typeof t === 'string' || Array.isArray(t)) return ([t].flat() as unknown[]).filter(known);
    if (schema.properties) return ['object'];
    if (schema.items) return ['array'];
    return [];
  }

  // ---------------------------------------------------------------------------------------------
  // Valid values
  // ---------------------------------------------------------------------------------------------

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

  private validString(schema: JsonSchema): fc.Arbitrary<string> {
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

  private validObject(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
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

  // ---------------------------------------------------------------------------------------------
  // Invalid variants
  // ---------------------------------------------------------------------------------------------

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
