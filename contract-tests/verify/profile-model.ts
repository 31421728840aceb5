/**
 * The stateful model of the member's profile, as the document describes it: `GET myprofile`
 * answers 204 while there is none and the profile once created; a member has one profile (a
 * second create answers 409); an update changes the fields sent and keeps the others; a delete
 * answers 204 and the profile is gone (204 again, 404 for its URLs); the avatar, once uploaded, is
 * answered as uploaded. Every run first walks it once the same way (see walk), whatever --runs
 * says, then runs generated sequences. Runs only when the member has no profile, and deletes its
 * own at the end.
 */
import fc from 'fast-check';
import { isRecord, type OperationSpec } from '../../mocks/openapi/index.ts';
import { fileBytes, goodFiles, type FilePart } from '../support/generated-requests.ts';
import type { SchemaArbitraries } from '../support/schema-arbitraries.ts';
import { ProfileFixture, type ProfileOps } from './fixtures.ts';
import { MISSING_ID } from './singles.ts';
import type { Session } from './session.ts';
import { canonical, disproved, runSequences, runWalk, skipSequences, step, type Transcript } from './stateful.ts';
import { bodyJson, jsonRequest, type Outgoing } from './target.ts';

type Row = Record<string, unknown>;

interface Model {
  /** The fields the profile must show (those sent), or null when there is none. */
  fields: Row | null;
  id: string | null;
  /** The last id a profile had, for requests after a delete. */
  lastId: string | null;
  createdAt: unknown;
  avatar: { bytes: Uint8Array; type: string } | null;
  /** The operation whose answer the model's state rests on. */
  writer: OperationSpec | null;
}

interface Real extends Transcript {
  fixture: ProfileFixture;
}

type Cmd = fc.AsyncCommand<Model, Real, false>;

/** A body as JSON or as multipart form data (with an optional avatar). */
interface Payload {
  fields: Row;
  form: boolean;
  avatar: FilePart | null;
}

/** Text that reads back the same through a multipart form: no line breaks (they become CRLF), tags without edge spaces. */
const formSafe = (fields: Row): boolean =>
  Object.entries(fields).every(([k, v]) =>
    Array.isArray(v)
      ? v.every((t) => typeof t === 'string' && t === t.trim() && t !== '' && !/[\r\n]/.test(t)) && (k !== 'interests' || v.length > 0)
      : typeof v !== 'string' || !/[\r\n]/.test(v),
  );

export class ProfileModel {
  constructor(
    private readonly session: Session,
    private readonly ops: ProfileOps,
    private readonly arbs: SchemaArbitraries,
  ) {}

  get operations(): OperationSpec[] {
    const o = this.ops;
    return [o.mine, o.create, o.update, o.remove, o.avatar].filter((x): x is OperationSpec => x !== undefined);
  }

  private url(op: OperationSpec, id?: string): string {
    return this.session.target.url(op, id === undefined ? {} : { [this.ops.idParam]: id });
  }

  private outgoing(op: OperationSpec, id: string | undefined, p: Payload): Outgoing {
    if (!p.form) return jsonRequest(op.method, this.url(op, id), p.fields);
    const form = new FormData();
    const parts: Array<{ name: string; value: string } | { name: string; file: Uint8Array; type: string; filename: string }> = [];
    for (const [name, value] of Object.entries(p.fields)) {
      const text = Array.isArray(value) ? value.join(',') : String(value);
      form.append(name, text);
      parts.push({ name, value: text });
    }
    if (p.avatar) {
      const bytes = fileBytes(p.avatar);
      form.append('avatar', new Blob([bytes], { type: p.avatar.type }), p.avatar.filename);
      parts.push({ name: 'avatar', file: bytes, type: p.avatar.type, filename: p.avatar.filename });
    }
    return { method: op.method, url: this.url(op, id), body: form, sent: { kind: 'form', parts, chunked: false } };
  }

  private payloads(op: OperationSpec, minFields: number): fc.Arbitrary<Payload> {
    const json = op.body?.content['application/json'];
    const form = op.body?.content['multipart/form-data'];
    const fields = json
      ? this.arbs
          .valid(json.schema)
          .filter(
            (v): v is Row =>
              isRecord(v) && Object.keys(v).length >= minFields && this.session.spec.validator.atPointer(json.pointer, v).length === 0,
          )
      : fc.constant<Row>({});
    const variants: Array<fc.Arbitrary<Payload>> = [fields.map((f) => ({ fields: f, form: false, avatar: null }))];
    const field = form?.fileFields.includes('avatar') ? 'avatar' : undefined;
    if (form && field) {
      variants.push(
        fc
          .tuple(fields.filter(formSafe), fc.option(fc.constantFrom(...goodFiles(form, field)), { nil: null }))
          .map(([f, avatar]) => ({ fields: f, form: true, avatar })),
      );
    }
    return fc.oneof(...variants);
  }

  /** The profile as the model says it is, compared field by field with an answer. */
  private mismatch(m: Model, body: unknown): string | null {
    if (!isRecord(body) || !m.fields) return 'the body is not a profile';
    if (body.id !== m.id) return `id is ${JSON.stringify(body.id)}, not ${JSON.stringify(m.id)}`;
    for (const [k, v] of Object.entries(m.fields))
      if (canonical(body[k]) !== canonical(v)) return `${k} is ${canonical(body[k])}, not ${canonical(v)}`;
    if (m.createdAt !== undefined && body.createdAt !== m.createdAt)
      return `createdAt changed from ${String(m.createdAt)} to ${String(body.createdAt)}`;
    if (m.avatar && typeof body.avatar !== 'string') return 'the avatar uploaded has no link';
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
        disproved(real, exchange, status === 200 ? blame : this.ops.mine, `${what}: expected 204 (no profile), got ${status ?? 'nothing'}`);
      return;
    }
    if (status !== 200)
      disproved(
        real,
        exchange,
        status === 204 ? blame : this.ops.mine,
        `${what}: expected 200 with the profile, got ${status ?? 'nothing'}`,
      );
    const problem = this.mismatch(m, bodyJson(exchange.response));
    if (problem) disproved(real, exchange, blame, `${what}: ${problem}`);
  }

  private create(p: Payload): Cmd {
    const self = this;
    const op = this.ops.create;
    return {
      check: () => true,
      toString: () => `create(${p.form ? 'form' : 'json'}${p.avatar ? ` + ${p.avatar.type}` : ''})`,
      async run(m, real) {
        const exists = m.fields !== null;
        const exchange = await step(self.session, real, op, self.outgoing(op, undefined, p), {
          kind: 'exact',
          statuses: exists ? [409] : [201],
          why: exists ? 'creating a second profile' : 'creating the profile',
        });
        if (exists) return self.readMine(m, real, op, 'reading the profile after a refused second create');
        real.fixture.track(exchange);
        const body = bodyJson(exchange.response);
        if (!isRecord(body) || typeof body.id !== 'string') disproved(real, exchange, op, 'the 201 body has no string id');
        Object.assign(m, { fields: { ...p.fields }, id: body.id, lastId: body.id, createdAt: body.createdAt, writer: op });
        m.avatar = p.avatar ? { bytes: fileBytes(p.avatar), type: p.avatar.type } : null;
        const problem = self.mismatch(m, body);
        if (problem) disproved(real, exchange, op, `the 201 body is not the profile as sent: ${problem}`);
        await self.readMine(m, real, op, 'reading the created profile back');
      },
    };
  }

  private update(p: Payload): Cmd {
    const self = this;
    const op = this.ops.update!;
    return {
      check: () => true,
      toString: () => `update(${p.form ? 'form' : 'json'}: ${Object.keys(p.fields).join(',')}${p.avatar ? ` + ${p.avatar.type}` : ''})`,
      async run(m, real) {
        const exists = m.fields !== null;
        const id = m.id ?? m.lastId ?? MISSING_ID;
        const exchange = await step(self.session, real, op, self.outgoing(op, id, p), {
          kind: 'exact',
          statuses: exists ? [200] : [404],
          why: exists ? 'updating the profile' : 'updating a profile that does not exist',
        });
        if (!exists) return;
        m.fields = { ...m.fields, ...p.fields };
        if (p.avatar) m.avatar = { bytes: fileBytes(p.avatar), type: p.avatar.type };
        m.writer = op;
        const problem = self.mismatch(m, bodyJson(exchange.response));
        if (problem)
          disproved(real, exchange, op, `the 200 body is not the profile with the fields sent changed and the others kept: ${problem}`);
        await self.readMine(m, real, op, 'reading the updated profile back');
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
            why: exists ? 'deleting the profile' : 'deleting a profile that does not exist',
          },
        );
        Object.assign(m, { fields: null, id: null, createdAt: undefined, avatar: null, writer: op });
        await self.readMine(m, real, op, 'reading the profile after its delete');
      },
    };
  }

  private avatar(): Cmd {
    const self = this;
    const op = this.ops.avatar!;
    return {
      check: (m) => m.id !== null || m.lastId !== null,
      toString: () => 'avatar()',
      async run(m, real) {
        const has = m.fields !== null && m.avatar !== null;
        const exchange = await step(
          self.session,
          real,
          op,
          { method: 'GET', url: self.url(op, m.id ?? m.lastId ?? MISSING_ID) },
          {
            kind: 'exact',
            statuses: has ? [200] : [404],
            why: has ? 'reading the uploaded avatar' : 'reading an avatar that is not there',
          },
        );
        if (!has || !m.avatar) return;
        const r = exchange.response!;
        const type = (r.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
        const same = r.body.byteLength === m.avatar.bytes.byteLength && r.body.every((b, i) => b === m.avatar!.bytes[i]);
        if (!same || type !== m.avatar.type)
          disproved(
            real,
            exchange,
            m.writer ?? op,
            `the avatar answered (${type}, ${r.body.byteLength} bytes) is not the one uploaded (${m.avatar.type}, ${m.avatar.bytes.byteLength} bytes)`,
          );
      },
    };
  }

  async run(): Promise<void> {
    const probe = new ProfileFixture(this.session, this.ops, this.arbs);
    const found = await probe.read();
    if (found !== null) {
      const why = found === undefined ? 'the profile could not be read' : 'the member has a profile: the sequences would change it';
      for (const op of this.operations) this.session.results.skip(op, 'stateful', why);
      return;
    }
    if (!(await this.walk())) return skipSequences(this.session, this.operations, 'the profile');
    if (!this.session.canSend) return;
    const commands: Array<fc.Arbitrary<Cmd>> = [fc.constant(this.readCmd())];
    commands.push(this.payloads(this.ops.create, 1).map((p) => this.create(p)));
    if (this.ops.update) commands.push(this.payloads(this.ops.update, 1).map((p) => this.update(p)));
    if (this.ops.remove) commands.push(fc.constant(this.remove()));
    if (this.ops.avatar) commands.push(fc.constant(this.avatar()));
    this.session.activity = 'profile stateful';
    await runSequences(
      this.session,
      'profile',
      fc.tuple(this.payloads(this.ops.create, 1), fc.commands(commands, { maxCommands: 8 })),
      Math.max(3, Math.ceil(this.session.options.runs / 2)),
      async ([first, cmds], transcript) => {
        const fixture = new ProfileFixture(this.session, this.ops, this.arbs);
        const real: Real = Object.assign(transcript, { fixture });
        const model: Model = { fields: null, id: null, lastId: null, createdAt: undefined, avatar: null, writer: null };
        try {
          await fc.asyncModelRun(() => ({ model, real }), [this.create(first), ...cmds]);
        } finally {
          await fixture.teardown();
        }
      },
    );
  }

  /**
   * The walk every run makes, whatever --runs says: create (with an avatar when the document takes
   * one) → read → the avatar as uploaded → update → read (the fields sent changed, the others kept)
   * → delete → read answers 204 → the avatar, an update and a delete of the deleted profile answer 404.
   */
  private async walk(): Promise<boolean> {
    const seed = this.session.seedOf('walk:profile');
    const withAvatar = this.payloads(this.ops.create, 1).filter((p) => p.avatar !== null);
    const canUpload = this.ops.create.body?.content['multipart/form-data']?.fileFields.includes('avatar') === true;
    const [created] = fc.sample(canUpload ? withAvatar : this.payloads(this.ops.create, 1), { seed, numRuns: 1 });
    if (!created) return true;
    const steps: Cmd[] = [this.create(created)];
    if (this.ops.avatar) steps.push(this.avatar());
    if (this.ops.update) {
      const [changed] = fc.sample(this.payloads(this.ops.update, 1), { seed: seed + 1, numRuns: 1 });
      if (changed) steps.push(this.update(changed));
    }
    if (this.ops.remove) {
      steps.push(this.remove());
      if (this.ops.avatar) steps.push(this.avatar());
      const [late] = this.ops.update ? fc.sample(this.payloads(this.ops.update, 1), { seed: seed + 2, numRuns: 1 }) : [];
      if (late) steps.push(this.update(late));
      steps.push(this.remove());
    }
    this.session.activity = 'profile walk';
    return runWalk(this.session, 'the profile', async (transcript) => {
      const fixture = new ProfileFixture(this.session, this.ops, this.arbs);
      const real: Real = Object.assign(transcript, { fixture });
      const model: Model = { fields: null, id: null, lastId: null, createdAt: undefined, avatar: null, writer: null };
      try {
        for (const cmd of steps) if (cmd.check(model)) await cmd.run(model, real);
      } finally {
        await fixture.teardown();
      }
    });
  }

  private readCmd(): Cmd {
    const self = this;
    return {
      check: () => true,
      toString: () => 'readMine()',
      async run(m, real) {
        await self.readMine(m, real, m.writer ?? self.ops.mine, 'reading the profile');
      },
    };
  }
}
