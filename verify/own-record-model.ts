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
 * nothing more), then the same key with another body (422, and nothing changes). The commands
 * are ./own-record-commands.ts and ./own-record-refusals.ts, what they hold and read
 * ./own-record-state.ts.
 */
import fc from 'fast-check';
import type { OperationSpec } from '../openapi-kit/index.ts';
import { OwnRecordFixture } from './fixtures.ts';
import { canonical, runSequences, runWalk, skipSequences } from './stateful.ts';
import { OwnRecordRefusals } from './own-record-refusals.ts';
import { emptyModel, formSafe, type Cmd, type Payload, type Real, type Row } from './own-record-state.ts';

export class OwnRecordModel extends OwnRecordRefusals {
  /** What the model is of, for the progress lines and time budget notes. */
  get name(): string {
    return this.ops.create.path;
  }

  get operations(): OperationSpec[] {
    const o = this.ops;
    return [o.mine, o.create, o.update, o.remove, o.file].filter((x): x is OperationSpec => x !== undefined);
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
}
