/**
 * One verify run, in five phases, each leaving the server as it found it:
 * 1. single exchanges per operation (valid input, invalid input, limits), on records the run creates,
 *    the member's marks on others' records put back after (./marks.ts);
 * 2. stateful sequences of each collection (those under a record too), of the languages its reads
 *    negotiate (./language-model.ts), of the marks on its records (./mark-model.ts) and of the own record;
 * 3. the document's links followed, each from an answer that carries it;
 * 4. the rate limits it documents (429), each pushed until it answers so (./rate-limits.ts);
 * 5. on the embedded mock only: its destructive command, once, at the very end.
 */
import type { OpenApiSpec, OperationSpec } from '../openapi-kit/index.ts';
import { RequestGenerator } from './request-generator.ts';
import { OwnRecordFixture, ownRecordOps } from './fixtures.ts';
import { nestedCollections } from './nested-collections.ts';
import { runFixtures } from './nested-fixtures.ts';
import { NestedCollectionModel } from './nested-model.ts';
import { LinkFollower } from './links.ts';
import { probeRateLimits } from './rate-limits.ts';
import { LanguageModel } from './language-model.ts';
import { MarkModel } from './mark-model.ts';
import { MarkKeeper, markAllOf, markPairs } from './marks.ts';
import { CollectionModel } from './collection-model.ts';
import { OwnRecordModel } from './own-record-model.ts';
import { Results } from './results.ts';
import { destructiveValues } from './destructive.ts';
import { SingleExchanges } from './singles.ts';
import { exercise, SAFE_METHODS, Session, unlessBudgetSpent, type SessionOptions } from './session.ts';
import { resourceOf } from './exchange.ts';
import type { Target } from './target.ts';

export async function runVerify(
  spec: OpenApiSpec,
  target: Target,
  options: SessionOptions,
  onSession?: (s: Session) => void,
): Promise<Results> {
  const results = new Results(spec);
  const session = new Session(spec, target, results, options);
  onSession?.(session);
  const generator = new RequestGenerator(spec.doc);
  const ownOps = ownRecordOps(spec);
  const nested = nestedCollections(spec);
  const newFixtures = () => ({
    collections: runFixtures(session, spec.collections, nested, generator.schemas),
    ownRecord: ownOps ? new OwnRecordFixture(session, ownOps, generator.schemas) : null,
  });

  // 1. Single exchanges.
  const fixtures = newFixtures();
  const marks = new MarkKeeper(session);
  try {
    await unlessBudgetSpent(async () => {
      session.activity = 'setting up';
      if (!options.readOnly) await marks.snapshot();
      if (!options.readOnly) for (const f of fixtures.collections.values()) await f.setup();
      await fixtures.ownRecord?.setup(!options.readOnly);
    });
    const singles = new SingleExchanges(session, generator, fixtures.collections, fixtures.ownRecord, ownOps);
    // Each resource's operations in the document's order; resources side by side, up to --concurrency.
    await eachAtMost(options.concurrency ?? 1, byResource(spec.operations), async (ops) => {
      for (const op of ops) {
        if (session.canSend) await singles.operation(op);
        else results.skipOperation(op, session.target.stopReason);
      }
    });
  } finally {
    session.activity = 'cleaning up';
    for (const f of [...fixtures.collections.values()].reverse()) await f.teardown();
    await fixtures.ownRecord?.teardown();
    await marks.restore();
  }

  // 2. Stateful sequences.
  const modelled = new Set<string>();
  if (options.readOnly) {
    for (const op of spec.operations) results.skip(op, 'stateful', '--read-only: the sequences create, replace and delete');
  } else {
    const models = [
      ...spec.collections.map((c) => new CollectionModel(session, c, generator.schemas)),
      ...nested.map((n) => new NestedCollectionModel(session, n, nested, generator.schemas)),
      ...spec.languages.map((n) => new LanguageModel(session, n, generator.schemas)),
      ...spec.collections.flatMap((c) => {
        const pairs = markPairs(spec, c);
        return pairs.length > 0 ? [new MarkModel(session, c, pairs, generator.schemas, markAllOf(spec, c, pairs))] : [];
      }),
      ...(ownOps
        ? [
            Object.assign(new OwnRecordModel(session, ownOps, generator.schemas), {
              startedWithout: fixtures.ownRecord?.startedWithout === true,
            }),
          ]
        : []),
    ];
    for (const model of models) {
      for (const op of model.operations) modelled.add(op.id);
      if (!session.canSend) continue;
      await session.timed(model.operations, 'stateful', `the stateful model of ${model.name}`, () =>
        exercise(session, model.operations, 'stateful', () => model.run()),
      );
    }
    for (const op of spec.operations) {
      if (!modelled.has(op.id)) results.skip(op, 'stateful', 'no stateful model covers this operation');
      else if (!session.canSend) results.skip(op, 'stateful', session.target.stopReason);
    }
    if (session.exampleAnswers.size > 0)
      results.notes.push(
        `the stateful failures of ${[...session.exampleAnswers].join(', ')} are answers equal to the document's own examples: the server answers from the document and keeps nothing it is sent, as a mock such as Prism's does. Such a server cannot pass the stateful check; the other checks judge it as any server.`,
      );
  }

  // 3. The document's links, on records the run creates for them and deletes after.
  const inLinks = new Set(spec.links.flatMap((l) => [l.from, l.to]));
  for (const op of spec.operations)
    if (!inLinks.has(op.id)) results.skip(op, 'links', 'no link of the document leaves from or leads to it');
  if (spec.links.length > 0) {
    const linked = newFixtures();
    const ops = [...new Set(spec.links.flatMap((l) => [l.from, l.to]))].map((id) => spec.byId(id));
    try {
      // A record of each collection whose item a link leaves from (created as for the single
      // exchanges, deleted after), and the member's own record read, so that it is neither changed
      // nor deleted.
      const sourcePaths = new Set(spec.links.map((l) => spec.byId(l.from).path));
      await unlessBudgetSpent(async () => {
        if (!options.readOnly) for (const f of linked.collections.values()) if (sourcePaths.has(f.collection.itemPath)) await f.setup();
        await linked.ownRecord?.setup(false);
      });
      await session.timed(ops, 'links', "the links' sequences", () =>
        new LinkFollower(session, new SingleExchanges(session, generator, linked.collections, linked.ownRecord, ownOps), (op) =>
          op.id === ownOps?.create.id && linked.ownRecord?.original
            ? 'the member already has one (x-one-per-caller): a create would be refused'
            : null,
        ).run(),
      );
    } finally {
      session.activity = 'cleaning up';
      for (const f of [...linked.collections.values()].reverse()) await f.teardown();
      await linked.ownRecord?.teardown();
    }
  }

  // 4. The rate limits the document states (429), last: a spent limit holds back no other check.
  if (spec.operations.some((op) => op.statuses.includes('429'))) {
    const limited = newFixtures();
    try {
      await probeRateLimits(
        session,
        new SingleExchanges(session, generator, limited.collections, limited.ownRecord, ownOps),
        spec.operations,
      );
    } finally {
      session.activity = 'cleaning up';
      for (const f of [...limited.collections.values()].reverse()) await f.teardown();
    }
  }

  // 5. The destructive values (x-destructive), on the embedded mock only; elsewhere say why they were kept out.
  for (const d of destructiveValues(spec)) {
    const op = d.op;
    if (options.ownServer && !options.readOnly) await runDestructive(session, op, d.param, d.values);
    else if (SAFE_METHODS.includes(op.method) === false)
      results.note(
        op,
        'valid input',
        `'${d.values.join("', '")}' not sent: it destroys everyone's data (only unknown ${d.param}s were sent)`,
      );
  }
  return results;
}

async function runDestructive(session: Session, op: OperationSpec, param: string, values: readonly string[]): Promise<void> {
  for (const value of values) {
    session.activity = `${op.id} ${value}`;
    await unlessBudgetSpent(async () => {
      const { exchange, findings } = await session.send(
        op,
        { method: op.method, url: session.target.url(op, { [param]: value }) },
        'valid input',
        {
          kind: 'exact',
          statuses: op.statuses.filter((s) => s.startsWith('2')).map(Number),
          why: `${op.method} ${op.path} with ${param} '${value}'`,
        },
        true,
      );
      for (const finding of findings) session.results.fail(op, 'valid input', exchange, finding);
    });
  }
}

/** The operations grouped by the resource they act on, each group in the document's order. */
export function byResource(ops: readonly OperationSpec[]): OperationSpec[][] {
  const groups = new Map<string, OperationSpec[]>();
  for (const op of ops) groups.set(resourceOf(op), [...(groups.get(resourceOf(op)) ?? []), op]);
  return [...groups.values()];
}

/** Runs `work` on every item, at most `limit` at a time, in order of start. */
export async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
