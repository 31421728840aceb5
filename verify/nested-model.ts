/**
 * The stateful model of a collection under a record (./nested-collections.ts): the collection
 * model's walk and sequences (./collection-model.ts), under a parent record verify made (or one
 * the parent's list answers), and first a walk of what only a collection under a record can break:
 * a record created under parent A (its Location under A, readable and listed under A) is neither
 * readable, listed nor deletable under another parent B (404), and deleting it under A leaves A.
 */
import fc from 'fast-check';
import { isRecord, type OperationSpec, type SchemaArbitraries } from '../openapi-kit/index.ts';
import { CollectionModel } from './collection-model.ts';
import type { Real } from './collection-state.ts';
import { bodyJson } from './exchange.ts';
import type { CollectionFixtures } from './fixtures.ts';
import type { NestedCollection } from './nested-collections.ts';
import { fixturesOf, NestedFixtures } from './nested-fixtures.ts';
import type { Session } from './session.ts';
import { canonical, disproved, runWalk, skipSequences, step } from './stateful.ts';

/** A parent record: the scope of the requests under it, and whether this run made it (a new record holds nothing yet). */
interface Parent {
  scope: Record<string, string>;
  made: boolean;
}

export class NestedCollectionModel extends CollectionModel {
  private readonly nested: NestedCollection;
  private readonly all: readonly NestedCollection[];

  constructor(session: Session, nested: NestedCollection, all: readonly NestedCollection[], arbs: SchemaArbitraries) {
    super(session, nested.collection, arbs);
    this.nested = nested;
    this.all = all;
  }

  private get parentRead(): OperationSpec | undefined {
    return this.session.spec.operations.find((o) => o.path === this.nested.parentPath && o.method === 'GET');
  }

  override async run(): Promise<void> {
    const made: CollectionFixtures[] = [];
    try {
      const parents = await this.parents(made);
      if (parents.length === 0) {
        for (const op of this.operations)
          this.session.results.skip(op, 'stateful', `no parent record (${this.nested.parentPath}) could be made or listed`);
        return;
      }
      this.scope = parents[0]!.scope;
      if (!(await this.parentWalk(parents[0]!, parents[1]))) return skipSequences(this.session, this.operations, this.c.name);
      if (this.session.canSend) await super.run();
    } finally {
      // Children first: a parent deleted before them may take them along, or refuse.
      for (const f of made.reverse()) await f.teardown();
    }
  }

  /**
   * Two parent records, made for the model (each in its own fixtures, under the same grandparent),
   * or, where none can be made, the first two the parent's list answers. Fixtures made go in `made`,
   * parents before children, to be torn down.
   */
  private async parents(made: CollectionFixtures[]): Promise<Parent[]> {
    const above = this.all.find((n) => n.collection === this.nested.parent);
    const grand = above ? fixturesOf(this.session, above.parent, this.all, this.arbs) : undefined;
    if (grand) {
      made.push(grand);
      await grand.setup();
    }
    const out: Parent[] = [];
    let listing: CollectionFixtures | undefined;
    for (let k = 0; k < 2; k++) {
      const f = fixturesOf(this.session, this.nested.parent, this.all, this.arbs, grand);
      listing ??= f;
      made.push(f);
      await f.setup();
      const id = await f.ensure();
      if (id !== null) out.push({ scope: { ...f.scope, [this.nested.parentParam]: id }, made: true });
    }
    if (out.length > 0 || !listing) return out;
    if (listing instanceof NestedFixtures && !(await listing.enter())) return out;
    const ids = (await listing.listing())?.ids ?? [];
    return ids.slice(0, 2).map((id) => ({ scope: { ...listing.scope, [this.nested.parentParam]: id }, made: false }));
  }

  /**
   * Create under A → (its Location, read back and listed under A, as any create) → read under B:
   * 404 → listed under B: absent → deleted under B: 404, and still readable under A → deleted under
   * A → A is still readable → the record under A answers 404. Without a second parent, the steps
   * under B are left out. A write a later read disproves is blamed, as in the collection's walk.
   */
  private parentWalk(a: Parent, b: Parent | undefined): Promise<boolean> {
    const input = this.input();
    const c = this.c;
    const param = this.nested.parentParam;
    return runWalk(this.session, `${c.name} under its parent`, async (transcript) => {
      if (!input) return;
      const [value] = fc.sample(input, { seed: this.session.seedOf(`parent-walk:${c.name}`), numRuns: 1 });
      const fixtures = this.newFixtures();
      const real: Real = Object.assign(transcript, { fixtures });
      try {
        await fixtures.makeRoom(1);
        const model = await this.initialModel(fixtures);
        await this.create(value!, undefined).run(model, real);
        const id = model.owned[0];
        if (id === undefined) return;
        const record = model.records.get(id)!.value;
        const under = (scope: Record<string, string>, op: OperationSpec, withId: boolean) =>
          this.session.target.url(op, withId ? { ...scope, [c.idParam]: id } : scope);
        const where = (p: Parent) => `${param} '${p.scope[param]}'`;
        if (b) {
          const read = await step(
            this.session,
            real,
            c.read,
            { method: 'GET', url: under(b.scope, c.read, true) },
            { kind: 'unspecified' },
          );
          const status = read.response?.status;
          // A parent this run made holds nothing else: any answer but 404 reaches the record of another.
          if (b.made ? status !== 404 : status === 200 && canonical(bodyJson(read.response)) === canonical(record))
            disproved(
              real,
              read,
              c.read,
              `record '${id}', created under ${where(a)}, is readable under ${where(b)}: GET answered ${status ?? 'nothing'}, not 404`,
            );
          const list = await step(
            this.session,
            real,
            c.list,
            { method: 'GET', url: under(b.scope, c.list, false) },
            {
              kind: 'exact',
              statuses: [200],
              why: `listing the records of ${where(b)}`,
            },
          );
          const rows = bodyJson(list.response);
          const stray = Array.isArray(rows)
            ? rows.find((r) => isRecord(r) && String(r[c.idField]) === id && (b.made || canonical(r) === canonical(record)))
            : undefined;
          if (stray !== undefined) disproved(real, list, c.list, `the list of ${where(b)} holds record '${id}', created under ${where(a)}`);
          if (c.remove) {
            const removed = await step(
              this.session,
              real,
              c.remove,
              { method: 'DELETE', url: under(b.scope, c.remove, true) },
              {
                kind: 'unspecified',
              },
            );
            if (b.made && removed.response?.status !== 404)
              disproved(
                real,
                removed,
                c.remove,
                `a DELETE of record '${id}' of ${where(a)} under ${where(b)} answered ${removed.response?.status ?? 'nothing'}, not 404`,
              );
            const back = await this.readBack(real, id, c.remove, `reading record '${id}' after a DELETE under ${where(b)}`);
            if (back.value === null)
              disproved(real, back.exchange, c.remove, `a DELETE of record '${id}' under ${where(b)} deleted it under ${where(a)}`);
          }
        }
        if (!c.remove) return;
        const removed = await step(
          this.session,
          real,
          c.remove,
          { method: 'DELETE', url: under(a.scope, c.remove, true) },
          {
            kind: 'exact',
            statuses: c.removedStatuses,
            why: `deleting record '${id}' under ${where(a)}`,
          },
        );
        fixtures.untrack(removed, id);
        const parentRead = this.parentRead;
        if (parentRead) {
          const parent = await step(
            this.session,
            real,
            parentRead,
            { method: 'GET', url: this.session.target.url(parentRead, a.scope) },
            {
              kind: 'unspecified',
            },
          );
          if (parent.response?.status !== 200)
            disproved(
              real,
              parent,
              c.remove,
              `after deleting record '${id}' under ${where(a)}, the parent answers ${parent.response?.status ?? 'nothing'}, not 200: the DELETE took its parent along`,
            );
        }
        const back = await this.readBack(real, id, c.remove, `reading record '${id}' after its DELETE`);
        if (back.value !== null)
          disproved(real, back.exchange, c.remove, `record '${id}' is still readable after its DELETE under ${where(a)}`);
      } finally {
        await fixtures.teardown();
      }
    });
  }
}
