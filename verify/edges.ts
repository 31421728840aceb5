/**
 * Bodies at the edges of what a document allows, made from a valid body drawn for the operation:
 * each is one a server gets wrong in a way a random draw seldom shows, so they are sent first, on
 * every run, whatever --runs says.
 *
 * Valid: JSON exactly as long as the media type's `x-max-body-bytes`, and under a Content-Type with
 * space before its parameters (RFC 9110's OWS); a form whose text field is byte order marks up to
 * its `minLength` (a mark is a character like any other); a form with a file of each type its field
 * takes, and one exactly as long as the field's `maxLength`.
 * Invalid: a valid JSON body with bytes that are no UTF-8 inside one of its strings (RFC 8259: JSON
 * is UTF-8), a multipart body that ends before its closing delimiter, and a form whose file claims a
 * type its signature misses by one byte (each image format is known by its first bytes).
 */
import { codePoints, isRecord, textOf, type JsonSchema, type MediaSpec } from '../openapi-kit/index.ts';
import type { Body, FileContent, FilePart, FormField } from './generated-request.ts';
import { goodFiles } from './request-wire.ts';

/** The valid JSON value padded with spaces to exactly `limit` bytes; null when it is longer already. */
export function jsonAtLimit(value: unknown, media: MediaSpec): Body | null {
  const limit = media.maxBodyBytes;
  if (limit === undefined) return null;
  const padding = limit - Buffer.byteLength(JSON.stringify(value));
  if (padding < 0) return null;
  return { kind: 'json', contentType: media.media, value, padding, note: `valid, exactly x-max-body-bytes (${limit} bytes)` };
}

/** The valid JSON value under the media type with a parameter after optional whitespace. */
export function jsonWithSpacedParameter(value: unknown, media: MediaSpec): Body {
  const contentType = `${media.media} ; charset=utf-8`;
  return { kind: 'json', contentType, value, note: `valid, as ${contentType}` };
}

/** Whether a string schema takes any text of the right length (no pattern, format or list of values). */
const anyText = (schema: JsonSchema): boolean =>
  schema.type === 'string' &&
  schema.pattern === undefined &&
  schema.format === undefined &&
  schema.enum === undefined &&
  schema.const === undefined;

const fits = (schema: JsonSchema, length: number): boolean =>
  length >= ((schema.minLength as number | undefined) ?? 0) &&
  length <= ((schema.maxLength as number | undefined) ?? Number.POSITIVE_INFINITY);

/**
 * The valid JSON value with one of its top-level strings (any text of two characters fits it) sent
 * as bytes that are no UTF-8; null when it has none. Read leniently, the bytes would be a valid
 * value ('\uFFFD('): only a strict reader refuses it.
 */
export function jsonWithBrokenUtf8(value: unknown, media: MediaSpec, schemaOf: (field: string) => JsonSchema | undefined): Body | null {
  if (!isRecord(value)) return null;
  const field = Object.keys(value).find((k) => {
    const schema = schemaOf(k);
    return typeof value[k] === 'string' && schema !== undefined && anyText(schema) && fits(schema, 2);
  });
  if (field === undefined) return null;
  const marker = 'verify-broken-utf8';
  const text = JSON.stringify({ ...value, [field]: marker });
  const at = text.indexOf(`"${marker}"`) + 1;
  const bytes = [...Buffer.from(text.slice(0, at)), 0xc3, 0x28, ...Buffer.from(text.slice(at + marker.length))];
  return { kind: 'bytes', contentType: media.media, bytes, note: `JSON with bytes that are no UTF-8 in '${field}'` };
}

/**
 * The valid form with one text field (any text, `minLength` of at least 2) made of two byte order
 * marks and what it held, cut to exactly that minimum; null when no field is such.
 */
export function formWithMarks(fields: FormField[], schemaOf: (field: string) => JsonSchema | undefined): Body | null {
  const index = fields.findIndex(([name, value]) => {
    const schema = schemaOf(name);
    const min = schema?.minLength;
    return typeof value !== 'object' && schema !== undefined && anyText(schema) && typeof min === 'number' && min >= 2;
  });
  if (index < 0) return null;
  const [name, value] = fields[index]!;
  const min = schemaOf(name)!.minLength as number;
  const held = [...textOf(value as string)];
  if (codePoints(textOf(value as string)) < min) return null;
  const marked = `\uFEFF\uFEFF${held.slice(0, min - 2).join('')}`;
  const out = fields.map((f, i): FormField => (i === index ? [name, marked] : f));
  return { kind: 'form', fields: out, note: `valid fields, ${name} starting with byte order marks` };
}

/** A multipart body cut off before its closing delimiter. */
export const UNFINISHED_FORM: Body = {
  kind: 'text',
  contentType: 'multipart/form-data; boundary=verify-boundary',
  text: '--verify-boundary\r\nContent-Disposition: form-data; name="a"\r\n\r\nx',
  note: 'a multipart body without its closing delimiter',
};

/** The valid form's text fields with `file` as its file field, and no other file. */
const withFile = (fields: FormField[], media: MediaSpec, field: string, file: FilePart, note: string): Body => ({
  kind: 'form',
  fields: [...fields.filter(([name]) => !media.fileFields.includes(name)), [field, file]],
  note,
});

/** The valid form with a file of each type the field takes, and with one exactly as long as its `maxLength` (a PNG). */
export function formsWithEachFile(fields: FormField[], media: MediaSpec): Body[] {
  return media.fileFields.flatMap((field) => {
    const each = goodFiles(media, field).map((file) => withFile(fields, media, field, file, `valid fields, ${field} a ${file.type}`));
    const limit = media.maxFileBytes[field];
    const atLimit =
      limit !== undefined && (media.fileTypes[field] ?? []).includes('image/png')
        ? [
            withFile(
              fields,
              media,
              field,
              { file: 'png-big', type: 'image/png', filename: 'a.png', bytes: limit },
              `valid fields, ${field} of exactly ${limit} bytes`,
            ),
          ]
        : [];
    return [...each, ...atLimit];
  });
}

/** Where each image format's signature is (RFC 2083 for PNG, JFIF's SOI marker, RIFF's WebP): the bytes flipped, one at a time. */
const SIGNATURE_BYTES: Partial<Record<string, { from: FileContent; at: number[] }>> = {
  'image/png': { from: 'png', at: [0, 1] },
  'image/jpeg': { from: 'jpeg', at: [0, 1, 2] },
  'image/webp': { from: 'webp', at: [0, 8] },
};

/** The valid form with a file of each type the field takes whose signature is one byte off: its content is not the type it claims. */
export function formsWithAlteredFile(fields: FormField[], media: MediaSpec): Body[] {
  return media.fileFields.flatMap((field) =>
    (media.fileTypes[field] ?? []).flatMap((type) => {
      const signature = SIGNATURE_BYTES[type];
      return (signature?.at ?? []).map((at) =>
        withFile(
          fields,
          media,
          field,
          { file: 'altered', from: signature!.from, at, type, filename: 'a' },
          `file ${field} a ${type} with byte ${at} of its signature changed`,
        ),
      );
    }),
  );
}

/** The valid form with only its file (each file field a file of the first type it takes), no text field. */
export function formOfFilesOnly(media: MediaSpec): Body | null {
  if (media.fileFields.length === 0) return null;
  return {
    kind: 'form',
    fields: media.fileFields.map((field): FormField => [field, goodFiles(media, field)[0]!]),
    note: "only the form's files",
  };
}

/**
 * The valid form with each file field an empty file, of the type a browser gives a file input left
 * empty (application/octet-stream): no bytes is no file.
 */
export function formWithEmptyFilePart(fields: FormField[], media: MediaSpec): Body | null {
  if (media.fileFields.length === 0) return null;
  const text = fields.filter(([name]) => !media.fileFields.includes(name));
  const empty = media.fileFields.map((field): FormField => [field, { file: 'empty', type: 'application/octet-stream', filename: 'empty' }]);
  return { kind: 'form', fields: [...text, ...empty], note: 'valid fields, each file empty (no bytes: no file)' };
}

/** A form with no field at all. */
export const EMPTY_FORM: Body = { kind: 'form', fields: [], note: 'an empty form' };

/** The valid form with its file fields given as text. */
export function formWithTextForFile(fields: FormField[], media: MediaSpec): Body | null {
  if (media.fileFields.length === 0) return null;
  const text = fields.filter(([name]) => !media.fileFields.includes(name));
  return {
    kind: 'form',
    fields: [...text, ...media.fileFields.map((field): FormField => [field, 'verify: text where a file belongs'])],
    note: 'text where a file belongs',
  };
}

/**
 * The valid form with a field the JSON body holds as a list (its text comma-separated) made of one
 * item a character longer than the list's items may be, where the text field takes that length;
 * null when no field is such.
 */
export function formWithLongListItem(
  fields: FormField[],
  textSchemaOf: (field: string) => JsonSchema | undefined,
  itemSchemaOf: (field: string) => JsonSchema | undefined,
): Body | null {
  for (const [name] of fields) {
    const item = itemSchemaOf(name);
    const text = textSchemaOf(name);
    const max = item?.maxLength;
    if (item === undefined || text === undefined || typeof max !== 'number' || !anyItemText(item) || !fits(text, max + 1)) continue;
    const long = 'a'.repeat(max + 1);
    return {
      kind: 'form',
      fields: fields.map(([n, v]): FormField => [n, n === name ? long : v]),
      note: `form field ${name} one list item over its maxLength`,
    };
  }
  return null;
}

/** Whether a list item's schema takes 'a…a' of the right length (text, a pattern such a run meets). */
const anyItemText = (schema: JsonSchema): boolean =>
  schema.type === 'string' &&
  schema.format === undefined &&
  schema.enum === undefined &&
  (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test('aa'));
