/**
 * Requests generated from an OpenAPI document, one arbitrary per operation: path ids (valid,
 * existing and hostile), query parameters (valid, invalid, unknown, repeated), bodies (valid and
 * invalid values of the operation's own request schemas, malformed JSON, wrong content types,
 * multipart with garbage or odd files: ./body-generator.ts; oversized bodies). What a request is:
 * ./generated-request.ts; how it is sent: ./request-wire.ts; what the document says of it:
 * ./request-judge.ts.
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
  isDotSegment,
  formatBytes,
  percentEncode,
  mustGoDirect,
  stringify,
  stringifyText,
  type Channel,
  type PathValue,
  type Query,
  type FormField,
  type Body,
  type GeneratedRequest,
  type Setup,
  type Batch,
} from './generated-request.ts';
import { HOSTILE_IDS } from './hostile-input.ts';
import { BodyGenerator } from './body-generator.ts';

export class RequestGenerator {
  readonly ops: OperationSpec[];
  private readonly arbs: SchemaArbitraries;
  /** The bodies of its requests (./body-generator.ts). */
  private readonly bodies: BodyGenerator;

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
    this.bodies = new BodyGenerator(this.arbs);
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
    return fc
      .oneof(
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
      )
      .filter((v) => !(v.kind === 'literal' && v.encode && isDotSegment(textOf(v.value))));
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

  request(op: OperationSpec): fc.Arbitrary<GeneratedRequest> {
    const pathParams = op.params.filter((p) => p.in === 'path');
    const path = fc.record(
      Object.fromEntries(pathParams.map((p) => [p.name, this.pathValue(p)])) as Record<string, fc.Arbitrary<PathValue>>,
    );
    return fc
      .record({ via: this.channel(), path, query: this.query(op), body: op.body ? this.bodies.body(op) : this.bodies.noBody(op) })
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
    return this.bodies.textFieldsSchema(media);
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
