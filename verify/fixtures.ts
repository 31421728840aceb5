/**
 * Records verify may change, and putting the server back as it was found. verify only replaces or
 * deletes what it created itself. When a collection is at its documented cap (`x-max-records`),
 * one record is taken out for the run and put back afterwards, with its id, as the document allows
 * a create to carry one. A own record that exists before the run is the member's: it is read, never
 * changed; without one, verify creates its own and deletes it at the end.
 */
import fc from 'fast-check';
import {
  follow,
  isJsonMedia,
  isRecord,
  satisfying,
  type CollectionSpec,
  type OpenApiSpec,
  type OperationSpec,
} from '../openapi-kit/index.ts';
import type { JsonSchema, SchemaArbitraries } from '../openapi-kit/index.ts';
import type { Session } from './session.ts';
import { bodyJson, resourceOf, type Exchange } from './exchange.ts';

type Row = Record<string, unknown> & { id?: unknown };

/** What a list answer says a collection holds. */
export interface Listing {
  /** Every id listed, each once, in the order listed. */
  ids: string[];
  /** The records fit to act on: valid against the list's item schema, one per id. */
  records: Row[];
}

/** A valid value of a schema, drawn with a seed and checked by ajv: the same value for the same seed. */
function sampleValid(
  session: Session,
  arbs: SchemaArbitraries,
  pointer: string,
  schema: JsonSchema,
  seed: number,
  without: string[] = [],
): Row {
  const arb = satisfying(
    arbs.valid(schema).map((v) => (isRecord(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => !without.includes(k))) : v)),
    (v) => session.spec.validator.atPointer(pointer, v).length === 0,
    `a valid value of #${pointer}`,
  );
  const [value] = fc.sample(arb, { seed, numRuns: 1 });
  return value as Row;
}

const idOf = (exchange: Exchange, field = 'id'): string | undefined => {
  const body = bodyJson(exchange.response);
  const id = isRecord(body) ? body[field] : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};

export class CollectionFixtures {
  /** Records taken out to make room, to be put back. */
  private readonly borrowed: Row[] = [];
  /** Ids this run created and has not deleted yet. */
  readonly created = new Set<string>();
  private fixture: { id: string; raw: unknown; body: Row } | null = null;
  /** The target's count of writes when the fixture was last seen to exist (a read answered it, or a create made it). */
  private seenAt = -1;
  /**
   * The path parameters the collection's paths hold besides the record's id: those of the parent
   * record of a collection under one (./nested-fixtures.ts), none for a top-level collection.
   */
  scope: Record<string, string> = {};

  private readonly session: Session;
  readonly collection: CollectionSpec;
  private readonly arbs: SchemaArbitraries;

  constructor(session: Session, collection: CollectionSpec, arbs: SchemaArbitraries) {
    this.session = session;
    this.collection = collection;
    this.arbs = arbs;
  }

  /** The writes the collection's resource has had (Target.writesTo). */
  private get writes(): number {
    return this.session.target.writesTo(resourceOf(this.collection.read));
  }

  /** A valid input of the collection (no id), the same for the same key. */
  sample(key: string): Row {
    const media = this.collection.create.body!.content['application/json']!;
    return sampleValid(this.session, this.arbs, media.pointer, media.schema, this.session.seedOf(`${this.collection.name}:${key}`), [
      this.collection.idField,
    ]);
  }

  /**
   * What the collection holds now, as its list answers: every id listed (each once), and the
   * records fit to act on: each valid against the list's item schema, once per id. Null when the
   * list cannot be read. An answer that breaks the document is failed where it is judged (its
   * operation's "responses"); nothing here acts on what in it is broken.
   */
  async listing(): Promise<Listing | null> {
    const exchange = await this.session.probe(this.collection.list, this.at(), undefined, {
      kind: 'exact',
      statuses: [200],
      why: 'listing the collection',
    });
    const body = bodyJson(exchange.response);
    if (exchange.response?.status !== 200 || !Array.isArray(body)) return null;
    const ids = new Set<string>();
    const records: Row[] = [];
    const items = this.itemPointer();
    for (const row of body) {
      const raw = isRecord(row) ? row[this.collection.idField] : undefined;
      if ((typeof raw !== 'string' && typeof raw !== 'number') || ids.has(String(raw))) continue;
      ids.add(String(raw));
      if (items === null || this.session.spec.validator.atPointer(items, row).length === 0) records.push(row as Row);
    }
    return { ids: [...ids], records };
  }

  /** The records listed now that are fit to act on (see listing), or null when the list cannot be read. */
  async list(): Promise<Row[] | null> {
    return (await this.listing())?.records ?? null;
  }

  /** The pointer of the list answer's item schema, or null when the document states none. */
  private itemPointer(): string | null {
    const content = this.collection.list.responses['200']?.content?.find((c) => isJsonMedia(c.media));
    if (!content?.pointer) return null;
    const { node, pointer } = follow(this.session.spec.doc, content.schema, content.pointer);
    return isRecord(node.items) ? `${pointer}/items` : null;
  }

  /** Whether the collection's create accepts a record as it is listed: only such a record can be put back. */
  private canPutBack(row: Row): boolean {
    const media = this.collection.create.body?.content['application/json'];
    return media !== undefined && this.session.spec.validator.atPointer(media.pointer, row).length === 0;
  }

  /**
   * Makes room for `slots` records when the collection is at its cap: takes out the last records
   * listed that can be put back. Whether there is room now (false also when the list cannot be read).
   */
  async makeRoom(slots: number): Promise<boolean> {
    const cap = this.collection.maxRecords;
    if (cap === undefined) return true;
    const listed = await this.listing();
    if (!listed) return false;
    let excess = listed.ids.length + slots - cap;
    if (excess <= 0) return true;
    if (!this.collection.remove) return false;
    for (const row of [...listed.records].reverse()) {
      if (excess <= 0) break;
      if (!this.canPutBack(row)) continue;
      const exchange = await this.session.probe(this.collection.remove, this.at(String(row[this.collection.idField])), undefined, {
        kind: 'exact',
        statuses: this.collection.removedStatuses,
        why: 'taking a record out to make room',
      });
      if (!this.collection.removedStatuses.includes(exchange.response?.status ?? 0)) continue;
      this.borrowed.push(row);
      excess--;
    }
    return excess <= 0;
  }

  /**
   * Notes a record created by an exchange (201 to the collection's create), to delete it at the end,
   * with the headers the create's links carry from its answer into the delete (a key the create
   * answered once): a record made without credentials is the run's to delete only with them.
   */
  track(exchange: Exchange): void {
    if (exchange.op?.id !== this.collection.create.id || exchange.response?.status !== 201) return;
    const id = idOf(exchange, this.collection.idField);
    if (id === undefined) return;
    this.created.add(id);
    const remove = this.collection.remove;
    const answer = exchange.response.headers;
    const carried: Array<[string, string]> = [];
    for (const link of this.session.spec.links) {
      if (link.from !== this.collection.create.id || link.to !== remove?.id || link.status !== '201') continue;
      for (const [name, expression] of Object.entries(link.parameters)) {
        const header = /^(?:header\.)?(.+)$/.exec(name)![1]!;
        const from = typeof expression === 'string' ? /^\$response\.header\.(.+)$/.exec(expression)?.[1] : undefined;
        const value = from === undefined ? null : answer.get(from);
        if (value !== null && remove.params.some((p) => p.in === 'header' && p.name === header)) carried.push([header, value]);
      }
    }
    if (carried.length > 0) this.carried.set(id, carried);
  }

  /** The headers each created record's delete takes from its create's answer (see track). */
  private readonly carried = new Map<string, Array<[string, string]>>();

  /** Notes a record deleted by an exchange (a documented 2xx from the collection's delete). */
  untrack(exchange: Exchange, id: string): void {
    if (exchange.op?.id === this.collection.remove?.id && this.collection.removedStatuses.includes(exchange.response?.status ?? 0))
      this.created.delete(id);
  }

  /** The path parameters of a request to the collection: its scope's, and the record's id when given. */
  protected at(id?: string): Record<string, string> {
    return id === undefined ? { ...this.scope } : { ...this.scope, [this.collection.idParam]: id };
  }

  /** Creates the run's own record, for the operations on one record. */
  async setup(): Promise<void> {
    const room = await this.makeRoom(1);
    const body = this.sample('fixture');
    const exchange = await this.session.probe(
      this.collection.create,
      this.at(),
      body,
      room
        ? { kind: 'exact', statuses: [201], why: 'creating a record to work on' }
        : {
            kind: 'exact',
            statuses: [201, 422],
            why: 'creating a record to work on in a collection that may be full (no record could be taken out)',
          },
    );
    this.track(exchange);
    const id = idOf(exchange, this.collection.idField);
    const created = bodyJson(exchange.response);
    // The id as the server wrote it (a number stays a number), for creating the record again.
    if (id !== undefined && isRecord(created)) {
      this.fixture = { id, raw: created[this.collection.idField], body };
      this.seenAt = this.writes;
    }
  }

  /** A valid input of the collection that names the run's own record's id: a create the server must refuse with 409. Null without one. */
  async conflicting(key: string): Promise<Row | null> {
    const id = await this.ensure();
    if (id === null || !this.fixture) return null;
    return { ...this.sample(key), [this.collection.idField]: this.fixture.raw };
  }

  /** Another record of the run, from the sample of `key` with `fields` over it (deleted at teardown); its id, or null when none was made. */
  async another(key: string, fields: Row = {}): Promise<string | null> {
    if (!(await this.makeRoom(1))) return null;
    const exchange = await this.session.probe(
      this.collection.create,
      this.at(),
      { ...this.sample(key), ...fields },
      {
        kind: 'exact',
        statuses: [201],
        why: 'creating another record to work on',
      },
    );
    this.track(exchange);
    return exchange.response?.status === 201 ? (idOf(exchange, this.collection.idField) ?? null) : null;
  }

  /**
   * The run's own record, created again (with its id) when a request deleted it; null without one.
   * It is read first unless nothing was written since it was last seen: reads change nothing.
   */
  async ensure(): Promise<string | null> {
    if (!this.fixture) return null;
    const { id, raw, body } = this.fixture;
    if (this.seenAt === this.writes) return id;
    const read = await this.session.probe(this.collection.read, this.at(id), undefined);
    if (read.response?.status === 200) {
      this.seenAt = this.writes;
      return id;
    }
    const again = await this.session.probe(
      this.collection.create,
      this.at(),
      { ...body, [this.collection.idField]: raw },
      {
        kind: 'exact',
        statuses: [201],
        why: 'creating the record to work on again, with its id',
      },
    );
    this.track(again);
    if (again.response?.status !== 201) return null;
    this.seenAt = this.writes;
    return id;
  }

  /** Deletes what the run created and puts back what it took out. Always sent, whatever the budget. */
  async teardown(): Promise<void> {
    const remove = this.collection.remove;
    if (remove) {
      for (const id of [...this.created]) {
        const exchange = await this.session.probe(
          remove,
          this.at(id),
          undefined,
          { kind: 'unspecified' },
          { essential: true, headers: this.carried.get(id) ?? [] },
        );
        const status = exchange.response?.status ?? 0;
        if (this.collection.removedStatuses.includes(status) || status === 404) this.created.delete(id);
      }
    }
    // Taken from the end of the list, so put back last-taken first: a list in the order of creation
    // reads as it did before the run.
    for (const row of this.borrowed.splice(0).reverse()) {
      const exchange = await this.session.probe(
        this.collection.create,
        this.at(),
        row,
        { kind: 'exact', statuses: [201], why: 'putting back a record taken out' },
        { essential: true },
      );
      if (exchange.response?.status !== 201)
        this.session.results.notes.push(`could not put back record '${String(row.id)}' of ${this.collection.name}: ${JSON.stringify(row)}`);
    }
    this.fixture = null;
  }
}

/**
 * A record each caller has at most one of (a member's own record): its create says so with
 * `x-one-per-caller: true`, and the links of its create's answer lead to the rest. The target
 * without path parameters reads the caller's own (answering none with a 2xx without body); a
 * PATCH or PUT target changes it, a DELETE target deletes it, and a GET target with path
 * parameters whose answer is no JSON reads the file the create's form uploaded.
 */
export interface OwnRecordOps {
  mine: OperationSpec;
  create: OperationSpec;
  update?: OperationSpec;
  remove?: OperationSpec;
  /** Reads the file uploaded with the record (the form's file field). */
  file?: OperationSpec;
  /** The create form's file field that `file` reads back. */
  fileField?: string;
  /** The path parameter of the record's id. */
  idParam: string;
}

export function ownRecordOps(spec: Pick<OpenApiSpec, 'operations' | 'links' | 'doc'>): OwnRecordOps | null {
  const create = spec.operations.find((o) => {
    const raw = spec.doc.paths[o.path]?.[o.method.toLowerCase()];
    return isRecord(raw) && raw['x-one-per-caller'] === true;
  });
  if (!create) return null;
  const targets = spec.links
    .filter((l) => l.from === create.id && l.status.startsWith('2'))
    .map((l) => ({ link: l, op: spec.operations.find((o) => o.id === l.to)! }));
  const hasPathParams = (op: OperationSpec) => op.params.some((p) => p.in === 'path');
  const mine = targets.find((t) => t.op.method === 'GET' && !hasPathParams(t.op))?.op;
  if (!mine) return null;
  const out: OwnRecordOps = { mine, create, idParam: 'id' };
  const update = targets.find((t) => t.op.method === 'PATCH' || t.op.method === 'PUT');
  const remove = targets.find((t) => t.op.method === 'DELETE');
  const file = targets.find(
    (t) => t.op.method === 'GET' && hasPathParams(t.op) && !(t.op.responses['200']?.content ?? []).some((c) => isJsonMedia(c.media)),
  );
  if (update) out.update = update.op;
  if (remove) out.remove = remove.op;
  if (file) out.file = file.op;
  const fileField = create.body?.content['multipart/form-data']?.fileFields[0];
  if (file && fileField) out.fileField = fileField;
  const withId = update ?? remove ?? file;
  out.idParam = (withId && Object.keys(withId.link.parameters)[0]?.replace(/^path\./, '')) ?? 'id';
  return out;
}

export class OwnRecordFixture {
  /** The own record is this run's (created by it): it may be changed and is deleted at the end. */
  owned = false;
  id: string | null = null;
  /** The own record as found before the run (null: none), to tell at the end whether it was kept. */
  original: Row | null = null;
  /** The member had none when the run began (read as none, not unreadable): one left at the end is one the run made. */
  startedWithout = false;
  /** The target's count of writes when this run's record was last seen to exist. */
  private seenAt = -1;

  private readonly session: Session;
  readonly ops: OwnRecordOps;
  private readonly arbs: SchemaArbitraries;

  constructor(session: Session, ops: OwnRecordOps, arbs: SchemaArbitraries) {
    this.session = session;
    this.ops = ops;
    this.arbs = arbs;
  }

  /** Reads the member's own record: 200 (an own record) or 204 (none). */
  async read(essential = false): Promise<Row | null | undefined> {
    const exchange = await this.session.probe(this.ops.mine, {}, undefined, { kind: 'unspecified' }, { essential });
    const body = bodyJson(exchange.response);
    if (exchange.response?.status === 200 && isRecord(body)) return body as Row;
    if (exchange.response?.status === 204) return null;
    return undefined;
  }

  /** The writes the own record's resource has had (Target.writesTo). */
  private get writes(): number {
    return this.session.target.writesTo(resourceOf(this.ops.mine));
  }

  sample(key: string): Row {
    const media = this.ops.create.body!.content['application/json']!;
    return sampleValid(this.session, this.arbs, media.pointer, media.schema, this.session.seedOf(`own record:${key}`));
  }

  async setup(create: boolean): Promise<void> {
    const found = await this.read();
    if (found) {
      this.original = found;
      this.id = typeof found.id === 'string' ? found.id : null;
      return;
    }
    this.startedWithout = found === null;
    if (found === null && create) await this.ensure();
  }

  /**
   * The own record to work on: this run's, created when there is none (read first unless nothing
   * was written since it was last seen). Null when the member has one of their own.
   */
  async ensure(): Promise<string | null> {
    if (this.original) return null;
    if (this.owned && this.id) {
      if (this.seenAt === this.writes) return this.id;
      const found = await this.read();
      if (found && found.id === this.id) {
        this.seenAt = this.writes;
        return this.id;
      }
    }
    const exchange = await this.session.probe(this.ops.create, {}, this.sample('fixture'), {
      kind: 'exact',
      statuses: [201],
      why: 'creating an own record to work on',
    });
    this.track(exchange);
    if (exchange.response?.status !== 201) return null;
    this.seenAt = this.writes;
    return this.id;
  }

  /** Notes an own record created by an exchange. */
  track(exchange: Exchange): void {
    if (exchange.op?.id !== this.ops.create.id || exchange.response?.status !== 201) return;
    const id = idOf(exchange);
    if (id !== undefined) {
      this.owned = true;
      this.id = id;
    }
  }

  /** Deletes the run's own record. Always sent. */
  async teardown(): Promise<void> {
    if (this.original || !this.ops.remove) return;
    const found = await this.read(true);
    if (found && typeof found.id === 'string')
      await this.session.probe(
        this.ops.remove,
        { [this.ops.idParam]: found.id },
        undefined,
        { kind: 'exact', statuses: [204], why: 'deleting the own record this run created' },
        { essential: true },
      );
    this.owned = false;
    this.id = null;
  }
}
