/**
 * Requests generated from openapi.yaml, one arbitrary per operation: path ids (valid, existing and
 * hostile), query parameters (valid, invalid, unknown, repeated), bodies (valid and invalid values
 * of the operation's own request schemas, malformed JSON, wrong content types, multipart with
 * garbage or odd files, oversized bodies). Also: how to send one with plain fetch, what the
 * contract says about it (valid, invalid or unspecified), and the properties every answer must have.
 *
 * Two channels:
 * - `proxy`: `prism proxy openapi.yaml <server>/api --errors` in front of the Node mock.
 * - `direct`: the Node mock itself, its answers checked with the ajv validator of support/openapi.ts.
 *   A share of the requests goes this way to reach the mock's own defences, which Prism shields;
 *   so does everything Prism (5.16) cannot carry (see mustGoDirect):
 *   - binary bodies: the proxy re-encodes them as UTF-8;
 *   - a body that is not JSON under a JSON content type: Prism never answers it;
 *   - a path segment with a malformed %-escape, a malformed multipart body, a multipart field name
 *     with `;` or `=`, JSON nested thousands deep: each one kills the Prism process;
 *   - multipart values with `%`: Prism %-decodes them before validating;
 *   - chunked bodies: Prism forwards Transfer-Encoding: chunked next to its own Content-Length,
 *     which Node's HTTP parser refuses.
 */
import fc from 'fast-check';
import {
  collectionSpecs,
  decodeParam,
  follow,
  isRecord,
  operationSpecs,
  resolveRef,
  repeats,
  SchemaValidator,
  type MediaSpec,
  type OpenApiDocument,
  type OperationSpec,
  type ParamSpec,
} from '../openapi-kit/index.ts';
import { makePng } from '../openapi-kit/node.ts';
import { mediaTypeOf, PRISM_ERROR_TYPE, type Answer, type Contract } from '../openapi-kit/node.ts';
import {
  anyCodePoint,
  NASTY_FRAGMENTS,
  Repeated,
  SchemaArbitraries,
  textOf,
  withKey,
  type JsonSchema,
  type Text,
} from '../openapi-kit/index.ts';

// The operations are read by the shared reader (openapi-kit).
export { operationSpecs, resolveRef, type MediaSpec, type OperationSpec, type ParamSpec } from '../openapi-kit/index.ts';

// -------------------------------------------------------------------------------------------------
// The generated values
// -------------------------------------------------------------------------------------------------

export type Channel = 'proxy' | 'direct';
/** A path parameter: the id of a record that exists after the setup, or a literal (sent %-encoded or as is). */
export type PathValue = { kind: 'existing' } | { kind: 'literal'; value: Text; encode: boolean };
export type Query = { kind: 'params'; entries: Array<[string, Text]> } | { kind: 'raw'; text: string };
/** `png-big`: a PNG signature padded with zeros to `bytes`, for the size limits. */
export type FileContent = 'png' | 'jpeg' | 'webp' | 'svg' | 'garbage' | 'empty' | 'png-big';
export interface FilePart {
  file: FileContent;
  type: string;
  filename: string;
  /** The size of a `png-big` file. */
  bytes?: number;
}
export type FormField = [name: string, value: Text | FilePart];
export type Body =
  | { kind: 'none' }
  | { kind: 'json'; contentType: string; value: unknown; note: string; padding?: number; idFromPath?: boolean }
  | { kind: 'text'; contentType: string | null; text: Text; note: string }
  | { kind: 'bytes'; contentType: string | null; bytes: number[]; note: string }
  | { kind: 'form'; fields: FormField[]; note: string };

export interface GeneratedRequest {
  op: string;
  via: Channel;
  method: string;
  path: Record<string, PathValue>;
  query: Query;
  body: Body;
  /** Sent as a stream (chunked, no Content-Length), so that only counting the bytes can stop it. */
  chunked?: boolean;
}

/** State set up (straight on the mock, after a reset) before a batch is sent. */
export type Setup = 'seed' | 'empty' | 'extra' | 'no-own-record' | 'own-record' | 'own-record-with-file' | 'no-build' | 'build';
export interface Batch {
  setup: Setup;
  requests: GeneratedRequest[];
}

const isFile = (v: Text | FilePart): v is FilePart => typeof v === 'object' && 'file' in v;
const BINARY_FILES: ReadonlySet<FileContent> = new Set(['png', 'jpeg', 'webp', 'png-big']);
/** The media type each generated file's content really is (the declared type may say otherwise). */
const FILE_CONTENT_TYPE: Record<FileContent, string | null> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  garbage: null,
  empty: null,
  'png-big': 'image/png',
};
const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${+(n / (1024 * 1024)).toFixed(2)} MB` : `${+(n / 1024).toFixed(1)} KB`);

const isJsonMedia = (contentType: string | null) => {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return media === 'application/json' || media.endsWith('+json');
};

/** Percent-encodes every byte but the unreserved ones; lone surrogates become U+FFFD, as in a URL. */
export function percentEncode(s: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(s)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** How deeply arrays and objects nest in a JSON text (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') max = Math.max(max, ++depth);
    else if (c === ']' || c === '}') depth--;
  }
  return max;
}

const hasMalformedEscape = (s: string) => {
  try {
    decodeURIComponent(s);
    return false;
  } catch {
    return true;
  }
};

/** Prism cannot carry some requests (see the top of this file): those go straight to the mock. */
export function mustGoDirect(r: GeneratedRequest): string | null {
  if (r.chunked) return 'Prism forwards Transfer-Encoding: chunked next to its own Content-Length, which Node refuses to parse';
  for (const v of Object.values(r.path)) {
    if (v.kind === 'literal' && !v.encode && hasMalformedEscape(textOf(v.value))) return 'a malformed %-escape in the path kills Prism';
  }
  const b = r.body;
  if (b.kind === 'form' && b.fields.some(([, v]) => isFile(v) && BINARY_FILES.has(v.file)))
    return 'Prism re-encodes binary bodies as UTF-8';
  // Prism's multipart parser splits Content-Disposition on ';' and '=' and dies on what it cannot split.
  const plain = /^[\w./-]*$/;
  if (b.kind === 'form' && b.fields.some(([name, v]) => !plain.test(name) || (isFile(v) && !plain.test(v.filename))))
    return 'an odd multipart field name kills Prism';
  // Prism %-decodes multipart text values before validating them ('%00' counts as one character).
  if (b.kind === 'form' && b.fields.some(([, v]) => !isFile(v) && textOf(v).includes('%'))) return 'Prism %-decodes multipart values';
  if (b.kind === 'bytes' && isJsonMedia(b.contentType)) return 'Prism never answers a JSON content type with a body that is not JSON';
  if ((b.kind === 'text' || b.kind === 'bytes') && /^multipart\//i.test(b.contentType ?? '')) return 'malformed multipart kills Prism';
  if (b.kind === 'text' && isJsonMedia(b.contentType)) {
    try {
      JSON.parse(textOf(b.text));
    } catch {
      return 'Prism never answers a JSON content type with a body that is not JSON';
    }
    if (jsonDepth(textOf(b.text)) > 100) return "deeply nested JSON kills Prism's logger";
  }
  return null;
}

// -------------------------------------------------------------------------------------------------
// Arbitraries
// -------------------------------------------------------------------------------------------------

/** Any JSON value two levels deep: made once, as making fast-check's `anything` costs more than drawing from it. */
const SMALL_JSON = fc.jsonValue({ maxDepth: 2 });

/** Path ids that have broken servers before. `encode: false` puts them in the URL as they are. */
const HOSTILE_IDS: ReadonlyArray<{ value: Text; encode: boolean }> = [
  { value: '../x', encode: false },
  { value: '../x', encode: true },
  { value: '%00', encode: false },
  { value: '%2e%2e%2f', encode: false },
  { value: '..%2F..%2Fetc%2Fpasswd', encode: false },
  { value: '%252e%252e%252f', encode: false },
  { value: '%2F', encode: false },
  { value: '%zz', encode: false },
  { value: '%', encode: false },
  { value: '%E0%A4%A', encode: false },
  { value: '%C0%AF', encode: false },
  { value: '\u0000', encode: true },
  { value: '', encode: true },
  { value: ' ', encode: true },
  { value: '.', encode: false },
  { value: '..', encode: false },
  { value: 'a/b', encode: false },
  { value: '1?x=1', encode: false },
  { value: '1#x', encode: false },
  { value: '1;x=1', encode: false },
  { value: "1' OR '1'='1", encode: true },
  { value: '__proto__', encode: true },
  { value: 'constructor', encode: true },
  { value: 'hasOwnProperty', encode: true },
  { value: '1 ', encode: true },
  { value: '01', encode: true },
  { value: '1.0', encode: true },
  { value: '-1', encode: true },
  { value: '9007199254740993', encode: true },
  { value: '😀', encode: true },
  { value: 'שלום\u202E', encode: true },
  { value: 'e\u0301', encode: true },
  { value: '\uFEFF1', encode: true },
  { value: new Repeated('a', 41), encode: true },
  { value: new Repeated('a', 5000), encode: true },
  { value: new Repeated('%41', 2000), encode: false },
  { value: new Repeated('😀', 600), encode: true },
];

const MALFORMED_JSON: readonly string[] = [
  '',
  '{',
  '}',
  '{"code":',
  '{"code": "A",}',
  '[1,]',
  "{'code': 'A'}",
  '{code: "A"}',
  'NaN',
  'undefined',
  '{"a":1}garbage',
  '{"a":1}{"b":2}',
  '\u0000',
  '"unterminated',
  '{"a":"\\uZZZZ"}',
  '{"a":01}',
  '['.repeat(5000),
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
];

const XML = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>';
const MULTIPART_GARBAGE: readonly string[] = [
  'garbage',
  '--b\r\nContent-Disposition: form-data; name="field"\r\n\r\nvalue',
  '--b\r\n\r\n--b--',
  '--b\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--b--\r\n',
  '--b\r\nContent-Disposition: form-data; name="file"; filename="../../etc/passwd"\r\nContent-Type: image/png\r\n\r\nnot a png\r\n--b--\r\n',
  '\u0000\u0001\u0002',
];

export class RequestGenerator {
  readonly ops: OperationSpec[];
  private readonly arbs: SchemaArbitraries;

  /** The document's REST collections, by name. */
  private readonly collections: ReadonlySet<string>;
  /** The paths of the records each caller has one of (`x-one-per-caller` on their create). */
  private readonly ownPaths: readonly string[];

  constructor(doc: OpenApiDocument) {
    this.ops = operationSpecs(doc);
    this.collections = new Set(collectionSpecs(doc, this.ops).map((c) => c.name));
    this.ownPaths = this.ops
      .filter((o) => {
        const raw = doc.paths[o.path]?.[o.method.toLowerCase()];
        return isRecord(raw) && raw['x-one-per-caller'] === true;
      })
      .map((o) => o.path);
    this.arbs = new SchemaArbitraries({ resolve: (ref) => resolveRef(doc, ref) });
  }

  /** The schema walker, for generators built on the same schemas. */
  get schemas(): SchemaArbitraries {
    return this.arbs;
  }

  private channel(): fc.Arbitrary<Channel> {
    return fc.oneof({ arbitrary: fc.constant<Channel>('proxy'), weight: 4 }, { arbitrary: fc.constant<Channel>('direct'), weight: 1 });
  }

  /** The document's collection a path belongs to (`/pets/{id}`, `/pets/mine` → its collection), if any. */
  collectionOf(op: OperationSpec): string | null {
    const head = op.path.split('/')[1] ?? '';
    return this.collections.has(head) ? head : null;
  }

  setup(op: OperationSpec): fc.Arbitrary<Setup> {
    if (this.ownPaths.some((p) => op.path === p || op.path.startsWith(`${p}/`)))
      return fc.constantFrom<Setup>('no-own-record', 'own-record', 'own-record-with-file');
    if (op.root) return fc.constantFrom<Setup>('no-build', 'build');
    if (this.collectionOf(op)) return fc.constantFrom<Setup>('seed', 'empty', 'extra');
    return fc.constant<Setup>('seed');
  }

  private pathValue(param: ParamSpec): fc.Arbitrary<PathValue> {
    return fc.oneof(
      { arbitrary: fc.constant<PathValue>({ kind: 'existing' }), weight: 8 },
      {
        arbitrary: this.arbs.valid(param.schema).map((v): PathValue => ({ kind: 'literal', value: stringify(v), encode: true })),
        weight: 2,
      },
      {
        arbitrary: this.arbs.invalid(param.schema).map((v): PathValue => ({ kind: 'literal', value: capped(v.value), encode: true })),
        weight: 1,
      },
      { arbitrary: fc.constantFrom(...HOSTILE_IDS).map((h): PathValue => ({ kind: 'literal', ...h })), weight: 2 },
      {
        arbitrary: fc.string({ unit: anyCodePoint, maxLength: 12 }).map((value): PathValue => ({ kind: 'literal', value, encode: true })),
        weight: 1,
      },
    );
  }

  private query(op: OperationSpec): fc.Arbitrary<Query> {
    const documented = op.params.filter((p) => p.in === 'query');
    const value = (p: ParamSpec) =>
      fc.oneof(
        { arbitrary: this.arbs.valid(p.schema).map(capped), weight: 3 },
        { arbitrary: this.arbs.invalid(p.schema).map((v) => capped(v.value)), weight: 2 },
        { arbitrary: fc.constantFrom(...NASTY_FRAGMENTS), weight: 1 },
      );
    const unknownName = fc.oneof(
      fc.constantFrom('foo', '__proto__', 'constructor', 'id', 'Code', 'code[]', '', 'a.b', '%00'),
      fc.string({ maxLength: 8 }),
    );
    const unknown = fc
      .tuple(unknownName, fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...NASTY_FRAGMENTS)))
      .map(([k, v]): [string, Text] => [textOf(capped(k)), v]);
    const entry =
      documented.length > 0
        ? fc.oneof(
            { arbitrary: fc.constantFrom(...documented).chain((p) => value(p).map((v): [string, Text] => [p.name, v])), weight: 4 },
            { arbitrary: unknown, weight: 1 },
          )
        : unknown;
    const raw = fc.constantFrom(
      '%zz=1',
      'code=%zz',
      '&&&',
      'code',
      '=x',
      'kind=a&kind=b',
      'read=true&read=maybe',
      `name=${'%41'.repeat(1500)}`,
      'a[b][c]=1',
      '%00=%00',
    );
    return fc.oneof(
      { arbitrary: fc.constant<Query>({ kind: 'params', entries: [] }), weight: documented.length > 0 ? 2 : 8 },
      {
        arbitrary: fc.array(entry, { minLength: 1, maxLength: 3 }).map((entries): Query => ({ kind: 'params', entries })),
        weight: documented.length > 0 ? 6 : 1,
      },
      { arbitrary: raw.map((text): Query => ({ kind: 'raw', text })), weight: 1 },
    );
  }

  /** Bodies for an operation with a request body: derived from each documented media type's schema. */
  private body(op: OperationSpec): fc.Arbitrary<Body> {
    const content = op.body?.content ?? {};
    const variants: Array<fc.WeightedArbitrary<Body>> = [];
    const json = content['application/json'];
    if (json) {
      variants.push(
        {
          arbitrary: this.arbs
            .valid(json.schema)
            .map((value): Body => ({ kind: 'json', contentType: 'application/json', value, note: 'valid' })),
          weight: 12,
        },
        {
          arbitrary: this.arbs
            .invalid(json.schema)
            .map(({ note, value }): Body => ({ kind: 'json', contentType: 'application/json', value, note })),
          weight: 12,
        },
        {
          arbitrary: this.arbs
            .valid(json.schema)
            .chain((value) =>
              fc
                .constantFrom(
                  'application/json; charset=utf-8',
                  'APPLICATION/JSON',
                  'application/json;charset=UTF-8',
                  'application/vnd.api+json',
                )
                .map((contentType): Body => ({ kind: 'json', contentType, value, note: `valid, as ${contentType}` })),
            ),
          weight: 2,
        },
      );
    }
    const jsonProperties = json ? this.arbs.normalize(json.schema).properties : undefined;
    if (json && op.params.some((p) => p.in === 'path' && p.name === 'id') && isRecord(jsonProperties) && 'id' in jsonProperties) {
      // The body may repeat the URL's id: without this, a replace would nearly always meet another id.
      variants.push({
        arbitrary: this.arbs
          .valid(json.schema)
          .map(
            (value): Body => ({ kind: 'json', contentType: 'application/json', value, note: "valid, with the URL's id", idFromPath: true }),
          ),
        weight: 8,
      });
    }
    const formMedia = content['multipart/form-data'];
    if (formMedia) {
      variants.push({ arbitrary: this.form(formMedia, true), weight: 6 }, { arbitrary: this.form(formMedia, false), weight: 6 });
    }
    const anyValid = json ? this.arbs.valid(json.schema) : fc.constant({});
    if (json) variants.push({ arbitrary: this.jsonEdges(json.schema), weight: 3 });
    variants.push(
      {
        arbitrary: fc
          .constantFrom(...MALFORMED_JSON)
          .map((text): Body => ({ kind: 'text', contentType: 'application/json', text, note: 'malformed JSON' })),
        weight: 3,
      },
      {
        arbitrary: fc.constant<Body>({
          kind: 'bytes',
          contentType: 'application/json',
          bytes: [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d],
          note: 'invalid UTF-8',
        }),
        weight: 1,
      },
      {
        arbitrary: anyValid.chain((value) =>
          fc.constantFrom<Body>(
            { kind: 'text', contentType: 'text/plain', text: JSON.stringify(value), note: 'JSON as text/plain' },
            { kind: 'text', contentType: 'application/xml', text: XML, note: 'XML' },
            {
              kind: 'text',
              contentType: 'application/x-www-form-urlencoded',
              text: 'a=A&b=B&c=C',
              note: 'urlencoded form',
            },
            { kind: 'text', contentType: null, text: JSON.stringify(value), note: 'no content type' },
            { kind: 'text', contentType: 'image/png', text: 'not really a png', note: 'image/png' },
          ),
        ),
        weight: 3,
      },
      {
        arbitrary: fc
          .tuple(
            fc.constantFrom(...MULTIPART_GARBAGE),
            fc.constantFrom(
              'multipart/form-data; boundary=b',
              'multipart/form-data',
              'multipart/form-data; boundary=',
              'multipart/mixed; boundary=b',
            ),
          )
          .map(([text, contentType]): Body => ({ kind: 'text', contentType, text, note: 'multipart garbage' })),
        weight: 3,
      },
      { arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 1 },
    );
    return fc.oneof(...variants);
  }

  /**
   * Valid values written as JSON texts a serialiser would not produce: a duplicate key (the last
   * wins), a `__proto__` key, a byte order mark, numbers beyond a double (1e400, 1e-400, 30 digits),
   * whitespace around. These are sent as written.
   */
  private jsonEdges(schema: JsonSchema): fc.Arbitrary<Body> {
    return fc
      .tuple(
        this.arbs.valid(schema),
        fc.constantFrom('duplicate key', '__proto__ key', 'byte order mark', 'huge number', 'tiny number', 'long integer', 'whitespace'),
      )
      .map(([value, edge]): Body => {
        const text = JSON.stringify(value);
        const record = isRecord(value) ? value : null;
        const keys = record ? Object.keys(record) : [];
        const numeric = keys.find((k) => typeof record?.[k] === 'number');
        let out = `\n\t ${text} \r\n`;
        if (edge === 'duplicate key' && record && keys.length > 0) out = `{${JSON.stringify(keys[0])}:"first",${text.slice(1)}`;
        else if (edge === '__proto__ key' && record) out = `{"__proto__":{"polluted":true}${keys.length > 0 ? ',' : ''}${text.slice(1)}`;
        else if (edge === 'byte order mark') out = `\uFEFF${text}`;
        else if (numeric !== undefined && record) {
          const raw =
            edge === 'huge number'
              ? '1e400'
              : edge === 'tiny number'
                ? '1e-400'
                : edge === 'long integer'
                  ? '123456789012345678901234567890'
                  : null;
          if (raw) out = JSON.stringify(withKey(record, numeric, '\u0000NUMBER\u0000')).replace('"\\u0000NUMBER\\u0000"', raw);
        }
        return { kind: 'text', contentType: 'application/json', text: out, note: `JSON text with ${edge}` };
      });
  }

  /** A multipart body from a form schema: text fields from the schema, file fields as files. */
  private form(media: MediaSpec, valid: boolean): fc.Arbitrary<Body> {
    const textSchema = this.textFieldsSchema(media);
    const fields = valid ? this.arbs.valid(textSchema).map((value) => ({ note: 'valid fields', value })) : this.arbs.invalid(textSchema);
    const goodFile = (field: string) => fc.constantFrom(...goodFiles(media, field));
    const badFile = fc.constantFrom<FilePart>(
      { file: 'svg', type: 'image/svg+xml', filename: 'a.svg' },
      { file: 'png', type: 'image/jpeg', filename: 'a.jpg' },
      { file: 'jpeg', type: 'image/webp', filename: 'a.webp' },
      { file: 'garbage', type: 'image/png', filename: 'a.png' },
      { file: 'png', type: 'application/octet-stream', filename: 'a.png' },
      { file: 'png', type: '', filename: 'a.png' },
      { file: 'empty', type: 'image/png', filename: 'empty.png' },
      { file: 'png', type: 'image/png', filename: '../../etc/passwd' },
      { file: 'png', type: 'image/png', filename: '😀\u202E.png' },
    );
    const files =
      media.fileFields.length === 0
        ? fc.constant<FormField[]>([])
        : fc.oneof(
            { arbitrary: fc.constant<FormField[]>([]), weight: 3 },
            {
              arbitrary: fc.constantFrom(...media.fileFields).chain((k) => goodFile(k).map((f): FormField[] => [[k, f]])),
              weight: 3,
            },
            {
              arbitrary: fc.tuple(fc.constantFrom(...media.fileFields), badFile).map(([k, f]): FormField[] => [[k, f]]),
              weight: valid ? 0 : 3,
            },
            {
              arbitrary: fc.constantFrom(...media.fileFields).map((k): FormField[] => [[k, 'text where a file belongs']]),
              weight: valid ? 0 : 1,
            },
          );
    // A text field of the form, sent as a file and sent twice.
    const textField = Object.keys(isRecord(textSchema.properties) ? textSchema.properties : {})[0] ?? 'field';
    const oddities = valid
      ? fc.constant<FormField[]>([])
      : fc.constantFrom<FormField[]>(
          [],
          [['unknown', 'x']],
          [['__proto__', 'x']],
          [[textField, { file: 'garbage', type: 'text/plain', filename: 'name.txt' }]],
          [
            [textField, 'first'],
            [textField, 'second'],
          ],
        );
    return fc.tuple(fields, files, oddities).map(([{ note, value }, fileFields, extra]): Body => {
      const text: FormField[] = isRecord(value)
        ? Object.entries(value).map(([k, v]): FormField => [k, stringifyText(v)])
        : [['value', stringifyText(value)]];
      return { kind: 'form', fields: [...text, ...fileFields, ...extra], note: isRecord(value) ? note : `${note} (sent as one field)` };
    });
  }

  /** Bodies for an operation without a request body: usually none, sometimes one anyway. */
  private noBody(op: OperationSpec): fc.Arbitrary<Body> {
    if (op.method === 'GET' || op.method === 'HEAD') return fc.constant<Body>({ kind: 'none' });
    return fc.oneof(
      { arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 8 },
      {
        arbitrary: SMALL_JSON.map(
          (value): Body => ({ kind: 'json', contentType: 'application/json', value, note: 'a body where none is documented' }),
        ),
        weight: 1,
      },
      {
        arbitrary: fc.constant<Body>({ kind: 'text', contentType: 'text/plain', text: 'hello', note: 'a body where none is documented' }),
        weight: 1,
      },
    );
  }

  request(op: OperationSpec): fc.Arbitrary<GeneratedRequest> {
    const pathParams = op.params.filter((p) => p.in === 'path');
    const path = fc.record(
      Object.fromEntries(pathParams.map((p) => [p.name, this.pathValue(p)])) as Record<string, fc.Arbitrary<PathValue>>,
    );
    return fc
      .record({ via: this.channel(), path, query: this.query(op), body: op.body ? this.body(op) : this.noBody(op) })
      .map((r): GeneratedRequest => {
        const request: GeneratedRequest = { op: op.id, method: op.method, ...r };
        return mustGoDirect(request) ? { ...request, via: 'direct' } : request;
      });
  }

  /** A batch: a setup, then 1 to 6 requests in flight at once. */
  batch(op: OperationSpec): fc.Arbitrary<Batch> {
    return fc.record({ setup: this.setup(op), requests: fc.array(this.request(op), { minLength: 1, maxLength: 6 }) });
  }

  /**
   * JSON above the media type's `x-max-body-bytes`: valid but padded with whitespace, or with a huge
   * field. Null without a JSON body whose limit the document states.
   */
  heavyJson(op: OperationSpec): fc.Arbitrary<Batch> | null {
    const json = op.body?.content['application/json'];
    const limit = json?.maxBodyBytes;
    if (!json || limit === undefined) return null;
    const size = fc.integer({ min: limit + 1, max: 4 * limit });
    const body = fc.oneof(
      fc.tuple(this.arbs.valid(json.schema), size).map(
        ([value, padding]): Body => ({
          kind: 'json',
          contentType: 'application/json',
          value,
          padding,
          note: `valid, padded to > ${formatBytes(limit)}`,
        }),
      ),
      fc.tuple(this.arbs.valid(json.schema), size).map(
        ([value, n]): Body => ({
          kind: 'json',
          contentType: 'application/json',
          value: isRecord(value) ? withKey(value, 'huge', new Repeated('x', n)) : new Repeated('x', n),
          note: `a field above ${formatBytes(limit)}`,
        }),
      ),
    );
    return this.single(op, body);
  }

  /**
   * Multipart with a file above its field's limit (`maxLength` of the file schema): just over it
   * (under the body's `x-max-body-bytes`), or over the body's limit too. Null without a multipart
   * body with a file whose limit the document states.
   */
  heavyForm(op: OperationSpec): fc.Arbitrary<Batch> | null {
    const media = op.body?.content['multipart/form-data'];
    if (!media) return null;
    const sized = media.fileFields.flatMap((field) => {
      const sizes: number[] = [];
      const fileLimit = media.maxFileBytes[field];
      if (fileLimit !== undefined) sizes.push(fileLimit + 50 * 1024);
      if (media.maxBodyBytes !== undefined) sizes.push(media.maxBodyBytes + 40 * 1024, Math.round(media.maxBodyBytes * 1.4));
      return sizes.map((bytes) => [field, bytes] as const);
    });
    if (sized.length === 0) return null;
    const textSchema = this.textFieldsSchema(media);
    const body = fc.tuple(this.arbs.valid(textSchema), fc.constantFrom(...sized)).map(
      ([value, [field, bytes]]): Body => ({
        kind: 'form',
        fields: [
          ...(isRecord(value) ? Object.entries(value).map(([k, v]): FormField => [k, stringifyText(v)]) : []),
          [field, { file: 'png-big', type: 'image/png', filename: 'big.png', bytes }],
        ],
        note: `a ${field} of ${formatBytes(bytes)}`,
      }),
    );
    return this.single(op, body);
  }

  /** A form schema without its file fields: the text fields, as a generator fills them. */
  textFieldsSchema(media: MediaSpec): JsonSchema {
    const schema = this.arbs.normalize(media.schema);
    const properties = isRecord(schema.properties) ? schema.properties : {};
    return {
      ...schema,
      properties: Object.fromEntries(Object.entries(properties).filter(([k]) => !media.fileFields.includes(k))),
      required: (Array.isArray(schema.required) ? schema.required : []).filter((k) => !media.fileFields.includes(String(k))),
    };
  }

  /** One request per batch, to the existing record, through either channel. */
  private single(op: OperationSpec, body: fc.Arbitrary<Body>): fc.Arbitrary<Batch> {
    const pathParams = op.params.filter((p) => p.in === 'path');
    const path = Object.fromEntries(pathParams.map((p): [string, PathValue] => [p.name, { kind: 'existing' }]));
    return fc.record({
      setup: this.setup(op),
      requests: fc.tuple(fc.constantFrom<Channel>('proxy', 'direct'), body, fc.boolean()).map(([via, b, chunked]): GeneratedRequest[] => {
        const request: GeneratedRequest = {
          op: op.id,
          method: op.method,
          via,
          path,
          query: { kind: 'params', entries: [] },
          body: b,
          chunked,
        };
        return [mustGoDirect(request) ? { ...request, via: 'direct' } : request];
      }),
    });
  }
}

/**
 * A generated value for a URL, cut to MAX_URL_VALUE bytes once %-encoded: Node answers a request
 * whose head passes 16 KB with a bare 431 from its HTTP parser, before any handler runs, so longer
 * URLs test Node rather than the API. (HOSTILE_IDS holds the longest path ids, up to 7.2 KB.)
 */
const MAX_URL_VALUE = 1500;
function capped(v: unknown): Text {
  const t = stringifyText(v);
  if (t instanceof Repeated) {
    const max = Math.floor(MAX_URL_VALUE / percentEncode(t.unit).length);
    return t.count > max ? new Repeated(t.unit, max) : t;
  }
  let out = '';
  let bytes = 0;
  for (const c of t) {
    bytes += percentEncode(c).length;
    if (bytes > MAX_URL_VALUE) break;
    out += c;
  }
  return out;
}

/** A generated value as it goes into a URL or a form field. */
function stringify(v: unknown): string {
  return textOf(stringifyText(v));
}
function stringifyText(v: unknown): Text {
  if (v instanceof Repeated) return v;
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

// -------------------------------------------------------------------------------------------------
// Sending
// -------------------------------------------------------------------------------------------------

export interface Endpoints {
  /** `prism proxy … <server>/api`: the API paths, without /api. */
  proxy: string;
  /** `prism proxy … <server>`: for operations at the origin's root. */
  rootProxy: string;
  /** The Node mock server's origin. */
  server: string;
  /** Headers each request of `op` carries besides its own (see Bases.headers). */
  headers?: (op: OperationSpec) => Record<string, string>;
}

export interface Built {
  url: string;
  init: RequestInit;
  /** The path as the contract writes it (no base path), after the URL's normalisation. */
  contractPath: string;
  /** Bytes of the body, for the record. */
  bodyBytes: number;
  /** The body as sent, for the record. */
  sent: SentBody;
}

const SMALL_IMAGES: readonly FilePart[] = [
  { file: 'png', type: 'image/png', filename: 'a.png' },
  { file: 'jpeg', type: 'image/jpeg', filename: 'a.jpg' },
  { file: 'webp', type: 'image/webp', filename: 'a.webp' },
];

/** Small files whose content is what they declare, of the types a file field accepts (a PNG when none is stated). */
export function goodFiles(media: MediaSpec, field: string): FilePart[] {
  const accepted = media.fileTypes[field] ?? [];
  const fitting = SMALL_IMAGES.filter((f) => accepted.includes(f.type));
  return fitting.length > 0 ? fitting : [SMALL_IMAGES[0]!];
}

let pngCache: Uint8Array<ArrayBuffer> | undefined;
/** The bytes of a generated file. */
export function fileBytes(part: FilePart): Uint8Array<ArrayBuffer> {
  pngCache ??= makePng(8);
  switch (part.file) {
    case 'png':
      return pngCache;
    case 'jpeg':
      return Uint8Array.from([
        0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
      ]);
    case 'webp':
      return Uint8Array.from(
        [...'RIFF']
          .map((c) => c.charCodeAt(0))
          .concat(
            [0x1a, 0, 0, 0],
            [...'WEBPVP8L'].map((c) => c.charCodeAt(0)),
            [0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0],
          ),
      );
    case 'svg':
      return new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>');
    case 'garbage':
      return new TextEncoder().encode('this is not an image at all');
    case 'empty':
      return new Uint8Array(0);
    case 'png-big': {
      const big = new Uint8Array(part.bytes ?? 0);
      big.set(pngCache.subarray(0, Math.min(8, big.length)));
      return big;
    }
  }
}

/** The body as sent: with the URL's id put in when the body asks for it. */
export function effectiveBody(r: GeneratedRequest, existing: string): Body {
  const b = r.body;
  if (b.kind !== 'json' || !b.idFromPath || !isRecord(b.value)) return b;
  const v = r.path.id ?? { kind: 'existing' };
  return { ...b, value: withKey(b.value, 'id', v.kind === 'existing' ? existing : textOf(v.value)) };
}

export function resolvePath(op: OperationSpec, r: GeneratedRequest, existing: string): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = r.path[name] ?? { kind: 'existing' };
    if (v.kind === 'existing') return percentEncode(existing);
    return v.encode ? percentEncode(textOf(v.value)) : textOf(v.value);
  });
}

export function build(op: OperationSpec, r: GeneratedRequest, endpoints: Endpoints, existing: string): Built {
  const bases =
    r.via === 'proxy' ? { api: endpoints.proxy, root: endpoints.rootProxy } : { api: `${endpoints.server}/api`, root: endpoints.server };
  return buildAt(op, r, endpoints.headers ? { ...bases, headers: endpoints.headers } : bases, existing);
}

/** Where a request goes: the API base URL (the document's `servers` URL, resolved) and the origin's root. */
export interface Bases {
  api: string;
  root: string;
  /** Headers a request of `op` carries besides its own, e.g. the credentials of a secured operation. */
  headers?: (op: OperationSpec) => Record<string, string>;
}

/**
 * The header parameters an operation requires, each with a value that never refuses the request
 * by itself: If-Match `*` (whatever the resource's current tag is). Generated requests vary the
 * body, path and query; what their headers must be is not what they test.
 */
export function requiredHeaders(op: OperationSpec): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of op.params) if (p.in === 'header' && p.required && p.name.toLowerCase() === 'if-match') out[p.name] = '*';
  return out;
}

/** A request as sent, for the record (e.g. a curl line). */
export type SentBody =
  | { kind: 'none' }
  | { kind: 'bytes'; bytes: Uint8Array; chunked: boolean }
  | {
      kind: 'form';
      parts: Array<{ name: string; value: string } | { name: string; file: Uint8Array; type: string; filename: string }>;
      chunked: boolean;
    };

/** Builds a generated request for the bases given: the URL, the fetch init, and what the contract sees of it. */
export function buildAt(op: OperationSpec, r: GeneratedRequest, bases: Bases, existing: string): Built {
  const base = (op.root ? bases.root : bases.api).replace(/\/$/, '');
  let search = '';
  if (r.query.kind === 'raw') search = `?${r.query.text}`;
  else if (r.query.entries.length > 0) search = `?${new URLSearchParams(r.query.entries.map(([k, v]) => [k, textOf(v)])).toString()}`;
  const url = base + resolvePath(op, r, existing) + search;
  const headers = new Headers({ ...requiredHeaders(op), ...bases.headers?.(op) });
  let body: BodyInit | undefined;
  let bodyBytes = 0;
  let sent: SentBody = { kind: 'none' };
  const chunked = r.chunked === true;
  const b = effectiveBody(r, existing);
  switch (b.kind) {
    case 'none':
      break;
    case 'json': {
      const text = JSON.stringify(b.value) + ' '.repeat(b.padding ?? 0);
      headers.set('content-type', b.contentType);
      const bytes = new TextEncoder().encode(text);
      body = bytes;
      bodyBytes = bytes.byteLength;
      sent = { kind: 'bytes', bytes, chunked };
      break;
    }
    case 'text': {
      const bytes = new TextEncoder().encode(textOf(b.text));
      if (b.contentType !== null) headers.set('content-type', b.contentType);
      body = bytes;
      bodyBytes = bytes.byteLength;
      sent = { kind: 'bytes', bytes, chunked };
      break;
    }
    case 'bytes': {
      if (b.contentType !== null) headers.set('content-type', b.contentType);
      const bytes = Uint8Array.from(b.bytes);
      body = bytes;
      bodyBytes = b.bytes.length;
      sent = { kind: 'bytes', bytes, chunked };
      break;
    }
    case 'form': {
      const form = new FormData();
      const parts: Extract<SentBody, { kind: 'form' }>['parts'] = [];
      for (const [name, value] of b.fields) {
        if (isFile(value)) {
          const bytes = fileBytes(value);
          bodyBytes += bytes.byteLength;
          form.append(name, new Blob([bytes], { type: value.type }), value.filename);
          parts.push({ name, file: bytes, type: value.type, filename: value.filename });
        } else {
          const text = textOf(value);
          bodyBytes += Buffer.byteLength(text);
          form.append(name, text);
          parts.push({ name, value: text });
        }
      }
      body = form;
      sent = { kind: 'form', parts, chunked };
      break;
    }
  }
  let init: RequestInit = { method: r.method, headers, body, redirect: 'manual' };
  if (r.chunked && body !== undefined) {
    // A stream has no length: Node's fetch sends it chunked (and needs `duplex`, which the DOM types lack).
    const carrier = new Response(body, { headers });
    const type = carrier.headers.get('content-type');
    if (type !== null) headers.set('content-type', type);
    init = { ...init, headers, body: carrier.body, duplex: 'half' } as RequestInit;
  }
  const pathname = new URL(url).pathname;
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  const contractPath = prefix && pathname.startsWith(prefix) ? pathname.slice(prefix.length) : prefix ? '' : pathname;
  return { url, init, contractPath, bodyBytes, sent };
}

// -------------------------------------------------------------------------------------------------
// What the contract says about a request
// -------------------------------------------------------------------------------------------------

/**
 * valid: the contract allows the request; invalid: it forbids it; null: it does not say (or Prism
 * changes it on the way). `statuses`: for an invalid request, the statuses the document gives for
 * what is wrong with it (413 for a body over its limit, 415 for a media type it does not list...).
 */
export interface Verdict {
  valid: boolean | null;
  why: string[];
  statuses?: number[];
}

/** Statuses the document gives for each kind of invalid request (see the responses' descriptions). */
const MALFORMED = [400];
const BAD_ID = [400, 404];
const TOO_LARGE = [413];
const MEDIA_TYPE = [415];
const NO_BODY = [400, 415];
const FILE_CONTENT = [422];

interface Reason {
  why: string;
  statuses: number[];
}

/** The top-level fields a JSON body schema holds as arrays (its `$ref` followed). */
function listFields(doc: OpenApiDocument, schema: JsonSchema): string[] {
  const { node } = follow(doc, schema, '');
  const properties = isRecord(node.properties) ? node.properties : {};
  return Object.entries(properties)
    .filter(([, sub]) => follow(doc, sub, '').node.type === 'array')
    .map(([name]) => name);
}

/** One validator per document, whatever the number of judges: each compiles the schemas it checks. */
const judgeValidators = new WeakMap<OpenApiDocument, SchemaValidator>();

export class RequestJudge {
  private readonly validator: SchemaValidator;
  private readonly doc: OpenApiDocument;

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
    const validator = judgeValidators.get(doc) ?? new SchemaValidator(doc);
    judgeValidators.set(doc, validator);
    this.validator = validator;
  }

  check(key: string, schema: JsonSchema, value: unknown): string | null {
    const e = this.validator.against(key, schema, value)[0];
    return e ? `${e.instancePath || '(root)'} ${e.message}` : null;
  }

  verdict(op: OperationSpec, r: GeneratedRequest, existing: string): Verdict {
    const invalid: Reason[] = [];
    const unspecified: string[] = [];
    for (const p of op.params.filter((x) => x.in === 'path')) {
      const v = r.path[p.name] ?? { kind: 'existing' };
      if (v.kind === 'existing') continue;
      if (!v.encode) {
        unspecified.push(`path ${p.name} sent unencoded`);
        continue;
      }
      const problem = this.check(`path:${op.id}:${p.name}`, p.schema, decodeParam(this.doc, p, [textOf(v.value)]));
      // An operation whose input is a path id may answer a malformed id as an unknown one.
      if (problem) invalid.push({ why: `path ${p.name} ${problem}`, statuses: BAD_ID });
    }
    if (r.query.kind === 'raw') unspecified.push('raw query string');
    else {
      const names = op.params.filter((x) => x.in === 'query').map((x) => x.name);
      for (const [k] of r.query.entries) {
        // Prism matches query parameter names regardless of case ('Code' is validated as 'code').
        if (r.via === 'proxy' && !names.includes(k) && names.some((n) => n.toLowerCase() === k.toLowerCase()))
          unspecified.push(`query ${k} (Prism reads it as another parameter)`);
      }
      for (const p of op.params.filter((x) => x.in === 'query')) {
        const values = r.query.entries.filter(([k]) => k === p.name).map(([, v]) => textOf(v));
        if (values.length === 0 && p.required) invalid.push({ why: `query ${p.name} is required`, statuses: MALFORMED });
        else if (values.length > 1 && !repeats(this.doc, p))
          invalid.push({ why: `query ${p.name} given ${values.length} times`, statuses: MALFORMED });
        else if (values.length >= 1) {
          const problem = this.check(`query:${op.id}:${p.name}`, p.schema, decodeParam(this.doc, p, values));
          if (problem) invalid.push({ why: `query ${p.name} ${problem}`, statuses: MALFORMED });
        }
      }
    }
    this.bodyVerdict(op, { ...r, body: effectiveBody(r, existing) }, existing, invalid, unspecified);
    if (invalid.length > 0) {
      const verdict: Verdict = { valid: false, why: invalid.map((i) => i.why) };
      // A server reports one of the problems it finds: any of their statuses fits.
      verdict.statuses = [...new Set(invalid.flatMap((i) => i.statuses))].sort((a, b) => a - b);
      return verdict;
    }
    return unspecified.length > 0 ? { valid: null, why: unspecified } : { valid: true, why: [] };
  }

  private bodyVerdict(op: OperationSpec, r: GeneratedRequest, existing: string, invalid: Reason[], unspecified: string[]): void {
    const b = r.body;
    if (!op.body) {
      if (b.kind !== 'none') unspecified.push('a body where none is documented');
      return;
    }
    const content = op.body.content;
    if (b.kind === 'none') {
      if (op.body.required) invalid.push({ why: 'no body', statuses: NO_BODY });
      return;
    }
    const declared = b.kind === 'form' ? 'multipart/form-data' : mediaTypeOf(new Headers({ 'content-type': b.contentType ?? '' }));
    const mediaStatuses = (media: string) => (content[media] ? MALFORMED : MEDIA_TYPE);
    if (b.kind === 'text' && isJsonMedia(b.contentType)) {
      const media = (b.contentType ?? '').split(';')[0]!.trim();
      const spec = content[media];
      let text = textOf(b.text);
      if (spec && text.startsWith('\uFEFF')) {
        // RFC 8259: a parser MAY ignore a byte order mark.
        unspecified.push('a byte order mark');
        text = text.slice(1);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        invalid.push({ why: `a ${b.note} body`, statuses: mediaStatuses(declared) });
        return;
      }
      if (!spec) invalid.push({ why: `content type ${b.contentType ?? 'none'}`, statuses: MEDIA_TYPE });
      else {
        const problem = this.check(`body:${op.id}:${media}`, spec.schema, parsed);
        if (problem) invalid.push({ why: `body ${problem}`, statuses: MALFORMED });
        else this.idVerdict(op, r, existing, parsed, invalid);
        this.sizeVerdict(spec, Buffer.byteLength(text), invalid);
      }
      return;
    }
    if (b.kind === 'text' || b.kind === 'bytes') {
      invalid.push({ why: `a ${b.note} body`, statuses: b.contentType === null ? NO_BODY : mediaStatuses(declared) });
      return;
    }
    if (b.kind === 'json') {
      const media = b.contentType.split(';')[0]!.trim();
      const spec = content[media] ?? content[media.toLowerCase()];
      if (!spec) {
        invalid.push({ why: `content type ${b.contentType}`, statuses: MEDIA_TYPE });
        return;
      }
      if (!content[media]) unspecified.push(`content type ${b.contentType}`);
      const sent = JSON.stringify(b.value);
      const value: unknown = JSON.parse(sent);
      const problem = this.check(`body:${op.id}:${media.toLowerCase()}`, spec.schema, value);
      if (problem) invalid.push({ why: `body ${problem}`, statuses: MALFORMED });
      else this.idVerdict(op, r, existing, value, invalid);
      const limit = spec.maxBodyBytes;
      if (limit !== undefined && Buffer.byteLength(sent) + (b.padding ?? 0) > limit) {
        // Prism re-serialises the JSON it forwards, which drops the padding.
        if (r.via === 'direct' || problem || Buffer.byteLength(sent) > limit)
          invalid.push({ why: `body above ${formatBytes(limit)}`, statuses: TOO_LARGE });
        else unspecified.push(`body above ${formatBytes(limit)} before Prism re-serialises it`);
      }
      return;
    }
    const spec = content['multipart/form-data'];
    if (!spec) {
      invalid.push({ why: 'multipart/form-data is not documented', statuses: MEDIA_TYPE });
      return;
    }
    const bodyReasons = invalid.length;
    const text: Record<string, string> = {};
    const seen = new Set<string>();
    let size = 0;
    for (const [name, value] of b.fields) {
      size += isFile(value) ? fileBytes(value).byteLength : Buffer.byteLength(textOf(value));
      if (seen.has(name)) invalid.push({ why: `form field ${name} given twice`, statuses: MALFORMED });
      seen.add(name);
      if (spec.fileFields.includes(name)) {
        if (!isFile(value)) invalid.push({ why: `form field ${name} is text, not a file`, statuses: MALFORMED });
        else if (value.file !== 'empty') {
          const bytes = fileBytes(value).byteLength;
          const accepted = spec.fileTypes[name] ?? [];
          const limit = spec.maxFileBytes[name];
          if (accepted.length > 0 && !accepted.includes(value.type))
            invalid.push({ why: `file ${name} of type '${value.type}'`, statuses: MEDIA_TYPE });
          else if (limit !== undefined && bytes > limit)
            invalid.push({ why: `file ${name} above ${formatBytes(limit)}`, statuses: TOO_LARGE });
          else if (FILE_CONTENT_TYPE[value.file] !== value.type)
            invalid.push({ why: `file ${name} is not the ${value.type} it claims to be`, statuses: FILE_CONTENT });
        }
      } else if (isFile(value)) invalid.push({ why: `form field ${name} is a file`, statuses: MALFORMED });
      // A field named __proto__ is a field like any other: defined, not assigned (which would set the prototype).
      else Object.defineProperty(text, name, { value: textOf(value), enumerable: true, writable: true, configurable: true });
    }
    const problem = this.check(`form:${op.id}`, spec.schema, text);
    if (problem) invalid.push({ why: `form ${problem}`, statuses: MALFORMED });
    // The form stands for the JSON body, a field the JSON holds as a list being a comma-separated
    // list in the form: check that reading too.
    const json = content['application/json'];
    if (!problem && json && (Object.keys(text).length > 0 || op.body.required)) {
      const fields: Record<string, unknown> = { ...text };
      for (const name of listFields(this.doc, json.schema))
        if (text[name] !== undefined)
          fields[name] = text[name]
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean);
      const asJson = this.check(`body:${op.id}:json`, json.schema, fields);
      if (asJson) invalid.push({ why: `form read as JSON: ${asJson}`, statuses: MALFORMED });
    }
    if (Object.keys(text).length === 0 && !b.fields.some(([, v]) => isFile(v) && v.file !== 'empty') && !op.body.required)
      invalid.push({ why: 'an empty form', statuses: MALFORMED });
    // A whole form over its limit is refused before it is read, whatever it holds.
    if (spec.maxBodyBytes !== undefined && size > spec.maxBodyBytes) {
      invalid.splice(bodyReasons);
      invalid.push({ why: `form body above ${formatBytes(spec.maxBodyBytes)}`, statuses: TOO_LARGE });
    }
  }

  /** A path parameter repeated in the body must be the same value (a replace's `id`: "must equal the URL's id (else 400)"). */
  private idVerdict(op: OperationSpec, r: GeneratedRequest, existing: string, value: unknown, invalid: Reason[]): void {
    if (!isRecord(value)) return;
    for (const p of op.params.filter((x) => x.in === 'path')) {
      if (!Object.hasOwn(value, p.name)) continue;
      const v = r.path[p.name] ?? { kind: 'existing' };
      const inUrl = v.kind === 'existing' ? existing : textOf(v.value);
      if (value[p.name] !== inUrl) invalid.push({ why: `body ${p.name} differs from the URL's`, statuses: MALFORMED });
    }
  }

  private sizeVerdict(spec: MediaSpec, bytes: number, invalid: Reason[]): void {
    if (spec.maxBodyBytes !== undefined && bytes > spec.maxBodyBytes)
      invalid.push({ why: `body above ${formatBytes(spec.maxBodyBytes)}`, statuses: TOO_LARGE });
  }
}

// -------------------------------------------------------------------------------------------------
// The properties of an answer
// -------------------------------------------------------------------------------------------------

/** Prism's own answers that reject a request before it is forwarded: fine for invalid input. */
const PRISM_REQUEST_REJECTIONS = new Set([
  'UNPROCESSABLE_ENTITY',
  'NO_PATH_MATCHED_ERROR',
  'NO_METHOD_MATCHED_ERROR',
  'INVALID_CONTENT_TYPE',
  'NOT_ACCEPTABLE',
  'UNAUTHORIZED',
]);

export interface Outcome {
  /** 'prism': Prism answered itself (rejected the request, or reported a violation). */
  by: 'prism' | 'api';
  status: number;
  problems: string[];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The properties every answer must have:
 * - no contract violation: not Prism's VIOLATIONS problem nor an sl-violations header, and (for
 *   the API's own answers) a documented status, media type, body and headers (openapi-kit's
 *   judge, which also holds an Error body to its status and documented reason phrase);
 * - no 5xx the document does not give for the operation (an operation may document a 500);
 * - an error that reaches no operation still answers the Error body;
 * - the API does not accept (2xx) a request the contract forbids, and Prism does not reject one it allows.
 */
export function judgeAnswer(
  contract: Contract,
  _op: OperationSpec,
  r: GeneratedRequest,
  built: Built,
  verdict: Verdict,
  answer: Answer,
): Outcome {
  const problems: string[] = [];
  const text = new TextDecoder().decode(answer.body);
  const media = mediaTypeOf(answer.headers);
  const parsed = media.endsWith('json') ? parseJson(text) : undefined;
  const prism = isRecord(parsed) && typeof parsed.type === 'string' && parsed.type.startsWith(PRISM_ERROR_TYPE) ? parsed : null;
  if (r.via === 'proxy' && prism) {
    const type = String(prism.type).slice(PRISM_ERROR_TYPE.length + 1);
    if (type === 'VIOLATIONS') {
      problems.push(
        `the upstream's answer breaks the contract (Prism ${answer.status} VIOLATIONS): ${JSON.stringify(prism.validation ?? prism.detail)}`,
      );
    } else if (answer.status >= 500 || !PRISM_REQUEST_REJECTIONS.has(type)) {
      problems.push(`Prism failed with ${answer.status} ${type}: ${String(prism.detail)}`);
    } else if (verdict.valid === true) {
      problems.push(
        `Prism rejected a request the contract allows: ${answer.status} ${type} ${JSON.stringify(prism.validation ?? prism.detail)}`,
      );
    }
    return { by: 'prism', status: answer.status, problems };
  }

  const matched = contract.match(r.method, built.contractPath);
  if (matched) problems.push(...contract.checkAnswer(matched, answer));
  else if (answer.headers.get('sl-violations')) problems.push(`Prism reports violations: ${answer.headers.get('sl-violations')}`);

  // For an operation, checkAnswer reports a 5xx the document does not give; a documented one is the document's word.
  if (answer.status >= 500 && !matched) problems.push(`a ${answer.status}: ${text.slice(0, 300)}`);

  if (answer.status >= 400 && !matched) {
    if (media !== 'application/json') problems.push(`an error answered as '${media}', not application/json: ${text.slice(0, 200)}`);
    else {
      const broken = contract.checkSchema('Error', parsed);
      if (broken.length > 0) problems.push(`an error body that is not the Error schema (${broken.join('; ')}): ${text.slice(0, 200)}`);
      else if (isRecord(parsed) && parsed.status !== answer.status)
        problems.push(`an error body with status ${JSON.stringify(parsed.status)} in a ${answer.status} answer`);
    }
  }
  if (verdict.valid === false && answer.status < 300)
    problems.push(`accepted (${answer.status}) a request the contract forbids: ${verdict.why.join('; ')}`);
  return { by: 'api', status: answer.status, problems };
}
