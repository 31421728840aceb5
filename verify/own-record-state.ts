/**
 * What the own-record model (./own-record-model.ts) holds and how it reads the server: the record
 * as the model believes it (its fields, id, upload and ETags), the bodies it sends (as JSON or as a
 * form with a file), and the caller's own read compared with the model; a write that a read
 * disproves is blamed.
 */
import fc from 'fast-check';
import { isRecord, satisfying, type OperationSpec } from '../openapi-kit/index.ts';
import type { SchemaArbitraries } from '../openapi-kit/index.ts';
import { bodyJson, jsonRequest, type Exchange, type Outgoing } from './exchange.ts';
import type { OwnRecordFixture, OwnRecordOps } from './fixtures.ts';
import type { FilePart } from './generated-request.ts';
import { fileBytes, goodFiles } from './request-wire.ts';
import type { Session } from './session.ts';
import { canonical, disproved, step, type Transcript } from './stateful.ts';

export type Row = Record<string, unknown>;

export interface Model {
  /** The fields the own record must show (those sent), or null when there is none. */
  fields: Row | null;
  id: string | null;
  /** The last id an own record had, for requests after a delete. */
  lastId: string | null;
  createdAt: unknown;
  upload: { bytes: Uint8Array; type: string } | null;
  /** The operation whose answer the model's state rests on. */
  writer: OperationSpec | null;
  /** The ETags the own record's writes answered, oldest first: the one before the last is stale. */
  tags: string[];
}

/** The same fields, their keys in the reverse order. */
export const reversed = (fields: Row): Row => Object.fromEntries(Object.entries(fields).reverse());

/** A file of the same type with other bytes, where verify can make one (a PNG); else the same file. */
export const otherBytes = (upload: FilePart): FilePart =>
  upload.type === 'image/png' ? { ...upload, file: 'png-big', bytes: fileBytes(upload).byteLength + 64 } : upload;

export const emptyModel = (): Model => ({
  fields: null,
  id: null,
  lastId: null,
  createdAt: undefined,
  upload: null,
  writer: null,
  tags: [],
});

export interface Real extends Transcript {
  fixture: OwnRecordFixture;
}

export type Cmd = fc.AsyncCommand<Model, Real, false>;

/** A body as JSON or as multipart form data (with an optional upload). */
export interface Payload {
  fields: Row;
  form: boolean;
  upload: FilePart | null;
}

/**
 * Text that reads back the same through a multipart form: no line breaks (they become CRLF); a list
 * (sent comma-separated) not empty, its items without edge spaces.
 */
export const formSafe = (fields: Row): boolean =>
  Object.values(fields).every((v) =>
    Array.isArray(v)
      ? v.length > 0 && v.every((t) => typeof t === 'string' && t === t.trim() && t !== '' && !/[\r\n]/.test(t))
      : typeof v !== 'string' || !/[\r\n]/.test(v),
  );

export class OwnRecordState {
  protected readonly session: Session;
  protected readonly ops: OwnRecordOps;
  protected readonly arbs: SchemaArbitraries;

  constructor(session: Session, ops: OwnRecordOps, arbs: SchemaArbitraries) {
    this.session = session;
    this.ops = ops;
    this.arbs = arbs;
  }

  protected url(op: OperationSpec, id?: string): string {
    return this.session.target.url(op, id === undefined ? {} : { [this.ops.idParam]: id });
  }

  protected outgoing(op: OperationSpec, id: string | undefined, p: Payload): Outgoing {
    if (!p.form) return jsonRequest(op.method, this.url(op, id), p.fields);
    const form = new FormData();
    const parts: Array<{ name: string; value: string } | { name: string; file: Uint8Array; type: string; filename: string }> = [];
    for (const [name, value] of Object.entries(p.fields)) {
      // A list is comma-separated, with a space after each comma (no part of an item, the document says).
      const text = Array.isArray(value) ? value.join(', ') : String(value);
      form.append(name, text);
      parts.push({ name, value: text });
    }
    if (p.upload) {
      const bytes = fileBytes(p.upload);
      form.append(this.ops.fileField!, new Blob([bytes], { type: p.upload.type }), p.upload.filename);
      parts.push({ name: this.ops.fileField!, file: bytes, type: p.upload.type, filename: p.upload.filename });
    }
    return { method: op.method, url: this.url(op, id), body: form, sent: { kind: 'form', parts, chunked: false } };
  }

  protected payloads(op: OperationSpec, minFields: number): fc.Arbitrary<Payload> {
    const json = op.body?.content['application/json'];
    const form = op.body?.content['multipart/form-data'];
    const fields = json
      ? satisfying(
          this.arbs.valid(json.schema),
          (v): v is Row =>
            isRecord(v) && Object.keys(v).length >= minFields && this.session.spec.validator.atPointer(json.pointer, v).length === 0,
          `a body of ${op.id} with at least ${minFields} fields (#${json.pointer})`,
        )
      : fc.constant<Row>({});
    const variants: Array<fc.Arbitrary<Payload>> = [fields.map((f) => ({ fields: f, form: false, upload: null }))];
    const field = this.ops.file ? this.ops.fileField : undefined;
    if (form && field) {
      variants.push(
        fc
          .tuple(fields.filter(formSafe), fc.option(fc.constantFrom(...goodFiles(form, field)), { nil: null }))
          .map(([f, upload]) => ({ fields: f, form: true, upload })),
      );
    }
    return fc.oneof(...variants);
  }

  /** The own record as the model says it is, compared field by field with an answer. */
  protected mismatch(m: Model, body: unknown): string | null {
    if (!isRecord(body) || !m.fields) return 'the body is not an own record';
    if (body.id !== m.id) return `id is ${JSON.stringify(body.id)}, not ${JSON.stringify(m.id)}`;
    for (const [k, v] of Object.entries(m.fields))
      if (canonical(body[k]) !== canonical(v)) return `${k} is ${canonical(body[k])}, not ${canonical(v)}`;
    if (m.createdAt !== undefined && body.createdAt !== m.createdAt)
      return `createdAt changed from ${String(m.createdAt)} to ${String(body.createdAt)}`;
    // The record's field named as the form's file field links to the file.
    if (m.upload && typeof body[this.ops.fileField ?? ''] !== 'string') return `the file uploaded has no link in ${this.ops.fileField}`;
    return null;
  }

  protected async readMine(m: Model, real: Real, blame: OperationSpec, what: string): Promise<void> {
    const exchange = await step(
      this.session,
      real,
      this.ops.mine,
      { method: 'GET', url: this.url(this.ops.mine) },
      { kind: 'unspecified' },
    );
    const status = exchange.response?.status;
    if (m.fields === null) {
      if (status !== 204)
        disproved(
          real,
          exchange,
          status === 200 ? blame : this.ops.mine,
          `${what}: expected 204 (no own record), got ${status ?? 'nothing'}`,
        );
      return;
    }
    if (status !== 200)
      disproved(
        real,
        exchange,
        status === 204 ? blame : this.ops.mine,
        `${what}: expected 200 with the own record, got ${status ?? 'nothing'}`,
      );
    const problem = this.mismatch(m, bodyJson(exchange.response));
    if (problem) disproved(real, exchange, blame, `${what}: ${problem}`);
  }

  /** The own record's path under the API (its update's or delete's, with its id), or null without either. */
  protected ownPath(id: string): string | null {
    const op = this.ops.update ?? this.ops.remove;
    return op ? op.path.replace(`{${this.ops.idParam}}`, encodeURIComponent(id)) : null;
  }

  /** A request with an Idempotency-Key header. */
  protected keyed(out: Outgoing, header: string, key: string): Outgoing {
    const headers = new Headers(out.headers);
    headers.set(header, key);
    return { ...out, headers };
  }

  /** The operation's Idempotency-Key header, when it takes one and documents the 422 of a key reused with another body. */
  protected keyHeader(op: OperationSpec | undefined = this.ops.update): string | null {
    const param = op?.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    return param && op?.statuses.includes('422') ? param.name : null;
  }

  /** Keeps the ETag a write answered; the same tag as before the write is a version that did not change. */
  protected noteTag(m: Model, real: Real, exchange: Exchange, op: OperationSpec): void {
    const tag = exchange.response?.headers.get('etag') ?? null;
    if (tag === null) return;
    if (m.tags.at(-1) === tag)
      disproved(
        real,
        exchange,
        op,
        `the write answered the ETag the own record had before it (${tag}): a stale If-Match could not be told from a current one`,
      );
    m.tags.push(tag);
  }

  /** Whether the update's file field takes more than one type (so an update can bring a file of another type). */
  protected takesAnotherFile(): boolean {
    const form = this.ops.update?.body?.content['multipart/form-data'];
    const field = this.ops.fileField;
    return form !== undefined && field !== undefined && goodFiles(form, field).length > 1;
  }
}
