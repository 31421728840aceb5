/**
 * Requests generated from an OpenAPI document, one arbitrary per operation: path ids (valid,
 * existing and hostile), query parameters (valid, invalid, unknown, repeated), bodies (valid and
 * invalid values of the operation's own request schemas, malformed JSON, wrong content types,
 * multipart with garbage or odd files, oversized bodies). What a request is: ./generated-request.ts;
 * how it is sent: ./request-wire.ts; what the document says of it: ./request-judge.ts.
 */
import fc from 'fast-check';
import {
  collectionSpecs,
  isRecord,
  operationSpecs,
  resolveRef,
  anyCodePoint,
  NASTY_FRAGMENTS,
  Repeated,
  SchemaArbitraries,
  textOf,
  withKey,
  type MediaSpec,
  type OpenApiDocument,
  type OperationSpec,
  type ParamSpec,
  type JsonSchema,
  type Text,
} from '../openapi-kit/index.ts';
import {
  formatBytes,
  percentEncode,
  mustGoDirect,
  stringify,
  stringifyText,
  type Channel,
  type PathValue,
  type Query,
  type FilePart,
  type FormField,
  type Body,
  type GeneratedRequest,
  type Setup,
  type Batch,
} from './generated-request.ts';
import { HOSTILE_IDS, MALFORMED_JSON, XML, MULTIPART_GARBAGE } from './hostile-input.ts';
import { goodFiles } from './request-wire.ts';

/** Any JSON value two levels deep: made once, as making fast-check's `anything` costs more than drawing from it. */
const SMALL_JSON = fc.jsonValue({ maxDepth: 2 });

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
