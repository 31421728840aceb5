/**
 * The stateful model of a REST collection, as the document describes one: a create answers 201
 * with the record as sent plus its id (the id sent, or "the next numeric id"), 409 when the id
 * exists, 422 at the cap (`x-max-records`); the created record is then readable by id and present
 * in the list; a PUT replaces the record, and a later GET answers what it stored; a DELETE answers
 * 204 and a later GET 404; the list filters by equality on the documented query parameters.
 *
 * Every run first walks each collection once the same way (create, read, list, replace, read, list,
 * delete, read, list), whatever --runs says; then sequences of such commands run as fast-check
 * model-based tests (`fc.commands` + `fc.asyncModelRun`), each on top of what the server holds,
 * touching only records the sequence created, and cleaning them up afterwards. When a read
 * disproves a write, the write is blamed.
 */
import fc from 'fast-check';
import { compareSortValues, isRecord, satisfying, shapeOf, type CollectionSpec, type OperationSpec } from '../openapi-kit/index.ts';
import type { SchemaArbitraries } from '../openapi-kit/index.ts';
import { CollectionFixtures } from './fixtures.ts';
import type { Session } from './session.ts';
import { canonical, disproved, locationProblem, runSequences, runWalk, skipSequences, step, type Transcript } from './stateful.ts';
import { bodyJson, type Exchange, jsonRequest, type Outgoing } from './exchange.ts';

type Row = Record<string, unknown>;

interface Model {
  /** Every record believed present, with the operation whose answer said so. */
  records: Map<string, { value: Row; writer: OperationSpec }>;
  /** Ids this sequence created, in order (some may be deleted since). */
  owned: string[];
  /** Owned ids deleted since, with the operation that deleted them. */
  deleted: Map<string, OperationSpec>;
}

interface Real extends Transcript {
  fixtures: CollectionFixtures;
}

type Cmd = fc.AsyncCommand<Model, Real, false>;

const isNumericId = (id: string) => /^\d+$/.test(id);

export class CollectionModel {
  private readonly c: CollectionSpec;
  private readonly session: Session;
  private readonly arbs: SchemaArbitraries;

  constructor(session: Session, collection: CollectionSpec, arbs: SchemaArbitraries) {
    this.session = session;
    this.c = collection;
    this.arbs = arbs;
  }

  /** What the model is of, for the progress lines and time budget notes. */
  get name(): string {
    return this.c.path;
  }

  /** An id as its record holds it: a number where the id parameter's schema is numeric, else the text. */
  private typedId(id: string): unknown {
    const param = this.c.read.params.find((p) => p.name === this.c.idParam);
    if (!param) return id;
    const shape = shapeOf(this.session.spec.doc, param.schema, param.pointer);
    return (shape === 'integer' || shape === 'number') && /^-?\d+(\.\d+)?$/.test(id) ? Number(id) : id;
  }

  /** The operations the model exercises. */
  get operations(): OperationSpec[] {
    const c = this.c;
    return [c.list, c.create, c.read, c.replace, c.remove].filter((o): o is OperationSpec => o !== undefined);
  }

  private url(op: OperationSpec, id?: string, query: Array<[string, string]> = []): string {
    return this.session.target.url(op, id === undefined ? {} : { [this.c.idParam]: id }, query);
  }

  private jsonOut(op: OperationSpec, id: string | undefined, value: unknown): Outgoing {
    return jsonRequest(op.method, this.url(op, id), value);
  }

  /** Reads one record back: what the server holds now (null: 404), or the sequence ends. */
  private async readBack(real: Real, id: string, blame: OperationSpec, what: string): Promise<{ exchange: Exchange; value: Row | null }> {
    const exchange = await step(
      this.session,
      real,
      this.c.read,
      { method: 'GET', url: this.url(this.c.read, id) },
      { kind: 'unspecified' },
    );
    const status = exchange.response?.status;
    if (status === 404) return { exchange, value: null };
    const body = bodyJson(exchange.response);
    if (status !== 200 || !isRecord(body)) disproved(real, exchange, blame, `${what}: GET answered ${status ?? 'nothing'}, not 200 or 404`);
    return { exchange, value: body };
  }

  private async listed(real: Real, query: Array<[string, string]> = []): Promise<{ exchange: Exchange; rows: Row[] }> {
    const exchange = await step(
      this.session,
      real,
      this.c.list,
      { method: 'GET', url: this.url(this.c.list, undefined, query) },
      {
        kind: 'exact',
        statuses: [200],
        why: query.length > 0 ? `listing with ${query.map(([k, v]) => `${k}=${v}`).join('&')}` : 'listing the collection',
      },
    );
    const body = bodyJson(exchange.response);
    if (!Array.isArray(body)) disproved(real, exchange, this.c.list, 'the list is not a JSON array');
    const rows = body.filter(isRecord);
    const order = this.c.order;
    if (order) {
      const sign = order.descending ? -1 : 1;
      const at = rows.findIndex((row, i) => i > 0 && sign * compareSortValues(rows[i - 1]![order.field], row[order.field]) > 0);
      if (at > 0)
        disproved(
          real,
          exchange,
          this.c.list,
          `the list is not ordered by ${order.descending ? '-' : ''}${order.field} (its x-sort): ${JSON.stringify(rows[at - 1]![order.field])} comes before ${JSON.stringify(rows[at]![order.field])}`,
        );
    }
    return { exchange, rows };
  }

  /** The API-relative path of a record, as the item path names it (`/pets/4`). */
  private itemPath(id: string): string {
    return this.c.itemPath.replace(`{${this.c.idParam}}`, encodeURIComponent(id));
  }

  /** Statuses the document allows a create now, and why. */
  private createExpectation(m: Model, id: string | undefined): { statuses: number[]; why: string } {
    const cap = this.c.maxRecords;
    const full = cap !== undefined && m.records.size >= cap;
    if (id !== undefined && m.records.has(id))
      return { statuses: full ? [409, 422] : [409], why: `creating a record with the id '${id}', which exists` };
    if (full) return { statuses: [422], why: `creating a record in ${this.c.name}, which holds ${m.records.size} of at most ${cap}` };
    const numeric = [...m.records.keys()].filter(isNumericId).map(Number);
    if (id === undefined && this.c.sequentialIds && numeric.length > 0 && !Number.isSafeInteger(Math.max(...numeric) + 1))
      return { statuses: [201, 422], why: 'creating a record when the next numeric id is past the safe integers' };
    return { statuses: [201], why: `creating a record in ${this.c.name}` };
  }

  private commands(): Array<fc.Arbitrary<Cmd>> {
    const input = this.input()!;
    const idSchema = this.c.read.params.find((p) => p.name === this.c.idParam);
    const newId = idSchema
      ? satisfying(
          this.arbs.valid(idSchema.schema),
          (v): v is string => typeof v === 'string' && this.session.spec.validator.atPointer(idSchema.pointer, v).length === 0,
          `a string id of ${this.c.itemPath} (#${idSchema.pointer})`,
        )
      : fc.constant('verify-1');
    const out: Array<fc.Arbitrary<Cmd>> = [
      input.map((v) => this.create(v, undefined)),
      fc.tuple(input, newId).map(([v, id]) => this.create(v, id)),
      fc.tuple(input, fc.nat()).map(([v, n]) => this.createExisting(v, n)),
      fc.nat().map((n) => this.read(n)),
      newId.map((id) => this.readMissing(id)),
      fc.constant(this.list()),
      fc.tuple(fc.nat(), fc.nat()).map(([n, k]) => this.listFiltered(n, k)),
    ];
    if (this.c.replace) out.push(fc.tuple(fc.nat(), input, fc.boolean()).map(([n, v, withId]) => this.replace(n, v, withId)));
    if (this.c.remove) out.push(fc.nat().map((n) => this.remove(n)));
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Commands
  // ---------------------------------------------------------------------------------------------

  private create(value: Row, id: string | undefined): Cmd {
    const self = this;
    return {
      check: () => true,
      toString: () => `create(${canonical(id === undefined ? value : { ...value, [self.c.idField]: id })})`,
      async run(m, real) {
        const sent = id === undefined ? value : { ...value, [self.c.idField]: id };
        const expected = self.createExpectation(m, id);
        const exchange = await step(self.session, real, self.c.create, self.jsonOut(self.c.create, undefined, sent), {
          kind: 'exact',
          ...expected,
        });
        if (exchange.response?.status !== 201) return;
        real.fixtures.track(exchange);
        const body = bodyJson(exchange.response);
        const rawId = isRecord(body) ? body[self.c.idField] : undefined;
        if (typeof rawId !== 'string' && typeof rawId !== 'number')
          disproved(real, exchange, self.c.create, `the 201 body has no ${self.c.idField} (a string or a number)`);
        const newId = String(rawId);
        if (id !== undefined && newId !== id)
          disproved(real, exchange, self.c.create, `the record was created with the id '${newId}', not the '${id}' sent`);
        if (id === undefined && self.c.sequentialIds) {
          const numeric = [...m.records.keys()].filter(isNumericId).map(Number);
          const ok = isNumericId(newId) && !m.records.has(newId) && numeric.every((n) => Number(newId) > n);
          if (!ok)
            disproved(
              real,
              exchange,
              self.c.create,
              `the generated id '${newId}' is not the next numeric id (ids present: ${[...m.records.keys()].join(', ') || 'none'})`,
            );
        }
        const location = locationProblem(exchange, self.itemPath(newId));
        if (location) disproved(real, exchange, self.c.create, location);
        const expectedRecord = { ...value, [self.c.idField]: rawId };
        if (canonical(body) !== canonical(expectedRecord))
          disproved(
            real,
            exchange,
            self.c.create,
            `the 201 body is not the record as sent: sent ${canonical(expectedRecord)}, got ${canonical(body)}`,
          );
        m.records.set(newId, { value: expectedRecord, writer: self.c.create });
        m.owned.push(newId);
        m.deleted.delete(newId);
        // Created: readable by id, and present in the list.
        const back = await self.readBack(real, newId, self.c.create, 'reading the created record back');
        if (back.value === null) disproved(real, back.exchange, self.c.create, `the created record '${newId}' is not readable by id (404)`);
        if (canonical(back.value) !== canonical(expectedRecord))
          disproved(
            real,
            back.exchange,
            self.c.create,
            `GET answers ${canonical(back.value)}, not the record created ${canonical(expectedRecord)}`,
          );
        await self.checkList(m, real);
      },
    };
  }

  private createExisting(value: Row, n: number): Cmd {
    const self = this;
    return {
      check: (m) => m.records.size > 0,
      toString: () => `createExisting(#${n})`,
      async run(m, real) {
        const ids = [...m.records.keys()];
        const id = ids[n % ids.length]!;
        const exchange = await step(
          self.session,
          real,
          self.c.create,
          self.jsonOut(self.c.create, undefined, { ...value, [self.c.idField]: self.typedId(id) }),
          {
            kind: 'exact',
            ...self.createExpectation(m, id),
          },
        );
        real.fixtures.track(exchange);
      },
    };
  }

  private pick(m: Model, n: number): string | undefined {
    return m.owned.length === 0 ? undefined : m.owned[n % m.owned.length];
  }

  private read(n: number): Cmd {
    const self = this;
    return {
      check: (m) => m.owned.length > 0,
      toString: () => `read(#${n})`,
      async run(m, real) {
        const id = self.pick(m, n)!;
        const known = m.records.get(id);
        const back = await self.readBack(real, id, known?.writer ?? m.deleted.get(id) ?? self.c.read, `reading '${id}'`);
        if (known) {
          if (back.value === null)
            disproved(real, back.exchange, known.writer, `record '${id}' answers 404 after ${known.writer.id} answered it stored`);
          if (canonical(back.value) !== canonical(known.value))
            disproved(
              real,
              back.exchange,
              known.writer,
              `GET answers ${canonical(back.value)}, not what ${known.writer.id} stored: ${canonical(known.value)}`,
            );
        } else if (back.value !== null) {
          const remover = m.deleted.get(id) ?? self.c.read;
          disproved(real, back.exchange, remover, `record '${id}' is still readable after ${remover.id} answered it deleted`);
        }
      },
    };
  }

  private readMissing(id: string): Cmd {
    const self = this;
    return {
      check: (m) => !m.records.has(id) && !m.owned.includes(id),
      toString: () => `readMissing(${JSON.stringify(id)})`,
      async run(_m, real) {
        await step(
          self.session,
          real,
          self.c.read,
          { method: 'GET', url: self.url(self.c.read, id) },
          {
            kind: 'exact',
            statuses: [404],
            why: `reading '${id}', which no record has`,
          },
        );
      },
    };
  }

  private replace(n: number, value: Row, withId: boolean): Cmd {
    const self = this;
    const replaceOp = this.c.replace!;
    return {
      check: (m) => m.owned.length > 0,
      toString: () => `replace(#${n}, ${canonical(value)}${withId ? ', with id' : ''})`,
      async run(m, real) {
        const id = self.pick(m, n)!;
        const present = m.records.has(id);
        const sent = withId ? { ...value, [self.c.idField]: self.typedId(id) } : value;
        const exchange = await step(self.session, real, replaceOp, self.jsonOut(replaceOp, id, sent), {
          kind: 'exact',
          statuses: present ? [200] : [404],
          why: present ? `replacing '${id}'` : `replacing '${id}', which was deleted`,
        });
        if (!present) return;
        const expectedRecord = { ...value, [self.c.idField]: self.typedId(id) };
        const body = bodyJson(exchange.response);
        if (canonical(body) !== canonical(expectedRecord))
          disproved(
            real,
            exchange,
            replaceOp,
            `the 200 body is not the record as replaced: sent ${canonical(expectedRecord)}, got ${canonical(body)}`,
          );
        m.records.set(id, { value: expectedRecord, writer: replaceOp });
        const back = await self.readBack(real, id, replaceOp, 'reading the replaced record back');
        if (back.value === null || canonical(back.value) !== canonical(expectedRecord))
          disproved(
            real,
            back.exchange,
            replaceOp,
            `a GET after the PUT answers ${back.value === null ? '404' : canonical(back.value)}, not what the PUT stored: ${canonical(expectedRecord)}`,
          );
      },
    };
  }

  /** A replace whose body names another id than the URL's (`x-body-id-matches-path`): 400, and the record is as it was. */
  private replaceWithOtherId(n: number, value: Row, otherId: string): Cmd {
    const self = this;
    const replaceOp = this.c.replace!;
    return {
      check: (m) => m.owned.some((id) => m.records.has(id) && id !== otherId),
      toString: () => `replaceWithOtherId(#${n}, ${JSON.stringify(otherId)})`,
      async run(m, real) {
        const present = m.owned.filter((id) => m.records.has(id) && id !== otherId);
        const id = present[n % present.length]!;
        const known = m.records.get(id)!;
        await step(self.session, real, replaceOp, self.jsonOut(replaceOp, id, { ...value, [self.c.idField]: otherId }), {
          kind: 'exact',
          statuses: [400],
          why: `replacing '${id}' with a body whose ${self.c.idField} is '${otherId}' (x-body-id-matches-path)`,
        });
        const back = await self.readBack(real, id, replaceOp, 'reading the record back after a refused replace');
        if (back.value === null || canonical(back.value) !== canonical(known.value))
          disproved(
            real,
            back.exchange,
            replaceOp,
            `after a replace refused for its body's ${self.c.idField}, GET answers ${back.value === null ? '404' : canonical(back.value)}, not the record as it was: ${canonical(known.value)}`,
          );
      },
    };
  }

  private remove(n: number): Cmd {
    const self = this;
    const removeOp = this.c.remove!;
    return {
      check: (m) => m.owned.length > 0,
      toString: () => `remove(#${n})`,
      async run(m, real) {
        const id = self.pick(m, n)!;
        const present = m.records.has(id);
        const exchange = await step(
          self.session,
          real,
          removeOp,
          { method: 'DELETE', url: self.url(removeOp, id) },
          {
            kind: 'exact',
            statuses: present ? self.c.removedStatuses : [404],
            why: present ? `deleting '${id}'` : `deleting '${id}' again`,
          },
        );
        if (!present) return;
        real.fixtures.untrack(exchange, id);
        m.records.delete(id);
        m.deleted.set(id, removeOp);
        const back = await self.readBack(real, id, removeOp, 'reading the deleted record back');
        if (back.value !== null)
          disproved(
            real,
            back.exchange,
            removeOp,
            `record '${id}' is still readable after the DELETE answered ${exchange.response?.status}`,
          );
        await self.checkList(m, real);
      },
    };
  }

  private list(): Cmd {
    const self = this;
    return {
      check: () => true,
      toString: () => 'list()',
      async run(m, real) {
        await self.checkList(m, real);
      },
    };
  }

  /** The list holds every record the sequence created and did not delete, as stored, and none it deleted. */
  private async checkList(m: Model, real: Real): Promise<void> {
    const { exchange, rows } = await this.listed(real);
    const byId = new Map(rows.map((r) => [String(r[this.c.idField]), r]));
    for (const id of m.owned) {
      const known = m.records.get(id);
      const row = byId.get(id);
      if (known && (row === undefined || canonical(row) !== canonical(known.value))) {
        // Which one is wrong, the list or the write? A read by id tells.
        const back = await this.readBack(real, id, known.writer, `reading '${id}' to compare with the list`);
        const readOk = back.value !== null && canonical(back.value) === canonical(known.value);
        const what = row === undefined ? `record '${id}' is missing from the list` : `the list shows record '${id}' as ${canonical(row)}`;
        disproved(
          real,
          readOk ? exchange : back.exchange,
          readOk ? this.c.list : known.writer,
          `${what}; ${known.writer.id} stored ${canonical(known.value)}`,
        );
      }
      if (!known && row !== undefined) {
        const remover = m.deleted.get(id) ?? this.c.remove ?? this.c.list;
        const back = await this.readBack(real, id, remover, `reading '${id}' to compare with the list`);
        disproved(
          real,
          back.value === null ? exchange : back.exchange,
          back.value === null ? this.c.list : remover,
          `record '${id}' is listed after ${remover.id} answered it deleted`,
        );
      }
    }
  }

  private listFiltered(n: number, k: number): Cmd {
    const self = this;
    return {
      check: (m) => m.owned.some((id) => m.records.has(id)),
      toString: () => `listFiltered(#${n}, param #${k})`,
      async run(m, real) {
        const present = m.owned.filter((id) => m.records.has(id));
        const id = present[n % present.length]!;
        const record = m.records.get(id)!.value;
        // A documented filter on a field the record has, with a value its schema accepts.
        const params = self.c.list.params.filter(
          (p) =>
            p.in === 'query' &&
            record[p.name] !== undefined &&
            record[p.name] !== null &&
            typeof record[p.name] !== 'object' &&
            self.session.spec.validator.atPointer(p.pointer, String(record[p.name])).length === 0,
        );
        if (params.length === 0) return;
        const p = params[k % params.length]!;
        const value = String(record[p.name]);
        const { exchange, rows } = await self.listed(real, [[p.name, value]]);
        if (!rows.some((r) => String(r[self.c.idField]) === id))
          disproved(
            real,
            exchange,
            self.c.list,
            `record '${id}' (${p.name} = ${JSON.stringify(value)}) is missing from the list filtered by ${p.name}`,
          );
        const stray = rows.find((r) => String(r[p.name]) !== value);
        if (stray)
          disproved(
            real,
            exchange,
            self.c.list,
            `the list filtered by ${p.name}=${value} holds a record whose ${p.name} is ${JSON.stringify(stray[p.name])}`,
          );
      },
    };
  }

  // ---------------------------------------------------------------------------------------------

  /**
   * What the collection holds before a sequence, as its list answers: every id listed counts (the
   * cap, ids that exist), even one whose record breaks the schema; only records the sequence
   * creates are read, replaced or deleted.
   */
  private async initialModel(fixtures: CollectionFixtures): Promise<Model> {
    const listed = await fixtures.listing();
    const model: Model = { records: new Map(), owned: [], deleted: new Map() };
    for (const id of listed?.ids ?? []) model.records.set(id, { value: {}, writer: this.c.list });
    return model;
  }

  /** Valid create bodies without an id; null when the create takes no JSON. */
  private input(): fc.Arbitrary<Row> | null {
    const media = this.c.create.body?.content['application/json'];
    if (!media) return null;
    return satisfying(
      this.arbs
        .valid(media.schema)
        .map((v) => (isRecord(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== this.c.idField)) : v)),
      (v): v is Row => isRecord(v) && this.session.spec.validator.atPointer(media.pointer, v).length === 0,
      `a create body of ${this.c.path} without its id (#${media.pointer})`,
    );
  }

  /**
   * The walk every run makes, whatever --runs says: create → read by id → listed → listed with each
   * documented filter set to the record's value (it is there, and no record of another value is) →
   * replace → read answers the replacement → listed as replaced → delete → read answers 404 → not
   * listed. A write a later read disproves is blamed, as in the sequences.
   */
  private async walk(input: fc.Arbitrary<Row>): Promise<boolean> {
    const samples = fc.sample(input, { seed: this.session.seedOf(`walk:${this.c.name}`), numRuns: 10 });
    if (samples.length === 0) return true;
    // The record with the most fields first, replaced by one without any field its schema lets it
    // leave out: a replace must drop what its body does not carry, whatever values were drawn.
    const first = samples.reduce((a, b) => (Object.keys(b).length > Object.keys(a).length ? b : a));
    const other = samples.find((v) => canonical(v) !== canonical(first)) ?? first;
    const lean = this.withoutOptionalFields(other);
    const second = canonical(lean) !== canonical(first) ? lean : other;
    this.session.activity = `${this.c.name} walk`;
    return runWalk(this.session, this.c.name, async (transcript) => {
      const fixtures = new CollectionFixtures(this.session, this.c, this.arbs);
      const real: Real = Object.assign(transcript, { fixtures });
      try {
        await fixtures.makeRoom(1);
        const model = await this.initialModel(fixtures);
        const steps = [this.create(first, undefined)];
        // A list that ignores its filters answers every record: each filter is tried once here, not
        // only when a random sequence draws it.
        const filters = this.c.list.params.filter((p) => p.in === 'query').length;
        for (let k = 0; k < filters; k++) steps.push(this.listFiltered(0, k));
        if (this.c.replace) steps.push(this.replace(0, second, false), this.list());
        const otherId = this.c.replaceChecksBodyId ? this.someValidId(['verify-other-id', 'verify2', 'x']) : undefined;
        if (this.c.replace && otherId !== undefined) steps.push(this.replaceWithOtherId(0, first, otherId));
        if (this.c.remove) steps.push(this.remove(0));
        // Each step needs the record the create made: a refused create (a full collection) ends the walk.
        for (const cmd of steps) {
          if (!cmd.check(model)) break;
          await cmd.run(model, real);
        }
        await this.idProbe(fixtures, real, first, second);
        // The probes' records go before the next one takes room of its own.
        await fixtures.teardown();
        await this.lastIdProbe(fixtures, real, first, second);
      } finally {
        await fixtures.teardown();
      }
    });
  }

  /** A create body without each field the body's schema accepts it without (tried one at a time, in order). */
  private withoutOptionalFields(value: Row): Row {
    const media = this.c.create.body?.content['application/json'];
    if (!media) return value;
    const lean: Row = { ...value };
    for (const key of Object.keys(value)) {
      const { [key]: _left, ...rest } = lean;
      if (this.session.spec.validator.atPointer(media.pointer, rest).length === 0) delete lean[key];
    }
    return lean;
  }

  /** The first candidate the id parameter's schema accepts. */
  private someValidId(candidates: string[]): string | undefined {
    const param = this.c.read.params.find((p) => p.name === this.c.idParam);
    if (!param) return candidates[0];
    return candidates.find((id) => this.session.spec.validator.atPointer(param.pointer, id).length === 0);
  }

  /**
   * "The next numeric id", at its edges: with a many-digit numeric id and an id that merely starts
   * and ends with digits in the collection, a create without an id gets a numeric id above the
   * first and is not thrown by the second. Needs room for three records (others are taken out and
   * put back, as for any walk); without it, or when the id schema refuses such ids, it is left out.
   */
  private async idProbe(fixtures: CollectionFixtures, real: Real, first: Row, second: Row): Promise<void> {
    if (!this.c.sequentialIds || !(await fixtures.makeRoom(3))) return;
    const model = await this.initialModel(fixtures);
    const top = Math.max(0, ...[...model.records.keys()].filter(isNumericId).map(Number));
    if (!Number.isSafeInteger(top + 20)) return;
    const numeric = this.someValidId([String(top + 10)]);
    const mixed = this.someValidId([`${top + 20}v${top + 20}`]);
    if (numeric === undefined || mixed === undefined) return;
    for (const cmd of [this.create(first, numeric), this.create(first, mixed), this.create(second, undefined)]) {
      await cmd.run(model, real);
    }
  }

  /**
   * With the largest safe integer as an id, a create without one gets the next id (a backend with
   * wider ids) or 422 with the documented error; anything else (a 500, a broken error body) fails.
   */
  private async lastIdProbe(fixtures: CollectionFixtures, real: Real, first: Row, second: Row): Promise<void> {
    const last = this.someValidId([String(Number.MAX_SAFE_INTEGER)]);
    if (!this.c.sequentialIds || last === undefined || !(await fixtures.makeRoom(2))) return;
    const model = await this.initialModel(fixtures);
    if (model.records.has(last)) return;
    for (const cmd of [this.create(first, last), this.create(second, undefined)]) {
      await cmd.run(model, real);
    }
  }

  async run(): Promise<void> {
    const runs = Math.max(3, Math.ceil(this.session.options.runs / 2));
    const input = this.input();
    if (!input) return;
    if (!(await this.walk(input))) return skipSequences(this.session, this.operations, this.c.name);
    if (!this.session.canSend) return;
    this.session.activity = `${this.c.name} stateful`;
    await runSequences(
      this.session,
      this.c.name,
      fc.tuple(input, fc.commands(this.commands(), { maxCommands: 8 })),
      runs,
      async ([value, cmds], transcript) => {
        const fixtures = new CollectionFixtures(this.session, this.c, this.arbs);
        const real: Real = Object.assign(transcript, { fixtures });
        try {
          await fixtures.makeRoom(1);
          const model = await this.initialModel(fixtures);
          // Every sequence starts with a create, so that each has a record of its own to work on.
          await fc.asyncModelRun(() => ({ model, real }), [this.create(value, undefined), ...cmds]);
        } finally {
          await fixtures.teardown();
        }
      },
    );
  }
}
