import type { FetchLike } from './transport';
import { rememberRead } from './recent-reads';

export interface RetryOptions {
  retries?: number;
  /** First wait; each next one doubles, with jitter. */
  baseDelayMs?: number;
  /** A GET that has not answered by then is abandoned and retried. */
  timeoutMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const RETRYABLE_STATUS = new Set([502, 503, 504]);

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, and a later call finds the wait settled
      { once: true },
    );
  });
}

/**
 * GETs are safe to repeat: on a network failure, a timeout or a gateway error they are retried
 * with exponential backoff. Other methods go through once, so nothing is ever sent twice.
 */
export function retryingFetch(
  { retries = 2, baseDelayMs = 400, timeoutMs = 15000, sleep = wait }: RetryOptions = {},
  base: FetchLike = (r) => fetch(r),
): FetchLike {
  return async (request) => {
    if (request.method !== 'GET') return base(request);
    for (let attempt = 0; ; attempt++) {
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([request.signal, timeout]);
      try {
        const response = await base(new Request(request, { signal }));
        if (response.ok) rememberRead(request.url);
        if (!RETRYABLE_STATUS.has(response.status) || attempt >= retries) return response;
      } catch (error) {
        if (request.signal.aborted) throw error;
        if (attempt >= retries) {
          throw timeout.aborted ? new TypeError(`No answer within ${timeoutMs / 1000} s`) : error;
        }
      }
      const delay = baseDelayMs * 2 ** attempt * (0.75 + Math.random() * 0.5);
      await sleep(delay, request.signal);
    }
  };
}
