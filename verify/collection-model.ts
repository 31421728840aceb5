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
 * disproves a write, the write is blamed. The commands are ./collection-commands.ts, what they
 * read and hold ./collection-state.ts.
 */
import fc from 'fast-check';
import type { OperationSpec } from '../openapi-kit/index.ts';
import { CollectionCommands } from './collection-commands.ts';
import { isNumericId, type Real, type Row } from './collection-state.ts';
import { CollectionFixtures } from './fixtures.ts';
import { canonical, runSequences, runWalk, skipSequences } from './stateful.ts';

export class CollectionModel extends CollectionCommands {
  /** What the model is of, for the progress lines and time budget notes. */
  get name(): string {
    return this.c.path;
  }

  /** The operations the model exercises. */
  get operations(): OperationSpec[] {
    const c = this.c;
    return [c.list, c.create, c.read, c.replace, c.remove].filter((o): o is OperationSpec => o !== undefined);
  }

  /** The records of one walk or sequence, made and deleted under the model's scope. */
  protected newFixtures(): CollectionFixtures {
    const fixtures = new CollectionFixtures(this.session, this.c, this.arbs);
    fixtures.scope = { ...this.scope };
    return fixtures;
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
      const fixtures = this.newFixtures();
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
        const fixtures = this.newFixtures();
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
