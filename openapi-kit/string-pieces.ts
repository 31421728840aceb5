/**
 * The pieces generated strings are made of, where fast-check's own would be slow or miss the edges:
 * any code point, web URLs, the fragments that trip up naive string handling, and long strings
 * kept symbolic so that a counterexample prints short.
 */
import fc from 'fast-check';

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

/** A few of NASTY_FRAGMENTS in a row, cut or padded to a code point length within [minLength, maxLength]. */
export const nastyString = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom(...NASTY_FRAGMENTS), { minLength: 1, maxLength: 8 })
    .map((parts) => clampCodePoints(parts.join(''), minLength, maxLength));

/** Cuts or pads (with 'x') a string to a code point length within [min, max]. */
export function clampCodePoints(s: string, min: number, max: number): string {
  let points = [...s];
  if (points.length > max) points = points.slice(0, max);
  while (points.length < min) points.push('x');
  return points.join('');
}
