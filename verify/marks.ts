/**
 * Marks a member puts on records, and putting them back. A mark is a path under a collection's
 * record with both a PUT and a DELETE (`/things/{id}/seen`): by HTTP's semantics the PUT puts it and
 * the DELETE takes it away (RFC 9110 §9.3.4, §9.3.5), and the record as the member reads it shows
 * it. verify's requests put and take away such marks, on records it did not create too (an id of the
 * document's shape may be someone's, and an operation such as "mark all" reaches every record).
 *
 * So, before the run, each such collection's list is read as the member; at the end, each record
 * listed then and now whose answer differs is put back with its marks' pairs: each pair tried both
 * ways, kept the way that answers the record closest to how it was. A record that cannot be put
 * back is named in the run's notes.
 */
import { isRecord, operationObject, type CollectionSpec, type OpenApiSpec, type OperationSpec } from '../openapi-kit/index.ts';
import { bodyJson } from './exchange.ts';
import type { Session } from './session.ts';
import { canonical } from './stateful.ts';

type Row = Record<string, unknown>;

/** A mark: the PUT that puts it and the DELETE that takes it away, on one path. */
export interface MarkPair {
  put: OperationSpec;
  remove: OperationSpec;
}

/** The marks of a collection's records: paths under its item path, with no other path parameter, that have a PUT and a DELETE. */
export function markPairs(spec: Pick<OpenApiSpec, 'operations'>, collection: CollectionSpec): MarkPair[] {
  const under = spec.operations.filter(
    (op) =>
      op.path.startsWith(`${collection.itemPath}/`) && op.params.filter((p) => p.in === 'path').every((p) => p.name === collection.idParam),
  );
  const pairs: MarkPair[] = [];
  for (const put of under.filter((op) => op.method === 'PUT')) {
    const remove = under.find((op) => op.method === 'DELETE' && op.path === put.path);
    if (remove) pairs.push({ put, remove });
  }
  return pairs;
}

/** A mark put on every record a list answers (`x-marks-all`), up to a time the body may name. */
export interface MarkAll {
  op: OperationSpec;
  /** What it does to each record: this pair's PUT. */
  pair: MarkPair;
  /** The records it marks: those this list answers the caller. */
  list: OperationSpec;
  /** The body's property that names a time, and the records' field compared with it; null when unstated. */
  until: { property: string; field: string } | null;
}

/** The operations that mark every record of the collection (`x-marks-all`, whose `mark` is one of its pairs' PUT and `list` its list). */
export function markAllOf(
  spec: Pick<OpenApiSpec, 'operations' | 'doc'>,
  collection: CollectionSpec,
  pairs: readonly MarkPair[],
): MarkAll[] {
  return spec.operations.flatMap((op) => {
    const raw = operationObject(spec.doc, op);
    const stated = isRecord(raw) ? raw['x-marks-all'] : undefined;
    if (!isRecord(stated) || stated.list !== collection.list.id) return [];
    const pair = pairs.find((p) => p.put.id === stated.mark);
    if (!pair) return [];
    const until = isRecord(stated.until) ? stated.until : undefined;
    return [
      {
        op,
        pair,
        list: collection.list,
        until:
          typeof until?.property === 'string' && typeof until.field === 'string' ? { property: until.property, field: until.field } : null,
      },
    ];
  });
}

/**
 * How many of the fields a record was listed with read otherwise now (a record read by id may carry
 * more than its list row); a record not answered differs in all.
 */
function distance(now: Row | undefined, was: Row): number {
  if (now === undefined) return Number.POSITIVE_INFINITY;
  return Object.keys(was).filter((k) => canonical(now[k]) !== canonical(was[k])).length;
}

export class MarkKeeper {
  private readonly session: Session;
  /** Each collection with marks, and its records as the member was answered them before the run (null: the list could not be read). */
  private readonly before = new Map<CollectionSpec, { pairs: MarkPair[]; rows: Map<string, Row> | null }>();

  constructor(session: Session) {
    this.session = session;
  }

  /** Reads, as the member, every collection whose records have marks. */
  async snapshot(): Promise<void> {
    for (const collection of this.session.spec.collections) {
      const pairs = markPairs(this.session.spec, collection);
      if (pairs.length > 0) this.before.set(collection, { pairs, rows: await this.listed(collection) });
    }
  }

  /** Puts back the marks of every record listed before the run whose answer now differs. */
  async restore(): Promise<void> {
    for (const [collection, { pairs, rows }] of this.before) {
      if (rows === null) continue;
      const now = await this.listed(collection);
      if (now === null) {
        this.session.results.notes.push(`could not read ${collection.name} at the end of the run: its records' marks were not checked`);
        continue;
      }
      for (const [id, was] of rows) {
        const is = now.get(id);
        if (is === undefined || canonical(is) === canonical(was)) continue;
        if (!(await this.putBack(collection, pairs, id, was)))
          this.session.results.notes.push(
            `could not put back record '${id}' of ${collection.name} as the member was answered it before the run: ${canonical(was)}`,
          );
      }
    }
  }

  /** Tries each mark of the record both ways and keeps the better; whether the record answers as it was. */
  private async putBack(collection: CollectionSpec, pairs: MarkPair[], id: string, was: Row): Promise<boolean> {
    const params = { [collection.idParam]: id };
    const after = async (op: OperationSpec) => {
      await this.session.probe(op, params, undefined, { kind: 'unspecified' }, { essential: true });
      return distance(await this.read(collection, id), was);
    };
    let left = distance(await this.read(collection, id), was);
    // A mark is on or off: one of the two ways is how it was, so the record never ends further off.
    for (const { put, remove } of pairs) {
      if (left === 0) return true;
      const removed = await after(remove);
      if (removed === 0) return true;
      const marked = await after(put);
      left = Math.min(removed, marked);
      if (removed < marked) await after(remove);
    }
    return left === 0;
  }

  /** The collection's records as its list answers the member, by id; null when it answers no list. */
  private async listed(collection: CollectionSpec): Promise<Map<string, Row> | null> {
    const exchange = await this.session.probe(collection.list, {}, undefined, { kind: 'unspecified' }, { essential: true });
    const body = bodyJson(exchange.response);
    if (exchange.response?.status !== 200 || !Array.isArray(body)) return null;
    const rows = new Map<string, Row>();
    for (const row of body.filter(isRecord)) {
      const id = row[collection.idField];
      if (typeof id === 'string' || typeof id === 'number') rows.set(String(id), row);
    }
    return rows;
  }

  /** One record as the member reads it, or undefined. */
  private async read(collection: CollectionSpec, id: string): Promise<Row | undefined> {
    const exchange = await this.session.probe(
      collection.read,
      { [collection.idParam]: id },
      undefined,
      { kind: 'unspecified' },
      { essential: true },
    );
    const body = bodyJson(exchange.response);
    return exchange.response?.status === 200 && isRecord(body) ? body : undefined;
  }
}
