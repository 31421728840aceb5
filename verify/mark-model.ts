/**
 * The marks a member puts on a collection's records (./marks.ts: a PUT and a DELETE on one path under
 * the record, `/things/{id}/seen`), walked on a record the run creates. By HTTP's semantics the PUT
 * puts the mark and the DELETE takes it away (RFC 9110 §9.3.4, §9.3.5), both idempotent (§9.2.2),
 * and the record as the member reads it shows the mark. So: take the mark away and read the record;
 * put it and read; put it again and read; take it away and read. With the mark the record must read
 * otherwise than without it, putting it twice must read as once, and taking it away must read as
 * before it was put. A mark whose answer counts (`x-count-of`) must count what the list then holds.
 */
import type { CollectionSpec, OperationSpec, SchemaArbitraries } from '../openapi-kit/index.ts';
import { bodyJson, type Exchange } from './exchange.ts';
import { CollectionFixtures } from './fixtures.ts';
import { MarkKeeper, type MarkAll, type MarkPair } from './marks.ts';
import type { Session } from './session.ts';
import { canonical } from './stateful.ts';

/** A walk stops at the first answer that is not what it asked for: what follows would judge nothing. */
class WalkStopped extends Error {}

export class MarkModel {
  private readonly session: Session;
  private readonly c: CollectionSpec;
  private readonly pairs: readonly MarkPair[];
  private readonly arbs: SchemaArbitraries;
  /** The run's record the walk marks, made again when the walk deletes it. */
  private fixtures: CollectionFixtures | null = null;
  /** The record as the member read it right after it was made, before any mark. */
  private pristine: string | null = null;

  /** The operations that put a mark on every record listed (`x-marks-all`). */
  private readonly markAll: readonly MarkAll[];

  constructor(session: Session, c: CollectionSpec, pairs: readonly MarkPair[], arbs: SchemaArbitraries, markAll: readonly MarkAll[] = []) {
    this.session = session;
    this.c = c;
    this.pairs = pairs;
    this.arbs = arbs;
    this.markAll = markAll;
  }

  get name(): string {
    return `the marks of ${this.c.itemPath}`;
  }

  get operations(): OperationSpec[] {
    return [...this.pairs.flatMap((p) => [p.put, p.remove]), ...this.markAll.map((m) => m.op)];
  }

  async run(): Promise<void> {
    const fixtures = new CollectionFixtures(this.session, this.c, this.arbs);
    this.fixtures = fixtures;
    // Marking every record listed reaches records the run did not make: they are put back after.
    const keeper = this.markAll.length > 0 ? new MarkKeeper(this.session) : null;
    await keeper?.snapshot();
    try {
      await fixtures.setup();
      const id = await fixtures.ensure();
      if (id === null) {
        for (const op of this.operations)
          this.session.results.unexercised(op, 'stateful', `no record of ${this.c.name} could be made to mark`);
        return;
      }
      try {
        this.pristine = (await this.read(id, 'reading the record as it was made')).text;
      } catch (error) {
        // A read that breaks the document was failed where it was sent: nothing is left to walk.
        if (error instanceof WalkStopped) return;
        throw error;
      }
      for (const pair of this.pairs) {
        try {
          await this.walk(pair, id);
        } catch (error) {
          if (!(error instanceof WalkStopped)) throw error;
        }
      }
      for (const all of this.markAll) {
        try {
          await this.walkAll(all, fixtures);
        } catch (error) {
          if (!(error instanceof WalkStopped)) throw error;
        }
      }
    } finally {
      await fixtures.teardown();
      await keeper?.restore();
    }
  }

  /**
   * x-marks-all: two records of the run a day apart (by the stated field), unmarked; the whole
   * collection marked up to a time between them must mark the earlier only, up to the earlier's
   * own time must mark it too ("at or before"), and without a body must mark both.
   */
  private async walkAll(all: MarkAll, fixtures: CollectionFixtures): Promise<void> {
    const { put, remove } = all.pair;
    const at = (day: number) => `2001-01-0${day}T00:00:00Z`;
    const field = all.until?.field;
    const early = await fixtures.another('mark all early', field ? { [field]: at(1) } : {});
    const late = await fixtures.another('mark all late', field ? { [field]: at(3) } : {});
    if (early === null || late === null) {
      this.session.results.unexercised(all.op, 'stateful', `no two records of ${this.c.name} could be made to mark`);
      return;
    }
    this.session.activity = `${this.name}: ${all.op.id}`;
    /** How the record reads without the mark and with it; it is left without. */
    const looks = async (id: string) => {
      await this.send(remove, id, 'taking the mark away');
      const off = (await this.read(id, 'reading the record without the mark')).text;
      await this.send(put, id, 'putting the mark on the record');
      const on = (await this.read(id, 'reading the record with the mark')).text;
      await this.send(remove, id, 'taking the mark away again');
      return { off, on };
    };
    const e = await looks(early);
    const l = await looks(late);
    if (e.on === e.off || l.on === l.off) return;
    const markAll = async (body: Record<string, string> | undefined, why: string) => {
      const { exchange, findings } = await this.session.expectSuccess(all.op, {}, body, why);
      for (const finding of findings) this.session.results.fail(all.op, 'stateful', exchange, finding);
      if (findings.length > 0) throw new WalkStopped();
    };
    const expect = async (id: string, want: string, title: string) => {
      const now = await this.read(id, 'reading a record after the whole collection was marked');
      if (now.text !== want)
        this.session.results.fail(all.op, 'stateful', now.exchange, { title: `${all.op.id}: ${title}`, violations: [] });
    };
    if (all.until) {
      const { property } = all.until;
      await markAll({ [property]: at(2) }, `marking every record up to ${at(2)}`);
      await expect(early, e.on, `a record whose ${all.until.field} is before the body's ${property} was not marked`);
      await expect(late, l.off, `a record whose ${all.until.field} is after the body's ${property} was marked`);
      await this.send(remove, early, 'taking the mark away');
      await markAll({ [property]: at(1) }, `marking every record up to ${at(1)}`);
      await expect(early, e.on, `a record whose ${all.until.field} is the body's ${property} was not marked (at or before)`);
      await expect(late, l.off, `a record whose ${all.until.field} is after the body's ${property} was marked`);
    }
    if (all.op.body?.required) return;
    await markAll(undefined, 'marking every record, without a body');
    await expect(early, e.on, 'without a body, a record listed was not marked');
    await expect(late, l.on, 'without a body, a record listed was not marked');
  }

  /** Sends `op` on the record, expecting one of its documented 2xx; a finding stops the walk. */
  private async send(op: OperationSpec, id: string, why: string): Promise<Exchange> {
    const { exchange, findings } = await this.session.expectSuccess(op, { [this.c.idParam]: id }, undefined, why);
    for (const finding of findings) this.session.results.fail(op, 'stateful', exchange, finding);
    if (findings.length > 0) throw new WalkStopped();
    return exchange;
  }

  /** The record as the member reads it now, as canonical JSON. */
  private async read(id: string, why: string): Promise<{ text: string; exchange: Exchange }> {
    const exchange = await this.send(this.c.read, id, why);
    return { text: canonical(bodyJson(exchange.response)), exchange };
  }

  private async walk({ put, remove }: MarkPair, id: string): Promise<void> {
    const mark = put.path.slice(this.c.itemPath.length);
    const fail = (op: OperationSpec, exchange: Exchange, title: string) =>
      this.session.results.fail(op, 'stateful', exchange, { title: `the mark ${mark}: ${title}`, violations: [] });
    this.session.activity = `${this.name}: ${mark}`;
    await this.send(remove, id, `taking ${mark} away from a record the run made`);
    const before = await this.read(id, `reading the record without ${mark}`);
    await this.send(put, id, `putting ${mark} on the record`);
    const marked = await this.read(id, `reading the record with ${mark}`);
    await this.send(put, id, `putting ${mark} on the record again`);
    const twice = await this.read(id, `reading the record with ${mark} put twice`);
    await this.send(remove, id, `taking ${mark} away again`);
    const after = await this.read(id, `reading the record with ${mark} taken away`);
    if (marked.text === before.text) fail(put, marked.exchange, 'putting it changed nothing the member reads of the record');
    if (twice.text !== marked.text)
      fail(put, twice.exchange, 'putting it twice reads otherwise than putting it once (a PUT is idempotent, RFC 9110 §9.2.2)');
    if (after.text !== before.text) fail(remove, after.exchange, 'taking it away does not read as the record did before it was put');
    await this.madeAgain(put, remove, id, marked.text, before.text, fail);
  }

  /**
   * A record deleted and made again under its id, from the same input, is a new record: it must read
   * as the record did when first made, not as it did with the mark put (or taken away: a pair's
   * DELETE may put the opposite mark rather than none). The state that reads otherwise than the
   * fresh record is put before the delete; where both read as it, nothing can be judged.
   */
  private async madeAgain(
    put: OperationSpec,
    remove: OperationSpec,
    id: string,
    marked: string,
    unmarked: string,
    fail: (op: OperationSpec, exchange: Exchange, title: string) => void,
  ): Promise<void> {
    const del = this.c.remove;
    if (!del || !this.fixtures || this.pristine === null) return;
    const [op, state] = this.pristine !== marked ? [put, marked] : this.pristine !== unmarked ? [remove, unmarked] : [null, ''];
    if (op === null) return;
    await this.send(op, id, 'marking the record before it is deleted');
    const url = this.session.target.url(del, { [this.c.idParam]: id });
    const { exchange: deleted } = await this.session.send(del, { method: del.method, url }, 'stateful', { kind: 'unspecified' });
    if (!this.c.removedStatuses.includes(deleted.response?.status ?? 0)) return;
    this.fixtures.untrack(deleted, id);
    if ((await this.fixtures.ensure()) !== id) return;
    const fresh = await this.read(id, "reading the record made again under the deleted one's id");
    if (fresh.text === state)
      fail(del, fresh.exchange, "a record made again under a deleted record's id carries the mark of the deleted one");
  }
}
