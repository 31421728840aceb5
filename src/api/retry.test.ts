// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recentReads } from './recent-reads';
import { retryingFetch } from './retry';

const ok = () => new Response('[]', { status: 200 });
const noSleep = () => Promise.resolve();

afterEach(() => {
  vi.useRealTimers();
});

describe('retryingFetch', () => {
  it('retries a GET after a network failure and a gateway error, waiting longer each time', async () => {
    const base = vi
      .fn<(r: Request) => Promise<Response>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(new Response('busy', { status: 503 }))
      .mockResolvedValueOnce(ok());
    const waits: number[] = [];
    const fetcher = retryingFetch({ retries: 2, baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) }, base);
    const response = await fetcher(new Request('http://x/api/symbols'));
    expect(response.status).toBe(200);
    expect(base).toHaveBeenCalledTimes(3);
    expect(waits).toHaveLength(2);
    // Exponential backoff with jitter: about 100 ms, then about 200 ms.
    expect(waits[0]).toBeGreaterThanOrEqual(75);
    expect(waits[0]).toBeLessThanOrEqual(125);
    expect(waits[1]).toBeGreaterThanOrEqual(150);
    expect(waits[1]).toBeLessThanOrEqual(250);
  });

  it('gives up after the last retry: the gateway error is answered, a network error thrown', async () => {
    const gateway = vi.fn(async () => new Response('busy', { status: 502 }));
    expect((await retryingFetch({ retries: 1, sleep: noSleep }, gateway)(new Request('http://x/a'))).status).toBe(502);
    expect(gateway).toHaveBeenCalledTimes(2);
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(retryingFetch({ retries: 2, sleep: noSleep }, down)(new Request('http://x/a'))).rejects.toThrow('Failed to fetch');
    expect(down).toHaveBeenCalledTimes(3);
  });

  it('never repeats a request that is not a GET', async () => {
    const base = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(retryingFetch({ sleep: noSleep }, base)(new Request('http://x/a', { method: 'POST', body: '{}' }))).rejects.toThrow();
    expect(base).toHaveBeenCalledTimes(1);
  });

  it('retries each gateway error, 502, 503 and 504, as the module is loaded', async () => {
    // The set of retried statuses is built when the module loads: a fresh load sees it as built.
    vi.resetModules();
    const fresh = await import('./retry');
    for (const status of [502, 503, 504]) {
      const base = vi
        .fn<(r: Request) => Promise<Response>>()
        .mockResolvedValueOnce(new Response('busy', { status }))
        .mockResolvedValueOnce(ok());
      expect((await fresh.retryingFetch({ sleep: noSleep }, base)(new Request('http://x/a'))).status).toBe(200);
      expect(base).toHaveBeenCalledTimes(2);
    }
  });

  it('does not retry client errors', async () => {
    const base = vi.fn(async () => new Response('{}', { status: 404 }));
    expect((await retryingFetch({ sleep: noSleep }, base)(new Request('http://x/a'))).status).toBe(404);
    expect(base).toHaveBeenCalledTimes(1);
  });

  it('abandons a GET that does not answer in time and says so', async () => {
    const hang = vi.fn(
      (request: Request) =>
        new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))),
    );
    const fetcher = retryingFetch({ retries: 1, timeoutMs: 20, sleep: noSleep }, hang);
    await expect(fetcher(new Request('http://x/slow'))).rejects.toThrow('No answer within 0.02 s');
    expect(hang).toHaveBeenCalledTimes(2);
  });

  it('stops at once when the caller cancels', async () => {
    const controller = new AbortController();
    const base = vi.fn(async (request: Request) => {
      controller.abort();
      throw request.signal.reason ?? new DOMException('aborted', 'AbortError');
    });
    await expect(retryingFetch({ sleep: noSleep }, base)(new Request('http://x/a', { signal: controller.signal }))).rejects.toBeDefined();
    expect(base).toHaveBeenCalledTimes(1);
  });

  it('waits three quarters to five quarters of the doubled delay', async () => {
    const waits: number[] = [];
    const busy = async () => new Response('busy', { status: 503 });
    vi.spyOn(Math, 'random').mockReturnValue(0);
    await retryingFetch({ retries: 2, baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) }, busy)(new Request('http://x/a'));
    vi.spyOn(Math, 'random').mockReturnValue(1);
    await retryingFetch({ retries: 1, baseDelayMs: 100, sleep: async (ms) => void waits.push(ms) }, busy)(new Request('http://x/a'));
    expect(waits).toEqual([75, 150, 125]);
  });

  it('sends any other method once as it is, whatever it is answered', async () => {
    const base = vi.fn(async () => new Response('busy', { status: 503 }));
    const post = new Request('http://x/a', { method: 'POST', body: '{}' });
    expect((await retryingFetch({ sleep: noSleep }, base)(post)).status).toBe(503);
    expect(base).toHaveBeenCalledExactlyOnceWith(post);
  });

  it('remembers the reads that succeeded, for the offline copy', async () => {
    const fetcher = retryingFetch(
      { sleep: noSleep },
      async (request) => new Response('{}', { status: request.url.endsWith('missing') ? 404 : 200 }),
    );
    await fetcher(new Request('http://x/api/remembered'));
    await fetcher(new Request('http://x/api/missing'));
    expect(recentReads()).toContain('http://x/api/remembered');
    expect(recentReads()).not.toContain('http://x/api/missing');
  });

  describe('between attempts', () => {
    const failing = () => vi.fn(async () => new Response('busy', { status: 503 }));

    it('waits the delay before trying again', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const base = failing()
        .mockResolvedValueOnce(new Response('busy', { status: 503 }))
        .mockResolvedValueOnce(ok());
      vi.spyOn(Math, 'random').mockReturnValue(0.5);
      const answer = retryingFetch({ retries: 1, baseDelayMs: 1000 }, base)(new Request('http://x/a'));
      await vi.advanceTimersByTimeAsync(999);
      expect(base).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect((await answer).status).toBe(200);
      expect(base).toHaveBeenCalledTimes(2);
    });

    it('stops waiting at once when the caller cancels, and leaves no timer behind', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const base = failing();
      const controller = new AbortController();
      const answer = retryingFetch({ retries: 2, baseDelayMs: 60_000 }, base)(new Request('http://x/a', { signal: controller.signal }));
      answer.catch(() => undefined);
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(1);
      controller.abort(new DOMException('Left the screen', 'AbortError'));
      await expect(answer).rejects.toMatchObject({ name: 'AbortError', message: 'Left the screen' });
      expect(vi.getTimerCount()).toBe(0);
      expect(base).toHaveBeenCalledTimes(1);
    });

    it('does not wait when the caller cancelled as the answer came', async () => {
      const controller = new AbortController();
      const base = vi.fn(async () => {
        controller.abort(new DOMException('Left the screen', 'AbortError'));
        return new Response('busy', { status: 503 });
      });
      const answer = retryingFetch({ retries: 2, baseDelayMs: 1 }, base)(new Request('http://x/a', { signal: controller.signal }));
      await expect(answer).rejects.toMatchObject({ message: 'Left the screen' });
      expect(base).toHaveBeenCalledTimes(1);
    });
  });
});
