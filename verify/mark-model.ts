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
import { checkCount } from './counts.ts';
import { CollectionFixtures } from './fixtures.ts';
import type { MarkPair } from './marks.ts';
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

  constructor(session: Session, c: CollectionSpec, pairs: readonly MarkPair[], arbs: SchemaArbitraries) {
    this.session = session;
    this.c = c;
    this.pairs = pairs;
    this.arbs = arbs;
  }

  get name(): string {
    return `the marks of ${this.c.itemPath}`;
  }

  get operations(): OperationSpec[] {
    return this.pairs.flatMap((p) => [p.put, p.remove]);
  }

  async run(): Promise<void> {
    const fixtures = new CollectionFixtures(this.session, this.c, this.arbs);
    this.fixtures = fixtures;
    try {
      await fixtures.setup();
      const id = await fixtures.ensure();
      if (id === null) {
        for (const op of this.operations)
          this.session.results.unexercised(op, 'stateful', `no record of ${this.c.name} could be made to mark`);
        return;
      }
      for (const pair of this.pairs) {
        try {
          await this.walk(pair, id);
        } catch (error) {
          if (!(error instanceof WalkStopped)) throw error;
        }
      }
    } finally {
      await fixtures.teardown();
    }
  }

  /** Sends `op` on the record, expecting one of its documented 2xx; a finding stops the walk. */
  private async send(op: OperationSpec, id: string, why: string): Promise<Exchange> {
    const url = this.session.target.url(op, { [this.c.idParam]: id });
    const statuses = op.statuses.filter((s) => /^2\d\d$/.test(s)).map(Number);
    const { exchange, findings } = await this.session.send(op, { method: op.method, url }, 'stateful', { kind: 'exact', statuses, why });
    if (findings.length === 0) {
      const counted = await checkCount(this.session, op, exchange, 'stateful');
      if (counted) findings.push(counted);
    }
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
    await this.madeAgain(put, remove, id, before.text, fail);
  }

  /**
   * A record deleted and made again under its id is a new record: a mark put on the deleted one is
   * not on it. Judged only where the record reads as it did before the mark once the mark is taken
   * away again: then reading otherwise before that means the mark was still there.
   */
  private async madeAgain(
    put: OperationSpec,
    remove: OperationSpec,
    id: string,
    unmarked: string,
    fail: (op: OperationSpec, exchange: Exchange, title: string) => void,
  ): Promise<void> {
    const del = this.c.remove;
    if (!del || !this.fixtures) return;
    await this.send(put, id, 'putting the mark on the record before it is deleted');
    const url = this.session.target.url(del, { [this.c.idParam]: id });
    const { exchange: deleted } = await this.session.send(del, { method: del.method, url }, 'stateful', { kind: 'unspecified' });
    if (!this.c.removedStatuses.includes(deleted.response?.status ?? 0)) return;
    this.fixtures.untrack(deleted, id);
    if ((await this.fixtures.ensure()) !== id) return;
    const fresh = await this.read(id, "reading the record made again under the deleted one's id");
    if (fresh.text === unmarked) return;
    await this.send(remove, id, 'taking the mark away from the record made again');
    const taken = await this.read(id, 'reading the record made again with the mark taken away');
    if (taken.text === unmarked)
      fail(del, fresh.exchange, "a record made again under a deleted record's id carries the mark put on the deleted one");
  }
}
