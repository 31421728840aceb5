/**
 * The rate limits a document states: an operation that documents 429 is sent valid requests, one
 * after the other, until it answers 429 or RATE_LIMIT_TRIES of them have gone. The 429 is then
 * judged as any answer (its `Retry-After`, its body). None at all is a note, not a failure (the
 * limit may be higher than verify goes), unless the operation states its limit: `x-rate-limit:
 * { requests: N, seconds: S }` says no client gets more than N let through within S seconds, so the
 * (N+1)th sent within S must be refused, and not before N were carried out (keepsItsWord), creates
 * refused for another reason not counted (refusedBetween). Sent as the least privileged caller the operation takes
 * (without credentials where it is open), whom limits hold tightest; last of the run, so that a
 * spent limit holds back no other check.
 */
import fc from 'fast-check';
import { isRecord, type OperationSpec } from '../openapi-kit/index.ts';
import type { Credentials, Exchange } from './exchange.ts';
import type { GeneratedRequest } from './generated-request.ts';
import { callerKey } from './target.ts';
import { SAFE_METHODS, unlessBudgetSpent, type Session } from './session.ts';
import type { SingleExchanges } from './singles.ts';

/** Valid requests sent to an operation that documents 429 before its limit is noted as not reached. */
export const RATE_LIMIT_TRIES = 30;

/** The limit an operation states (`x-rate-limit: { requests, seconds }`), or null when it states none or not as whole numbers. */
function statedLimit(session: Session, op: OperationSpec): { requests: number; seconds: number } | null {
  const raw = session.spec.doc.paths[op.path]?.[op.method.toLowerCase()];
  const stated = isRecord(raw) ? raw['x-rate-limit'] : undefined;
  if (!isRecord(stated)) return null;
  const { requests, seconds } = stated;
  return Number.isInteger(requests) && Number.isInteger(seconds) && (requests as number) > 0 && (seconds as number) > 0
    ? { requests: requests as number, seconds: seconds as number }
    : null;
}

/** Creates sent amid the others that the server must refuse for another reason than the limit: they must not count against it. */
const REFUSED_BETWEEN = 3;

/**
 * While a stated limit is pushed (after its first request), a collection's create that documents 409
 * is sent REFUSED_BETWEEN creates naming the id of a record that exists, as the same caller: refused,
 * they were not carried out, so they must neither count against the limit (keepsItsWord counts only
 * what was) nor give back more than they took (the N + 1 must still meet a 429).
 */
async function refusedBetween(session: Session, singles: SingleExchanges, op: OperationSpec, as: Credentials): Promise<void> {
  const fixtures = singles.fixturesOf(op);
  if (!fixtures || !op.statuses.includes('409')) return;
  await unlessBudgetSpent(async () => {
    await fixtures.setup();
    for (let i = 0; i < REFUSED_BETWEEN; i++) {
      const body = await fixtures.conflicting(`rate limit refused ${i}`);
      if (body === null) return;
      const exchange = await session.target.json(op, {}, body, { credentials: as });
      session.results.count(exchange, 'valid input');
      fixtures.track(exchange);
      // Only a 409 is what was meant; anything else (the limit already reached) ends the warm-up.
      if (exchange.response?.status !== 409) return;
    }
  });
}

/** The longest Retry-After verify waits out to send again. */
const RETRY_WAITED_S = 2;

/**
 * A 429 of an operation that states its limit keeps to it: it comes only once the caller had as many
 * requests carried out within the limit's seconds as the limit lets through (when all of them fall
 * within those seconds, so that any way of counting agrees); its `Retry-After` asks no longer than
 * those seconds; and a wait it asks of at most RETRY_WAITED_S is enough: the request then goes through.
 */
async function keepsItsWord(
  session: Session,
  singles: SingleExchanges,
  op: OperationSpec,
  r: GeneratedRequest,
  as: Credentials,
  refused: Exchange,
  stated: { requests: number; seconds: number },
): Promise<void> {
  const { results } = session;
  const caller = as === 'none' ? ' without credentials' : '';
  const times = session.target.carriedOut.get(callerKey(op, refused.request)) ?? [];
  const since = Date.now() - stated.seconds * 1000;
  if (times.length < stated.requests && times.every((t) => t >= since)) {
    const early = `x-rate-limit lets ${stated.requests} through within ${stated.seconds} s, but it answers 429 after ${times.length} carried out${caller}, all within ${stated.seconds} s`;
    // On a server that ran before, an earlier run or another client may have spent the limit.
    if (session.options.freshServer) results.fail(op, 'valid input', refused, { title: early, violations: [] });
    else
      results.note(
        op,
        'valid input',
        `${early}: not judged, since the server may have counted requests from before the run (give --fresh-server when it was started for the run)`,
      );
  }
  const header = refused.response?.headers.get('retry-after') ?? null;
  const wait = header !== null && /^\d+$/.test(header.trim()) ? Number(header.trim()) : null;
  if (wait === null) return;
  if (wait > stated.seconds)
    results.fail(op, 'valid input', refused, {
      title: `Retry-After: ${wait} asks a longer wait than x-rate-limit's ${stated.seconds} s`,
      violations: [],
    });
  if (wait > RETRY_WAITED_S) return;
  await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 50));
  await singles.makeRoomFor(op);
  const { exchange } = await session.send(op, { ...(await singles.outgoing(op, r)), credentials: as }, 'valid input', { kind: 'valid' });
  singles.track(exchange);
  if (exchange.response?.status === 429)
    results.fail(op, 'valid input', exchange, {
      title: `after the ${wait} s its 429's Retry-After asked, the same request${caller} is refused again`,
      violations: [],
    });
}

export async function probeRateLimits(session: Session, singles: SingleExchanges, ops: readonly OperationSpec[]): Promise<void> {
  const { results, options } = session;
  for (const op of ops) {
    if (!op.statuses.includes('429')) continue;
    if (options.readOnly && !SAFE_METHODS.includes(op.method)) continue;
    const as: Credentials = op.secured ? 'member' : 'none';
    const stated = statedLimit(session, op);
    const tries = stated ? Math.min(RATE_LIMIT_TRIES, stated.requests + 1) : RATE_LIMIT_TRIES;
    const requests = fc
      .sample(singles.requests.validRequest(op), { seed: session.seedOf(`${op.id}:rate limit`), numRuns: tries * 3 })
      .filter((r) => singles.requests.isValid(op, r))
      .slice(0, tries);
    const started = Date.now();
    let last: Exchange | undefined;
    session.activity = `${op.id}: its rate limit`;
    let limited = false;
    let sent = 0;
    await unlessBudgetSpent(async () => {
      for (const r of requests) {
        if (!session.canSend) return;
        await singles.makeRoomFor(op);
        const { exchange, findings } = await session.send(op, { ...(await singles.outgoing(op, r)), credentials: as }, 'valid input', {
          kind: 'valid',
        });
        singles.track(exchange);
        last = exchange;
        sent++;
        for (const finding of findings) results.fail(op, 'valid input', exchange, finding);
        // Between the first request and the rest, creates refused for another reason: they must not count.
        if (sent === 1 && stated && exchange.response?.status !== 429) await refusedBetween(session, singles, op, as);
        if (exchange.response?.status === 429) {
          limited = true;
          if (stated) await keepsItsWord(session, singles, op, r, as, exchange, stated);
          return;
        }
        if (findings.length > 0) return;
      }
    });
    const seconds = (Date.now() - started) / 1000;
    if (!limited && stated && last && sent === stated.requests + 1 && seconds < stated.seconds)
      results.fail(op, 'valid input', last, {
        title: `x-rate-limit lets ${stated.requests} through within ${stated.seconds} s, but ${sent} valid requests${as === 'none' ? ' without credentials' : ''} sent one after the other within ${seconds.toFixed(1)} s were all let through`,
        violations: [],
      });
    else if (!limited && sent === requests.length)
      results.note(
        op,
        'valid input',
        `its 429 not reached: ${sent} valid requests${as === 'none' ? ' without credentials' : ''}, one after the other, all let through`,
      );
  }
}
