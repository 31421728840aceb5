/**
 * What the stateful models share: a fixed walk and fast-check command sequences against the server,
 * each cleaning up after itself, and turning a failing sequence (the shortest found) into a report.
 */
import fc from 'fast-check';
import { responseFor, type OperationSpec } from '../openapi-kit/index.ts';
import { toCurl } from './curl.ts';
import type { Expectation, Finding } from './judge.ts';
import { Counterexample, type Session } from './session.ts';
import { BudgetSpent, bodyJson, type Exchange, type Outgoing } from './exchange.ts';

/** The real side of a model run: the exchanges of this sequence, for the report. */
export interface Transcript {
  log: Exchange[];
}

/** JSON text with sorted keys: two values are the same record when their canonical texts are equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Sends one request of a sequence, judged against `expectation`; a problem ends the sequence as a Counterexample. */
export async function step(
  session: Session,
  transcript: Transcript,
  op: OperationSpec,
  out: Outgoing,
  expectation: Expectation,
): Promise<Exchange> {
  const { exchange, findings } = await session.send(op, out, 'stateful', expectation);
  transcript.log.push(exchange);
  if (findings.length > 0) throw new Counterexample(exchange, findings, op, [...transcript.log]);
  return exchange;
}

/** Ends a sequence with a finding the model made (a read that disproves a write): blamed on `blame`. */
export function disproved(transcript: Transcript, exchange: Exchange, blame: OperationSpec, title: string): never {
  const finding: Finding = { title, violations: [] };
  throw new Counterexample(exchange, [finding], blame, [...transcript.log]);
}

/** A request as a line of a sequence: the curl line, then what came back. */
function sequenceLine(exchange: Exchange): string {
  const status = exchange.response ? String(exchange.response.status) : `no answer (${exchange.error ?? '?'})`;
  return `${toCurl(exchange.request)}    # → ${status}`;
}

/** Whether an answer's JSON body is one of the examples the document gives for its operation and status. */
function isDocumentedExample(exchange: Exchange): boolean {
  const r = exchange.response;
  const body = bodyJson(r);
  if (!r || !exchange.op || body === undefined) return false;
  const text = canonical(body);
  return (responseFor(exchange.op, r.status)?.content ?? []).some((c) => c.examples.some((e) => canonical(e) === text));
}

/**
 * Reports a sequence's counterexample under the operation it blames, with the sequence as curl
 * lines. An answer that is the document's own example says why: the server answers from the
 * document and keeps nothing (a mock such as Prism's), which no stateful check can pass.
 */
function report(session: Session, error: Counterexample, replay: string): void {
  const blame = error.blame ?? error.exchange.op;
  if (!blame) return;
  const sequence = (error.sequence ?? [error.exchange]).map(sequenceLine);
  const example = isDocumentedExample(error.exchange);
  if (example) session.exampleAnswers.add(blame.id);
  for (const finding of error.findings) {
    const title = example
      ? `${finding.title} (the answer is the document's example for ${error.exchange.op!.id} ${error.exchange.response!.status}: the server answers examples and keeps no state)`
      : finding.title;
    session.results.fail(blame, 'stateful', error.exchange, { ...finding, title }, { sequence, replay });
  }
}

/**
 * Plays one fixed sequence once (the walk every run makes, whatever --runs says); a failure is
 * reported like a generated sequence's. Whether it went through.
 */
export async function runWalk(session: Session, name: string, run: (transcript: Transcript) => Promise<void>): Promise<boolean> {
  const transcript: Transcript = { log: [] };
  try {
    await run(transcript);
    return true;
  } catch (error) {
    if (error instanceof BudgetSpent) return true;
    if (!(error instanceof Counterexample)) throw error;
    report(session, error, `the fixed walk of ${name}`);
    return false;
  }
}

/**
 * After a failed walk: the generated sequences are not run (they would find the same failure again,
 * at the price of shrinking it), and the operations that did not fail say so.
 */
export function skipSequences(session: Session, ops: readonly OperationSpec[], name: string): void {
  const why = `the generated sequences of ${name} did not run: its fixed walk failed`;
  for (const op of ops) if (!session.results.hasFailures(op, 'stateful')) session.results.note(op, 'stateful', why);
}

/**
 * Runs `runs` sequences from `arb`; `run` plays one sequence (set-up, commands, clean-up). The
 * shortest failing sequence found is reported under the operation it blames.
 */
export async function runSequences<T>(
  session: Session,
  key: string,
  arb: fc.Arbitrary<T>,
  runs: number,
  run: (value: T, transcript: Transcript) => Promise<void>,
): Promise<void> {
  const details = await fc.check(
    fc.asyncProperty(arb, async (value) => {
      const transcript: Transcript = { log: [] };
      try {
        await run(value, transcript);
      } catch (error) {
        if (error instanceof BudgetSpent) return;
        throw error;
      }
    }),
    // No fast-check time limit (it would make the verdict depend on the load): --operation-timeout bounds it, and says so.
    { seed: session.seedOf(`stateful:${key}`), numRuns: runs },
  );
  if (!details.failed) return;
  const error = details.errorInstance;
  if (!(error instanceof Counterexample)) throw error instanceof Error ? error : new Error(String(error));
  report(session, error, `fast-check seed ${details.seed}, path ${details.counterexamplePath}`);
}

/**
 * What is wrong with a 201's Location (RFC 9110, 10.2.2: it names the resource created), or null:
 * resolved against the request's URL, its path must end with the record's own path under the API.
 * No Location at all is the header's own check (required or not, by the document).
 */
export function locationProblem(exchange: Exchange, ownPath: string): string | null {
  const location = exchange.response?.headers.get('location') ?? null;
  if (location === null) return null;
  let path: string | null = null;
  try {
    path = decodeURIComponent(new URL(location, exchange.request.url).pathname);
  } catch {
    // A Location that is no URL at all: the header's own check (format uri-reference) reports it; here it names no record.
  }
  const own = decodeURIComponent(ownPath);
  return path?.endsWith(own) ? null : `the 201's Location ${JSON.stringify(location)} does not name the record created (${own})`;
}
