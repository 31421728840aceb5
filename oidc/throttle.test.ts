// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { attemptKeys, createThrottle, DEFAULT_THROTTLE } from './throttle.ts';

/** A throttle on a clock the test moves. */
function clocked(options = {}) {
  let time = 1_000_000;
  const throttle = createThrottle(options, () => time);
  return { throttle, advance: (ms: number) => (time += ms) };
}

const ADA = attemptKeys('  Ada ', '10.0.0.1');

describe('the sign-in throttle', () => {
  it('keys an attempt by the name typed (trimmed, any case) and the client', () => {
    expect(ADA).toEqual(['account:ada', 'client:10.0.0.1']);
    expect(attemptKeys('x', undefined)).toEqual(['account:x', 'client:unknown']);
  });

  it('answers the first failures at once, then doubles the delay up to its cap, then refuses for the lock time', () => {
    const { throttle, advance } = clocked();
    const delays = Array.from({ length: DEFAULT_THROTTLE.lockAfter }, () => throttle.failed(ADA));
    expect(delays).toEqual([0, 0, 0, 250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect(throttle.retryAfter(ADA)).toBe(5 * 60_000);
    advance(60_000);
    expect(throttle.retryAfter(ADA)).toBe(4 * 60_000);
    advance(4 * 60_000);
    expect(throttle.retryAfter(ADA)).toBe(0);
    // Still within the window: one more failure locks again at once.
    expect(throttle.failed(ADA)).toBe(4000);
    expect(throttle.retryAfter(ADA)).toBe(5 * 60_000);
  });

  it('refuses an account guessed at from many clients, and a client guessing many accounts', () => {
    const { throttle } = clocked({ lockAfter: 3 });
    for (const client of ['1', '2', '3']) throttle.failed(attemptKeys('ada', client));
    expect(throttle.retryAfter(attemptKeys('ada', '4'))).toBeGreaterThan(0);
    expect(throttle.retryAfter(attemptKeys('grace', '4'))).toBe(0);
    for (const name of ['grace', 'linus', 'nobody']) throttle.failed(attemptKeys(name, '9'));
    expect(throttle.retryAfter(attemptKeys('someone', '9'))).toBeGreaterThan(0);
  });

  it('forgets failures older than its window', () => {
    const { throttle, advance } = clocked({ freeFailures: 1 });
    throttle.failed(ADA);
    throttle.failed(ADA);
    advance(DEFAULT_THROTTLE.windowMs + 1);
    expect(throttle.failed(ADA)).toBe(0);
  });

  it("a success forgets the account's failures, not the client's", () => {
    const { throttle } = clocked({ freeFailures: 1 });
    throttle.failed(ADA);
    throttle.failed(ADA);
    throttle.succeeded(ADA[0]!);
    // The account starts again; the client's count goes on (2 before, this is its third).
    expect(throttle.failed(attemptKeys('ada', 'elsewhere'))).toBe(0);
    expect(throttle.failed(attemptKeys('grace', '10.0.0.1'))).toBe(500);
  });

  it('keeps at most ten thousand keys, forgetting the oldest that are not locked: a flood of names unlocks nothing', () => {
    const { throttle } = clocked({ lockAfter: 2, freeFailures: 0 });
    throttle.failed(['account:locked']);
    throttle.failed(['account:locked']);
    throttle.failed(['account:counted']);
    for (let i = 1; i <= 10_000; i++) throttle.failed([`account:name${i}`]);
    expect(throttle.retryAfter(['account:locked'])).toBe(DEFAULT_THROTTLE.lockMs);
    // Forgotten: its next failure is its first again (250 ms), not its second (500 ms).
    expect(throttle.failed(['account:counted'])).toBe(250);
    expect(throttle.failed(['account:name10000'])).toBe(500);
  });
});
