import { beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstContentfulPaint } from './first-paint';

type Entry = { name: string };
type Callback = (list: { getEntries(): Entry[] }) => void;

/**
 * The page's paint timeline as a browser reports it: observers of 'paint' are told of each paint,
 * and an observer asking for buffered entries is told, in a later task, of the paints before it.
 */
function paintTimeline(supportedEntryTypes: readonly string[] | null = ['paint', 'largest-contentful-paint']) {
  const painted: Entry[] = [];
  const observing = new Set<Callback>();
  class FakePerformanceObserver {
    // Older browsers have the observer but not this list.
    static readonly supportedEntryTypes = supportedEntryTypes ?? undefined;
    readonly #callback: Callback;
    constructor(callback: Callback) {
      this.#callback = callback;
    }
    observe({ type, buffered }: { type?: string; buffered?: boolean }) {
      if (type !== 'paint') return;
      observing.add(this.#callback);
      const earlier = painted.slice();
      if (buffered && earlier.length) setTimeout(() => this.#callback({ getEntries: () => earlier }), 0);
    }
    disconnect() {
      observing.delete(this.#callback);
    }
  }
  vi.stubGlobal('PerformanceObserver', FakePerformanceObserver);
  return {
    paint(...names: string[]) {
      const entries = names.map((name) => ({ name }));
      painted.push(...entries);
      for (const callback of [...observing]) callback({ getEntries: () => entries });
    },
    get observers() {
      return observing.size;
    },
  };
}

/** Animation frames that run only when the test says a frame has passed. */
function frames() {
  const pending: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => pending.push(callback));
  return {
    next() {
      for (const callback of pending.splice(0)) callback(performance.now());
    },
  };
}

describe('afterFirstContentfulPaint', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
  });

  it('runs once the first contentful paint is reported, in a task of its own', () => {
    const timeline = paintTimeline();
    const frame = frames();
    const then = vi.fn();
    afterFirstContentfulPaint(then);
    frame.next();
    vi.runAllTimers();
    expect(then).not.toHaveBeenCalled();

    timeline.paint('first-contentful-paint');
    expect(then).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(then).toHaveBeenCalledOnce();
  });

  it('waits past a first paint that has no content', () => {
    const timeline = paintTimeline();
    const then = vi.fn();
    afterFirstContentfulPaint(then);
    timeline.paint('first-paint');
    vi.runAllTimers();
    expect(then).not.toHaveBeenCalled();

    timeline.paint('first-contentful-paint');
    vi.runAllTimers();
    expect(then).toHaveBeenCalledOnce();
  });

  it('runs when the contentful paint happened before it was asked', () => {
    const timeline = paintTimeline();
    timeline.paint('first-paint', 'first-contentful-paint');
    const then = vi.fn();
    afterFirstContentfulPaint(then);
    vi.runAllTimers();
    expect(then).toHaveBeenCalledOnce();
  });

  it('stops observing paints once it has run', () => {
    const timeline = paintTimeline();
    const then = vi.fn();
    afterFirstContentfulPaint(then);
    expect(timeline.observers).toBe(1);
    timeline.paint('first-contentful-paint');
    expect(timeline.observers).toBe(0);
    vi.runAllTimers();
    expect(then).toHaveBeenCalledOnce();
  });

  it('runs at once in a hidden tab, which paints nothing', () => {
    paintTimeline();
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    const then = vi.fn();
    afterFirstContentfulPaint(then);
    expect(then).toHaveBeenCalledOnce();
  });

  describe('where paint timing is not reported, runs after the next frame', () => {
    it.each([
      ['no PerformanceObserver', () => vi.stubGlobal('PerformanceObserver', undefined)],
      ['no list of supported entry types', () => paintTimeline(null)],
      ['no paint among the supported entry types', () => paintTimeline(['largest-contentful-paint', 'resource'])],
    ])('%s', (_, browser) => {
      browser();
      const frame = frames();
      const then = vi.fn();
      afterFirstContentfulPaint(then);
      vi.runAllTimers();
      expect(then).not.toHaveBeenCalled();
      frame.next();
      expect(then).not.toHaveBeenCalled();
      vi.runAllTimers();
      expect(then).toHaveBeenCalledOnce();
    });
  });
});
