/**
 * One verify run's shared state: the document, the server, the results, and the one way every
 * exchange goes through — sent, counted, judged. Set-up, probes and clean-up are judged as they
 * happen (check "responses"); generated exchanges return their findings to the property that sent
 * them, which reports its shrunk counterexample once.
 */
import { GeneratorGaveUp, type OpenApiSpec, type OperationSpec } from '../openapi-kit/index.ts';
import { judge, type Expectation, type Finding } from './judge.ts';
import type { CheckName, Results } from './results.ts';
import { BudgetSpent, successStatuses, type Exchange, type Outgoing } from './exchange.ts';
import { checkCount } from './counts.ts';
import type { Target } from './target.ts';

export interface SessionOptions {
  seed: number;
  runs: number;
  readOnly: boolean;
  /** The server is the embedded mock this run started: its destructive command may run. */
  ownServer: boolean;
  /** The server was started for this run (the embedded mock, or --fresh-server): nothing before it counts against its limits. */
  freshServer?: boolean;
  /** How many resources' single exchanges run side by side (default 1: one at a time). */
  concurrency?: number;
  /** Milliseconds one operation's checks, and one stateful model, may take (default: no limit). */
  operationTimeoutMs?: number;
}

export interface Judged {
  exchange: Exchange;
  findings: Finding[];
}

/** A property's counterexample: the findings of its exchange, carried out of fast-check. */
export class Counterexample extends Error {
  readonly exchange: Exchange;
  readonly findings: Finding[];
  /** The operation at fault, when not the exchange's (a read that disproves an earlier write). */
  readonly blame: OperationSpec | undefined;
  readonly sequence: Exchange[] | undefined;

  constructor(exchange: Exchange, findings: Finding[], blame?: OperationSpec, sequence?: Exchange[]) {
    super(findings.map((f) => f.title).join('; '));
    this.exchange = exchange;
    this.findings = findings;
    this.blame = blame;
    this.sequence = sequence;
  }
}

export { SAFE_METHODS } from './exchange.ts';

/** The part of a run a progress line reports: an operation's own checks, a stateful model, the links. */
export type Phase = 'checks' | 'stateful' | 'links';

export class Session {
  /** What each property is doing, for the progress line. */
  activity = '';
  /** Called when an operation's single exchanges, or a stateful model's sequences, are done (the per-operation progress lines). */
  onDone: ((ops: readonly OperationSpec[], phase: Phase, ms: number) => void) | undefined;
  /** Operations whose stateful failure was an answer equal to the document's example (a server that keeps no state). */
  readonly exampleAnswers = new Set<string>();

  readonly spec: OpenApiSpec;
  readonly target: Target;
  readonly results: Results;
  readonly options: SessionOptions;

  constructor(spec: OpenApiSpec, target: Target, results: Results, options: SessionOptions) {
    this.spec = spec;
    this.target = target;
    this.results = results;
    this.options = options;
  }

  /** Sends and judges; counts the exchange under `check`. Findings are returned, not recorded. */
  async send(op: OperationSpec, out: Outgoing, check: CheckName, expectation: Expectation, essential = false): Promise<Judged> {
    const exchange = await this.target.send(op, out, { essential });
    this.results.count(exchange, check);
    return { exchange, findings: judge(this.spec, op, exchange, expectation) };
  }

  /**
   * A JSON request (or none) a walk sends expecting one of the operation's documented 2xx, counted
   * under `check`: what is wrong with its answer, and with the count it states (x-count-of), if any.
   * Returned, not recorded: the walk fails them and decides whether to go on.
   */
  async expectSuccess(
    op: OperationSpec,
    params: Record<string, string>,
    value: unknown,
    why: string,
    { headers = [], check = 'stateful' }: { headers?: Array<[string, string]>; check?: CheckName } = {},
  ): Promise<Judged> {
    const exchange = await this.target.json(op, params, value, { headers });
    this.results.count(exchange, check);
    const findings = judge(this.spec, op, exchange, { kind: 'exact', statuses: successStatuses(op), why });
    if (findings.length === 0) {
      const counted = await checkCount(this, op, exchange, check);
      if (counted) findings.push(counted);
    }
    return { exchange, findings };
  }

  /** Sends a set-up, probe or clean-up request and records what is wrong with it at once (check "responses"). */
  async probe(
    op: OperationSpec,
    params: Record<string, string>,
    value: unknown,
    expectation: Expectation = { kind: 'unspecified' },
    {
      essential = false,
      query = [],
      headers = [],
    }: { essential?: boolean; query?: Array<[string, string]>; headers?: Array<[string, string]> } = {},
  ): Promise<Exchange> {
    const exchange = await this.target.json(op, params, value, { essential, query, headers });
    this.results.count(exchange, 'responses');
    for (const finding of judge(this.spec, op, exchange, expectation)) this.results.fail(op, 'responses', exchange, finding);
    return exchange;
  }

  /** A seed per property, from the run's seed and the property's name: each property draws its own values. */
  seedOf(key: string): number {
    let h = 0x811c9dc5;
    for (const c of key) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193);
    return (this.options.seed ^ h) | 0;
  }

  /** Runs `work` within the operation time budget (--operation-timeout), then reports it done. */
  async timed(ops: readonly OperationSpec[], phase: Phase, what: string, work: () => Promise<void>): Promise<void> {
    const started = Date.now();
    const ms = this.options.operationTimeoutMs ?? Number.POSITIVE_INFINITY;
    await this.target.within(ms, `${what}'s time budget (--operation-timeout ${ms / 1000} s) was spent`, work);
    this.onDone?.(ops, phase, Date.now() - started);
  }

  /** Whether the run may still send (the budget is not spent). */
  get canSend(): boolean {
    return !this.target.budgetSpent;
  }
}

/**
 * Runs one check of `ops`. A generator that gives up, or a budget spent on the way (requests,
 * the run's time, the operation's time), ends it, and the check says so instead of a verdict it
 * did not earn.
 */
export async function exercise(
  session: Session,
  ops: readonly OperationSpec[],
  check: CheckName,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (error instanceof GeneratorGaveUp) {
      for (const op of ops)
        session.results.unexercised(op, check, `not exercised: the generator gave up: ${error.message} (seed ${session.options.seed})`);
      return;
    }
    if (!(error instanceof BudgetSpent)) throw error;
  }
  const stopped = session.target.refusing;
  if (stopped) for (const op of ops) session.results.unexercised(op, check, `not exercised in full: ${stopped}`);
}

/** Runs `work`; a spent budget ends it quietly (the caller reports what was not exercised). */
export async function unlessBudgetSpent(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof BudgetSpent)) throw error;
  }
}
