/**
 * The stateful model of a record each caller has at most one of (`x-one-per-caller: true` on its
 * create; see fixtures.ts's ownRecordOps for how its other operations are found through the create's
 * links). The caller's own read answers a 2xx without body while there is none and the record once
 * created; a second create answers 409; an update changes the fields sent and keeps the others; a
 * delete answers 204 and the record is gone (none again, 404 for its URLs); the file its form
 * uploaded is answered as uploaded. Every run first walks it once the same way (see walk), whatever
 * --runs says, then runs generated sequences. Runs only when the caller has none, and deletes its
 * own at the end.
 *
 * The walk also holds the record to its owner and to its version: another member (--other-header)
 * is refused its update, its delete and its file (403) and changes nothing; a change without
 * If-Match answers 428, one with an ETag from before the last write 412 (the answer's ETag the
 * current one), and each write answers a new ETag. The member's If-Match is the last ETag the
 * server answered them (Target.etag). Where the update takes an `Idempotency-Key`, the walk also
 * sends one save twice with its key (the second answers the first's 200 and ETag and changes
 * nothing more), then the same key with another body (422, and nothing changes).
 */
import fc from 'fast-check';
import { isRecord, satisfying, type OperationSpec } from '../openapi-kit/index.ts';
import type { FilePart } from './generated-request.ts';
import { fileBytes, goodFiles } from './request-wire.ts';
import type { SchemaArbitraries } from '../openapi-kit/index.ts';
import { OwnRecordFixture, type OwnRecordOps } from './fixtures.ts';
import { MISSING_ID } from './singles.ts';
import type { Session } from './session.ts';
import { canonical, disproved, locationProblem, runSequences, runWalk, skipSequences, step, type Transcript } from './stateful.ts';
import { bodyJson, jsonRequest, requiresIfMatch, type Exchange, type Outgoing } from './exchange.ts';

type Row = Record<string, unknown>;

interface Model {
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
const reversed = (fields: Row): Row => Object.fromEntries(Object.entries(fields).reverse());

/** A file of the same type with other bytes, where verify can make one (a PNG); else the same file. */
const otherBytes = (upload: FilePart): FilePart =>
  upload.type === 'image/png' ? { ...upload, file: 'png-big', bytes: fileBytes(upload).byteLength + 64 } : upload;

const emptyModel = (): Model => ({ fields: null, id: null, lastId: null, createdAt: undefined, upload: null, writer: null, tags: [] });

interface Real extends Transcript {
  fixture: OwnRecordFixture;
}

type Cmd = fc.AsyncCommand<Model, Real, false>;

/** A body as JSON or as multipart form data (with an optional upload). */
interface Payload {
  fields: Row;
  form: boolean;
  upload: FilePart | null;
}

/**
 * Text that reads back the same through a multipart form: no line breaks (they become CRLF); a list
 * (sent comma-separated) not empty, its items without edge spaces.
 */
const formSafe = (fields: Row): boolean =>
  Object.values(fields).every((v) =>
    Array.isArray(v)
      ? v.length > 0 && v.every((t) => typeof t === 'string' && t === t.trim() && t !== '' && !/[\r\n]/.test(t))
      : typeof v !== 'string' || !/[\r\n]/.test(v),
  );

export class OwnRecordModel {
  private readonly session: Session;
  private readonly ops: OwnRecordOps;
  private readonly arbs: SchemaArbitraries;

  constructor(session: Session, ops: OwnRecordOps, arbs: SchemaArbitraries) {
    this.session = session;
    this.ops = ops;
    this.arbs = arbs;
  }

  /** What the model is of, for the progress lines and time budget notes. */
  get name(): string {
    return this.ops.create.path;
  }

  get operations(): OperationSpec[] {
    const o = this.ops;
    return [o.mine, o.create, o.update, o.remove, o.file].filter((x): x is OperationSpec => x !== undefined);
  }

  private url(op: OperationSpec, id?: string): string {
    return this.session.target.url(op, id === undefined ? {} : { [this.ops.idParam]: id });
  }

  private outgoing(op: OperationSpec, id: string | undefined, p: Payload): Outgoing {
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

  private payloads(op: OperationSpec, minFields: number): fc.Arbitrary<Payload> {
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
  private mismatch(m: Model, body: unknown): string | null {
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

  private async readMine(m: Model, real: Real, blame: OperationSpec, what: string): Promise<void> {
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

  /** A request with an Idempotency-Key header. */
  /** The own record's path under the API (its update's or delete's, with its id), or null without either. */
  private ownPath(id: string): string | null {
    const op = this.ops.update ?? this.ops.remove;
    return op ? op.path.replace(`{${this.ops.idParam}}`, encodeURIComponent(id)) : null;
  }

  private keyed(out: Outgoing, header: string, key: string): Outgoing {
    const headers = new Headers(out.headers);
    headers.set(header, key);
    return { ...out, headers };
  }

  private create(p: Payload, key?: { header: string; value: string }): Cmd {
    const self = this;
    const op = this.ops.create;
    return {
      check: () => true,
      toString: () => `create(${p.form ? 'form' : 'json'}${p.upload ? ` + ${p.upload.type}` : ''})`,
      async run(m, real) {
        const exists = m.fields !== null;
        const plain = self.outgoing(op, undefined, p);
        const exchange = await step(self.session, real, op, key ? self.keyed(plain, key.header, key.value) : plain, {
          kind: 'exact',
          statuses: exists ? [409] : [201],
          why: exists ? 'creating a second own record' : 'creating the own record',
        });
        if (exists) return self.readMine(m, real, op, 'reading the own record after a refused second create');
        real.fixture.track(exchange);
        m.tags = [];
        self.noteTag(m, real, exchange, op);
        const body = bodyJson(exchange.response);
        if (!isRecord(body) || typeof body.id !== 'string') disproved(real, exchange, op, 'the 201 body has no string id');
        Object.assign(m, { fields: { ...p.fields }, id: body.id, lastId: body.id, createdAt: body.createdAt, writer: op });
        m.upload = p.upload ? { bytes: fileBytes(p.upload), type: p.upload.type } : null;
        const problem = self.mismatch(m, body);
        if (problem) disproved(real, exchange, op, `the 201 body is not the own record as sent: ${problem}`);
        const record = self.ownPath(body.id);
        const location = record === null ? null : locationProblem(exchange, record);
        if (location) disproved(real, exchange, op, location);
        await self.readMine(m, real, op, 'reading the created own record back');
      },
    };
  }

  private update(p: Payload, options: { listedTag?: boolean } = {}): Cmd {
    const self = this;
    const op = this.ops.update!;
    return {
      check: () => true,
      toString: () => `update(${p.form ? 'form' : 'json'}: ${Object.keys(p.fields).join(',')}${p.upload ? ` + ${p.upload.type}` : ''})`,
      async run(m, real) {
        const exists = m.fields !== null;
        const id = m.id ?? m.lastId ?? MISSING_ID;
        const current = m.tags.at(-1);
        // If-Match is a list (RFC 9110 13.1.1): one of its tags being current lets the change through.
        const listed = options.listedTag && exists && current !== undefined ? { ifMatch: `"verify-other-tag", ${current}` } : {};
        const exchange = await step(
          self.session,
          real,
          op,
          { ...self.outgoing(op, id, p), ...listed },
          {
            kind: 'exact',
            statuses: exists ? [200] : [404],
            why: exists
              ? `updating the own record${'ifMatch' in listed ? ` with If-Match ${listed.ifMatch}` : ''}`
              : 'updating an own record that does not exist',
          },
        );
        if (!exists) return;
        self.noteTag(m, real, exchange, op);
        m.fields = { ...m.fields, ...p.fields };
        if (p.upload) m.upload = { bytes: fileBytes(p.upload), type: p.upload.type };
        m.writer = op;
        const problem = self.mismatch(m, bodyJson(exchange.response));
        if (problem)
          disproved(real, exchange, op, `the 200 body is not the own record with the fields sent changed and the others kept: ${problem}`);
        await self.readMine(m, real, op, 'reading the updated own record back');
      },
    };
  }

  /** The update's `Idempotency-Key` header parameter, when it has one and documents the 422 a reused key answers. */
  /** The operation's Idempotency-Key header, when it takes one and documents the 422 of a key reused with another body. */
  private keyHeader(op: OperationSpec | undefined = this.ops.update): string | null {
    const param = op?.params.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
    return param && op?.statuses.includes('422') ? param.name : null;
  }

  /**
   * A create sent with an Idempotency-Key, then again: the first 201 comes back (body and ETag) and
   * nothing more is made; then the same key with another body: 422, and nothing changes.
   */
  private createKeyReuse(first: Payload, other: Payload, key: string): Cmd {
    const self = this;
    const op = this.ops.create;
    const header = this.keyHeader(op)!;
    const created = this.create(first, { header, value: key });
    return {
      check: (m) => m.fields === null,
      toString: () => 'createKeyReuse()',
      async run(m, real) {
        await created.run(m, real);
        const firstAnswer = real.log.findLast((e) => e.op?.id === op.id);
        const again = await step(self.session, real, op, self.keyed(self.outgoing(op, undefined, first), header, key), {
          kind: 'exact',
          statuses: [201],
          why: `the same create sent again with its ${header}`,
        });
        const got = (exchange: Exchange | undefined, name: string) => exchange?.response?.headers.get(name) ?? null;
        if (
          got(again, 'etag') !== got(firstAnswer, 'etag') ||
          got(again, 'location') !== got(firstAnswer, 'location') ||
          canonical(bodyJson(again.response)) !== canonical(bodyJson(firstAnswer?.response ?? null))
        )
          disproved(real, again, op, `the repeated create did not answer its first 201 again (body, ETag and Location)`);
        await self.readMine(m, real, op, `reading the own record after a create repeated with its ${header}`);
        await step(self.session, real, op, self.keyed(self.outgoing(op, undefined, other), header, key), {
          kind: 'exact',
          statuses: [422],
          why: `another create sent with the ${header} of an earlier one`,
        });
        // Another body, if only by the bytes of its file.
        const otherFile = first.upload && otherBytes(first.upload) !== first.upload ? { ...first, upload: otherBytes(first.upload) } : null;
        if (otherFile)
          await step(self.session, real, op, self.keyed(self.outgoing(op, undefined, otherFile), header, key), {
            kind: 'exact',
            statuses: [422],
            why: `the same create with another file (the same type, other bytes) sent with the ${header} of the first`,
          });
        await self.readMine(m, real, op, `reading the own record after a create refused for its reused ${header}`);
        // A key is one save, of one operation: the create's key on an update answers 422 too.
        const update = self.ops.update;
        const [change] = update
          ? fc.sample(self.payloads(update, 1), { seed: self.session.seedOf('walk:key on another operation'), numRuns: 1 })
          : [];
        if (update && change && self.keyHeader(update) !== null && m.id !== null) {
          await step(self.session, real, update, self.keyed(self.outgoing(update, m.id, change), self.keyHeader(update)!, key), {
            kind: 'exact',
            statuses: [422],
            why: `an update sent with the ${header} of a create`,
          });
          await self.readMine(m, real, update, `reading the own record after an update refused for the ${header} of a create`);
        }
      },
    };
  }

  /**
   * One update sent with an Idempotency-Key, then again (the first answer comes back, ETag and all,
   * and nothing more changes), then the same key with another body: 422, and nothing changes
   * (the IETF draft's answer; a server answering the first save again would drop the new edit unseen).
   */
  private keyReuse(first: Payload, other: Payload, key: string): Cmd {
    const self = this;
    const op = this.ops.update!;
    const header = this.keyHeader()!;
    const keyed = (id: string, p: Payload): Outgoing => {
      const out = self.outgoing(op, id, p);
      const headers = new Headers(out.headers);
      headers.set(header, key);
      return { ...out, headers };
    };
    return {
      check: (m) => m.id !== null,
      toString: () => 'keyReuse()',
      async run(m, real) {
        const id = m.id!;
        const saved = await step(self.session, real, op, keyed(id, first), {
          kind: 'exact',
          statuses: [200],
          why: `updating the own record with ${header} ${key}`,
        });
        self.noteTag(m, real, saved, op);
        m.fields = { ...m.fields, ...first.fields };
        if (first.upload) m.upload = { bytes: fileBytes(first.upload), type: first.upload.type };
        m.writer = op;
        // The same save: JSON with its keys in another order is the same value (RFC 8259: an object is unordered).
        const again = await step(self.session, real, op, keyed(id, first.form ? first : { ...first, fields: reversed(first.fields) }), {
          kind: 'exact',
          statuses: [200],
          why: `the same update sent again with its ${header}${first.form ? '' : ', its JSON keys in another order'}`,
        });
        const tag = again.response?.headers.get('etag') ?? null;
        if (tag !== m.tags.at(-1))
          disproved(
            real,
            again,
            op,
            `the repeated save answered the ETag ${tag ?? '(none)'}, not its first answer's ${m.tags.at(-1) ?? '(none)'}`,
          );
        await self.readMine(m, real, op, `reading the own record after a save repeated with its ${header}`);
        await step(self.session, real, op, keyed(id, other), {
          kind: 'exact',
          statuses: [422],
          why: `another update sent with the ${header} of an earlier one`,
        });
        await self.readMine(m, real, op, `reading the own record after an update refused for its reused ${header}`);
      },
    };
  }

  /** Keeps the ETag a write answered; the same tag as before the write is a version that did not change. */
  private noteTag(m: Model, real: Real, exchange: Exchange, op: OperationSpec): void {
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

  /** Another member (--other-header) is refused the own record: its update, its delete and its upload answer 403, and it stays as it was. */
  private foreign(p: Payload): Cmd {
    const self = this;
    return {
      check: (m) => m.id !== null,
      toString: () => 'asOtherMember()',
      async run(m, real) {
        const id = m.id!;
        const as = { credentials: 'other' as const, ifMatch: self.session.target.etag ?? '*' };
        if (self.ops.update)
          await step(
            self.session,
            real,
            self.ops.update,
            { ...self.outgoing(self.ops.update, id, p), ...as },
            {
              kind: 'exact',
              statuses: [403],
              why: "another member updating the member's own record (with its current ETag)",
            },
          );
        if (self.ops.remove)
          await step(
            self.session,
            real,
            self.ops.remove,
            { method: 'DELETE', url: self.url(self.ops.remove, id), ...as },
            {
              kind: 'exact',
              statuses: [403],
              why: "another member deleting the member's own record (with its current ETag)",
            },
          );
        if (self.ops.file)
          await step(
            self.session,
            real,
            self.ops.file,
            { method: 'GET', url: self.url(self.ops.file, id), credentials: 'other' },
            {
              kind: 'exact',
              statuses: [403],
              why: "another member reading the member's upload",
            },
          );
        await self.readMine(
          m,
          real,
          self.ops.update ?? self.ops.remove ?? self.ops.mine,
          "reading the own record after another member's refused changes",
        );
      },
    };
  }

  /** A change without If-Match answers 428; with an ETag from before the last write, 412 and the current ETag. Neither changes anything. */
  private preconditions(p: Payload): Cmd {
    const self = this;
    return {
      check: (m) => m.id !== null,
      toString: () => 'preconditions()',
      async run(m, real) {
        const id = m.id!;
        const changes: Array<[OperationSpec, () => Outgoing]> = [];
        if (self.ops.update && requiresIfMatch(self.ops.update))
          changes.push([self.ops.update, () => self.outgoing(self.ops.update!, id, p)]);
        if (self.ops.remove && requiresIfMatch(self.ops.remove))
          changes.push([self.ops.remove, () => ({ method: 'DELETE', url: self.url(self.ops.remove!, id) })]);
        for (const [op, out] of changes)
          await step(
            self.session,
            real,
            op,
            { ...out(), ifMatch: null },
            { kind: 'exact', statuses: [428], why: `${op.method} of the own record without If-Match` },
          );
        const [stale, current] = [m.tags.at(-2), m.tags.at(-1)];
        if (stale !== undefined && current !== undefined) {
          for (const [op, out] of changes) {
            const exchange = await step(
              self.session,
              real,
              op,
              { ...out(), ifMatch: stale },
              {
                kind: 'exact',
                statuses: [412],
                why: `${op.method} of the own record with the ETag it had before its last write (${stale})`,
              },
            );
            const tag = exchange.response?.headers.get('etag');
            if (tag !== current)
              disproved(real, exchange, op, `the 412 answer's ETag is ${tag ?? 'missing'}, not the own record's current ${current}`);
          }
        }
        // If-Match compares strongly (RFC 9110 13.1.1): the current tag made weak matches nothing.
        if (current?.startsWith('"'))
          for (const [op, out] of changes)
            await step(
              self.session,
              real,
              op,
              { ...out(), ifMatch: `W/${current}` },
              {
                kind: 'exact',
                statuses: [412],
                why: `${op.method} of the own record with If-Match W/${current} (a weak tag never matches)`,
              },
            );
        await self.readMine(
          m,
          real,
          self.ops.update ?? self.ops.remove ?? self.ops.mine,
          'reading the own record after changes refused for their If-Match',
        );
      },
    };
  }

  private remove(): Cmd {
    const self = this;
    const op = this.ops.remove!;
    return {
      check: () => true,
      toString: () => 'remove()',
      async run(m, real) {
        const exists = m.fields !== null;
        await step(
          self.session,
          real,
          op,
          { method: 'DELETE', url: self.url(op, m.id ?? m.lastId ?? MISSING_ID) },
          {
            kind: 'exact',
            statuses: exists ? [204] : [404],
            why: exists ? 'deleting the own record' : 'deleting an own record that does not exist',
          },
        );
        Object.assign(m, { fields: null, id: null, createdAt: undefined, upload: null, writer: op, tags: [] });
        await self.readMine(m, real, op, 'reading the own record after its delete');
      },
    };
  }

  private upload(): Cmd {
    const self = this;
    const op = this.ops.file!;
    return {
      check: (m) => m.id !== null || m.lastId !== null,
      toString: () => 'upload()',
      async run(m, real) {
        const has = m.fields !== null && m.upload !== null;
        const exchange = await step(
          self.session,
          real,
          op,
          { method: 'GET', url: self.url(op, m.id ?? m.lastId ?? MISSING_ID) },
          {
            kind: 'exact',
            statuses: has ? [200] : [404],
            why: has ? 'reading the uploaded upload' : 'reading an upload that is not there',
          },
        );
        if (!has || !m.upload) return;
        const r = exchange.response!;
        const type = (r.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        const same = r.body.byteLength === m.upload.bytes.byteLength && r.body.every((b, i) => b === m.upload!.bytes[i]);
        if (!same || type !== m.upload.type)
          disproved(
            real,
            exchange,
            m.writer ?? op,
            `the upload answered (${type}, ${r.body.byteLength} bytes) is not the one uploaded (${m.upload.type}, ${m.upload.bytes.byteLength} bytes)`,
          );
      },
    };
  }

  async run(): Promise<void> {
    const probe = new OwnRecordFixture(this.session, this.ops, this.arbs);
    const found = await probe.read();
    if (found !== null) {
      const why =
        found === undefined
          ? 'the own record could not be read'
          : 'the member already has one (x-one-per-caller): the sequences would change it';
      for (const op of this.operations) this.session.results.skip(op, 'stateful', why);
      return;
    }
    if (!(await this.walk())) return skipSequences(this.session, this.operations, 'the own record');
    if (!this.session.canSend) return;
    const commands: Array<fc.Arbitrary<Cmd>> = [fc.constant(this.readCmd())];
    commands.push(this.payloads(this.ops.create, 1).map((p) => this.create(p)));
    if (this.ops.update) commands.push(this.payloads(this.ops.update, 1).map((p) => this.update(p)));
    if (this.ops.remove) commands.push(fc.constant(this.remove()));
    if (this.ops.file) commands.push(fc.constant(this.upload()));
    this.session.activity = 'own record stateful';
    await runSequences(
      this.session,
      'own record',
      fc.tuple(this.payloads(this.ops.create, 1), fc.commands(commands, { maxCommands: 8 })),
      Math.max(3, Math.ceil(this.session.options.runs / 2)),
      async ([first, cmds], transcript) => {
        const fixture = new OwnRecordFixture(this.session, this.ops, this.arbs);
        const real: Real = Object.assign(transcript, { fixture });
        const model = emptyModel();
        try {
          await fc.asyncModelRun(() => ({ model, real }), [this.create(first), ...cmds]);
        } finally {
          await fixture.teardown();
        }
      },
    );
  }

  /**
   * The walk every run makes, whatever --runs says: create (with a file when the document takes
   * one; with its Idempotency-Key sent again, and again with another body) → a second create (409)
   * → read → the file as uploaded → update → read (the fields sent changed, the others kept) →
   * delete → read answers none → the file, an update and a delete of the deleted record answer 404
   * → a new create without a file (201) → its file answers 404 → delete.
   */
  private async walk(): Promise<boolean> {
    const seed = this.session.seedOf('walk:own record');
    const withUpload = this.payloads(this.ops.create, 1).filter((p) => p.upload !== null);
    const canUpload = this.ops.file !== undefined && this.ops.fileField !== undefined;
    const [created] = fc.sample(canUpload ? withUpload : this.payloads(this.ops.create, 1), { seed, numRuns: 1 });
    if (!created) return true;
    const [otherCreate] = fc.sample(this.payloads(this.ops.create, 1), { seed: seed + 4, numRuns: 1 });
    // With the create's Idempotency-Key (a fresh key each run), the walk's create is sent thrice: once,
    // again with the same key, and with another body under that key: other fields beside the same
    // file, when the first is a form with one (a body differing only in its text is another body).
    const createKey = this.keyHeader(this.ops.create);
    // The same fields (the other create's values where it has them) and the same file.
    const sameShape = (other: Row): Row => Object.fromEntries(Object.entries(created.fields).map(([k, v]) => [k, other[k] ?? v]));
    const otherBody =
      otherCreate && created.form && created.upload && formSafe(otherCreate.fields)
        ? { fields: sameShape(otherCreate.fields), form: true, upload: created.upload }
        : otherCreate;
    const steps: Cmd[] = [
      createKey !== null && otherBody && canonical(otherBody) !== canonical(created)
        ? this.createKeyReuse(created, otherBody, `verify-${crypto.randomUUID()}`)
        : this.create(created),
    ];
    // One each (x-one-per-caller): a second create is refused with 409, and changes nothing.
    if (otherCreate) steps.push(this.create(otherCreate));
    if (this.ops.file) steps.push(this.upload());
    // The update carries a file of another type when it can: the file read after it must be the new one.
    const newFile = (p: Payload) => p.upload !== null && p.upload.type !== created.upload?.type;
    const updates = this.ops.update ? this.payloads(this.ops.update, 1) : null;
    const [changed] = updates
      ? fc.sample(canUpload && this.takesAnotherFile() ? updates.filter(newFile) : updates, { seed: seed + 1, numRuns: 1 })
      : [];
    const probe = changed ?? created;
    if (this.session.target.otherHeaders.length > 0) steps.push(this.foreign(probe));
    else
      for (const op of [this.ops.update, this.ops.remove, this.ops.file])
        if (op?.secured)
          this.session.results.note(
            op,
            'stateful',
            "another member's access (403) not checked: give their credentials with --other-header",
          );
    if (changed) steps.push(this.update(changed, { listedTag: true }));
    if (changed?.upload && this.ops.file) steps.push(this.upload());
    // A key's saves as JSON, when the update takes it: sent again with its keys in another order, it is the same save.
    let updateKey: { key: string; first: Payload } | null = null;
    if (this.keyHeader() !== null) {
      const json = this.ops.update!.body?.content['application/json'] !== undefined;
      const candidates = this.payloads(this.ops.update!, 1);
      const [first, other] = fc.sample(json ? candidates.filter((p) => !p.form) : candidates, { seed: seed + 3, numRuns: 2 });
      // A fresh key each run: a key is one save for good, and a server may keep it across runs.
      if (first && other && canonical(first) !== canonical(other)) {
        updateKey = { key: `verify-${crypto.randomUUID()}`, first };
        steps.push(this.keyReuse(first, other, updateKey.key));
      }
    }
    steps.push(this.preconditions(probe));
    if (this.ops.remove) {
      steps.push(this.remove());
      if (this.ops.file) steps.push(this.upload());
      const [late] = this.ops.update ? fc.sample(this.payloads(this.ops.update, 1), { seed: seed + 2, numRuns: 1 }) : [];
      if (late) steps.push(this.update(late));
      steps.push(this.remove());
      // Gone for good: a new create is made (nothing of the deleted one is left to refuse it), and,
      // made without a file, its file answers 404.
      const [bare] = fc.sample(
        this.payloads(this.ops.create, 1).filter((p) => p.upload === null),
        { seed: seed + 5, numRuns: 1 },
      );
      if (bare) {
        steps.push(this.create(bare));
        if (this.ops.file) steps.push(this.upload());
        // A key is one save of one record: the first record's update key on this one answers 422.
        if (updateKey) steps.push(this.keyOnAnotherRecord(updateKey.first, updateKey.key));
        steps.push(this.remove());
      }
    }
    this.session.activity = 'own record walk';
    return runWalk(this.session, 'the own record', async (transcript) => {
      const fixture = new OwnRecordFixture(this.session, this.ops, this.arbs);
      const real: Real = Object.assign(transcript, { fixture });
      const model = emptyModel();
      try {
        for (const cmd of steps) if (cmd.check(model)) await cmd.run(model, real);
      } finally {
        await fixture.teardown();
      }
    });
  }

  /** Whether the update's file field takes more than one type (so an update can bring a file of another type). */
  private takesAnotherFile(): boolean {
    const form = this.ops.update?.body?.content['multipart/form-data'];
    const field = this.ops.fileField;
    return form !== undefined && field !== undefined && goodFiles(form, field).length > 1;
  }

  /** An update of a new own record sent with the key of an update of the one before (deleted): 422, and nothing changes. */
  private keyOnAnotherRecord(p: Payload, key: string): Cmd {
    const self = this;
    const op = this.ops.update!;
    const header = this.keyHeader()!;
    return {
      check: (m) => m.id !== null,
      toString: () => 'keyOnAnotherRecord()',
      async run(m, real) {
        await step(self.session, real, op, self.keyed(self.outgoing(op, m.id!, p), header, key), {
          kind: 'exact',
          statuses: [422],
          why: `an update of a new own record sent with the ${header} of an update of the one before`,
        });
        await self.readMine(m, real, op, `reading the own record after an update refused for the ${header} of another record`);
      },
    };
  }

  private readCmd(): Cmd {
    const self = this;
    return {
      check: () => true,
      toString: () => 'readMine()',
      async run(m, real) {
        await self.readMine(m, real, m.writer ?? self.ops.mine, 'reading the own record');
      },
    };
  }
}
