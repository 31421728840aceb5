/**
 * What the document says about a generated request before it is sent: valid, invalid (and with which
 * statuses), or unspecified. ./judge.ts then holds the answer to that verdict.
 */
import {
  decodeParam,
  follow,
  isRecord,
  repeats,
  SchemaValidator,
  textOf,
  type MediaSpec,
  type OpenApiDocument,
  type OperationSpec,
  type JsonSchema,
} from '../openapi-kit/index.ts';
import { mediaTypeOf } from '../openapi-kit/node.ts';
import { isFile, FILE_CONTENT_TYPE, formatBytes, isJsonMedia, type GeneratedRequest } from './generated-request.ts';
import { fileBytes, effectiveBody } from './request-wire.ts';

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

  /** The statuses the operation documents for a file whose content is not the type it claims. */
  fileContentStatuses(op: OperationSpec): number[] {
    return FILE_CONTENT.filter((s) => op.statuses.includes(String(s)));
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
    // list in the form: check that reading too. A form of files alone stands for no field (it
    // replaces the files), judged by the form's own schema.
    const json = content['application/json'];
    const files = b.fields.some(([, v]) => isFile(v) && v.file !== 'empty');
    if (!problem && json && (Object.keys(text).length > 0 || (op.body.required && !files))) {
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
