/**
 * The bodies the request generator (./request-generator.ts) sends, from an operation's documented
 * media types: valid and invalid values of their schemas, JSON texts a serialiser would not write,
 * malformed JSON, wrong content types, multipart with garbage or odd files; and, for an operation
 * without a body, usually none.
 */
import fc from 'fast-check';
import { isRecord, withKey, type JsonSchema, type MediaSpec, type OperationSpec, type SchemaArbitraries } from '../openapi-kit/index.ts';
import { stringifyText, type Body, type FilePart, type FormField } from './generated-request.ts';
import { MALFORMED_JSON, MULTIPART_GARBAGE, XML } from './hostile-input.ts';
import { goodFiles } from './request-wire.ts';

/** Any JSON value two levels deep: made once, as making fast-check's `anything` costs more than drawing from it. */
const SMALL_JSON = fc.jsonValue({ maxDepth: 2 });

export class BodyGenerator {
  private readonly arbs: SchemaArbitraries;

  constructor(arbs: SchemaArbitraries) {
    this.arbs = arbs;
  }

  /** Bodies for an operation with a request body: derived from each documented media type's schema. */
  body(op: OperationSpec): fc.Arbitrary<Body> {
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
  noBody(op: OperationSpec): fc.Arbitrary<Body> {
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
}
