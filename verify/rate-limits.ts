/**
 * The rate limits a document states: an operation that documents 429 is sent valid requests, one
 * after the other, until it answers 429 or RATE_LIMIT_TRIES of them have gone. The 429 is then
 * judged as any answer (its `Retry-After`, its body); none at all is a note, not a failure: the
 * limit may be higher than verify goes. Sent as the least privileged caller the operation takes
 * (without credentials where it is open), whom limits hold tightest; last of the run, so that a
 * spent limit holds back no other check.
 */
import fc from 'fast-check';
import type { OperationSpec } from '../openapi-kit/index.ts';
import type { Credentials } from './exchange.ts';
import { SAFE_METHODS, unlessBudgetSpent, type Session } from './session.ts';
import type { SingleExchanges } from './singles.ts';

/** Valid requests sent to an operation that documents 429 before its limit is noted as not reached. */
export const RATE_LIMIT_TRIES = 30;

export async function probeRateLimits(session: Session, singles: SingleExchanges, ops: readonly OperationSpec[]): Promise<void> {
  const { results, options } = session;
  for (const op of ops) {
    if (!op.statuses.includes('429')) continue;
    if (options.readOnly && !SAFE_METHODS.includes(op.method)) continue;
    const as: Credentials = op.secured ? 'member' : 'none';
    const requests = fc
      .sample(singles.requests.validRequest(op), { seed: session.seedOf(`${op.id}:rate limit`), numRuns: RATE_LIMIT_TRIES * 3 })
      .filter((r) => singles.requests.isValid(op, r))
      .slice(0, RATE_LIMIT_TRIES);
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
        sent++;
        for (const finding of findings) results.fail(op, 'valid input', exchange, finding);
        if (exchange.response?.status === 429) {
          limited = true;
          return;
        }
        if (findings.length > 0) return;
      }
    });
    if (!limited && sent === requests.length)
      results.note(
        op,
        'valid input',
        `its 429 not reached: ${sent} valid requests${as === 'none' ? ' without credentials' : ''}, one after the other, all let through`,
      );
  }
}
