/**
 * What the collection model (./collection-model.ts) holds and how it reads the server: the records
 * a sequence believes present, created and deleted; a record's URL and id; a record read back, the
 * list (its `x-sort` order checked) and whether it agrees with the model; what a create may answer
 * now; and the bodies a create takes.
 */
import type fc from 'fast-check';
import { compareSortValues, isRecord, satisfying, shapeOf, type CollectionSpec, type OperationSpec } from '../openapi-kit/index.ts';
import type { SchemaArbitraries } from '../openapi-kit/index.ts';
import { bodyJson, type Exchange, jsonRequest, type Outgoing } from './exchange.ts';
import type { CollectionFixtures } from './fixtures.ts';
import type { Session } from './session.ts';
import { canonical, disproved, step, type Transcript } from './stateful.ts';

export type Row = Record<string, unknown>;

export interface Model {
  /** Every record believed present, with the operation whose answer said so. */
  records: Map<string, { value: Row; writer: OperationSpec }>;
  /** Ids this sequence created, in order (some may be deleted since). */
  owned: string[];
  /** Owned ids deleted since, with the operation that deleted them. */
  deleted: Map<string, OperationSpec>;
}

export interface Real extends Transcript {
  fixtures: CollectionFixtures;
}

export type Cmd = fc.AsyncCommand<Model, Real, false>;

export const isNumericId = (id: string) => /^\d+$/.test(id);

export class CollectionState {
  protected readonly c: CollectionSpec;
  protected readonly session: Session;
  protected readonly arbs: SchemaArbitraries;
  /** The path parameters besides the record's id: a parent record's, for a collection under one. */
  protected scope: Record<string, string> = {};

  constructor(session: Session, collection: CollectionSpec, arbs: SchemaArbitraries) {
    this.session = session;
    this.c = collection;
    this.arbs = arbs;
  }

  /** An id as its record holds it: a number where the id parameter's schema is numeric, else the text. */
  protected typedId(id: string): unknown {
    const param = this.c.read.params.find((p) => p.name === this.c.idParam);
    if (!param) return id;
    const shape = shapeOf(this.session.spec.doc, param.schema, param.pointer);
    return (shape === 'integer' || shape === 'number') && /^-?\d+(\.\d+)?$/.test(id) ? Number(id) : id;
  }

  protected url(op: OperationSpec, id?: string, query: Array<[string, string]> = []): string {
    return this.session.target.url(op, id === undefined ? { ...this.scope } : { ...this.scope, [this.c.idParam]: id }, query);
  }

  protected jsonOut(op: OperationSpec, id: string | undefined, value: unknown): Outgoing {
    return jsonRequest(op.method, this.url(op, id), value);
  }

  /** Reads one record back: what the server holds now (null: 404), or the sequence ends. */
  protected async readBack(real: Real, id: string, blame: OperationSpec, what: string): Promise<{ exchange: Exchange; value: Row | null }> {
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

  protected async listed(real: Real, query: Array<[string, string]> = []): Promise<{ exchange: Exchange; rows: Row[] }> {
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

  /** The API-relative path of a record, as the item path names it (`/pets/4`, `/owners/2/pets/4`). */
  protected itemPath(id: string): string {
    return this.c.itemPath.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const value = name === this.c.idParam ? id : this.scope[name];
      return value === undefined ? whole : encodeURIComponent(value);
    });
  }

  /** Statuses the document allows a create now, and why. */
  protected createExpectation(m: Model, id: string | undefined): { statuses: number[]; why: string } {
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

  protected pick(m: Model, n: number): string | undefined {
    return m.owned.length === 0 ? undefined : m.owned[n % m.owned.length];
  }

  /** The list holds every record the sequence created and did not delete, as stored, and none it deleted. */
  protected async checkList(m: Model, real: Real): Promise<void> {
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

  /**
   * What the collection holds before a sequence, as its list answers: every id listed counts (the
   * cap, ids that exist), even one whose record breaks the schema; only records the sequence
   * creates are read, replaced or deleted.
   */
  protected async initialModel(fixtures: CollectionFixtures): Promise<Model> {
    const listed = await fixtures.listing();
    const model: Model = { records: new Map(), owned: [], deleted: new Map() };
    for (const id of listed?.ids ?? []) model.records.set(id, { value: {}, writer: this.c.list });
    return model;
  }

  /** Valid create bodies without an id; null when the create takes no JSON. */
  protected input(): fc.Arbitrary<Row> | null {
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

  /** A create body without each field the body's schema accepts it without (tried one at a time, in order). */
  protected withoutOptionalFields(value: Row): Row {
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
  protected someValidId(candidates: string[]): string | undefined {
    const param = this.c.read.params.find((p) => p.name === this.c.idParam);
    if (!param) return candidates[0];
    return candidates.find((id) => this.session.spec.validator.atPointer(param.pointer, id).length === 0);
  }
}
