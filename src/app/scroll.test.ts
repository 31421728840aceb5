import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** The module keeps saved positions and the current hold in module state: a fresh copy per test, as after a reload. */
async function fresh() {
  vi.resetModules();
  return import('./scroll');
}

const STORE_KEY = 'router.scroll';

/** Animation frames run when the test says so, so that "one write per frame" can be seen. */
function controlledFrames() {
  const pending = new Map<number, FrameRequestCallback>();
  let next = 1;
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => {
    pending.set(next, cb);
    return next++;
  });
  vi.stubGlobal('cancelAnimationFrame', (id: number) => pending.delete(id));
  return () => {
    const due = [...pending.values()];
    pending.clear();
    for (const cb of due) cb(0);
  };
}

/** A ResizeObserver the test can fire, as the page growing when a screen's data arrives. */
function controlledResize() {
  const observers: { callback: () => void; observed: Element[]; connected: boolean }[] = [];
  class FakeResizeObserver {
    private readonly entry: (typeof observers)[number];
    constructor(callback: () => void) {
      this.entry = { callback, observed: [], connected: true };
      observers.push(this.entry);
    }
    observe(target: Element) {
      this.entry.observed.push(target);
    }
    unobserve() {}
    disconnect() {
      this.entry.connected = false;
    }
  }
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
  return {
    observers,
    /** Fires every observer still watching the page, as a browser would on a size change. */
    grow: () => {
      for (const o of observers) if (o.connected && o.observed.length > 0) o.callback();
    },
  };
}

function scrollAt(y: number) {
  window.scrollTo(0, y);
  window.dispatchEvent(new Event('scroll'));
}

const stored = () => JSON.parse(sessionStorage.getItem(STORE_KEY) ?? 'null') as Record<string, number> | null;
const keyOfEntry = () => (history.state as { scrollKey?: string } | null)?.scrollKey;

beforeEach(() => {
  history.replaceState(null, '');
  window.scrollTo(0, 0);
  document.body.replaceChildren();
});

afterEach(() => {
  document.body.replaceChildren();
});

describe('installScrollRestoration', () => {
  it('takes scroll restoration over from the browser', async () => {
    history.scrollRestoration = 'auto';
    const { installScrollRestoration } = await fresh();
    const stop = installScrollRestoration();
    expect(history.scrollRestoration).toBe('manual');
    stop();
  });

  it("saves the entry's offset as the user scrolls, once per frame, in session storage", async () => {
    const flush = controlledFrames();
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const addListener = vi.spyOn(window, 'addEventListener');
    history.replaceState({ scrollKey: 'entry-1' }, '');
    const { installScrollRestoration } = await fresh();
    const stop = installScrollRestoration();
    // A passive listener never delays the browser's own scrolling.
    expect(addListener).toHaveBeenCalledWith('scroll', expect.any(Function), { passive: true });

    scrollAt(120);
    scrollAt(340);
    flush();

    expect(stored()).toEqual({ 'entry-1': 340 });
    expect(setItem.mock.calls.filter(([key]) => key === STORE_KEY)).toHaveLength(1);
    stop();
  });

  it('saves nothing for an entry whose screen is not shown yet (a navigation under way)', async () => {
    const flush = controlledFrames();
    const { installScrollRestoration } = await fresh();
    const stop = installScrollRestoration();
    scrollAt(500);
    flush();
    expect(stored()).toBeNull();
    stop();
  });

  it('stops saving once removed, including a frame still pending', async () => {
    const flush = controlledFrames();
    history.replaceState({ scrollKey: 'entry-1' }, '');
    const { installScrollRestoration } = await fresh();
    const stop = installScrollRestoration();
    scrollAt(200);
    stop();
    flush();
    scrollAt(300);
    flush();
    expect(stored()).toBeNull();
  });

  it('restores a position saved before a reload when the entry is shown again', async () => {
    const flush = controlledFrames();
    controlledResize();
    history.replaceState({ scrollKey: 'entry-1', other: 'kept' }, '');
    const first = await fresh();
    const stop = first.installScrollRestoration();
    scrollAt(640);
    flush();
    stop();

    window.scrollTo(0, 0);
    const reloaded = await fresh();
    reloaded.applyScroll('');
    expect(window.scrollY).toBe(640);
    expect(keyOfEntry()).toBe('entry-1');
  });

  it('starts from nothing when what was stored is not JSON', async () => {
    sessionStorage.setItem(STORE_KEY, '{broken');
    history.replaceState({ scrollKey: 'entry-1' }, '');
    window.scrollTo(0, 250);
    const { applyScroll } = await fresh();
    applyScroll('');
    expect(window.scrollY).toBe(0);
  });
});

describe('applyScroll on a new entry', () => {
  it('gives the entry a key, keeping what the router put in its state, and starts at the top', async () => {
    history.replaceState({ route: '/home' }, '');
    window.scrollTo(0, 400);
    const { applyScroll } = await fresh();
    applyScroll('');
    expect(window.scrollY).toBe(0);
    expect(history.state).toMatchObject({ route: '/home' });
    expect(keyOfEntry()).toMatch(/^[a-z0-9]+$/);
  });

  it('gives each new entry its own key', async () => {
    const { applyScroll } = await fresh();
    applyScroll('');
    const first = keyOfEntry();
    history.pushState(null, '');
    applyScroll('');
    expect(keyOfEntry()).not.toBe(first);
  });

  it('a new entry then shown again is restored rather than sent to the top', async () => {
    const flush = controlledFrames();
    controlledResize();
    const { applyScroll, installScrollRestoration } = await fresh();
    const stop = installScrollRestoration();
    applyScroll('');
    scrollAt(90);
    flush();
    window.scrollTo(0, 0);
    applyScroll('');
    expect(window.scrollY).toBe(90);
    stop();
  });

  it('scrolls to the anchor named by the hash, decoding it', async () => {
    controlledResize();
    const target = document.createElement('section');
    target.id = 'café';
    document.body.append(target);
    const scrollIntoView = vi.spyOn(target, 'scrollIntoView').mockImplementation(() => {});
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const { applyScroll } = await fresh();

    applyScroll('#caf%C3%A9');

    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollTo).not.toHaveBeenCalled();
    expect(keyOfEntry()).toBeTruthy();
  });

  it('starts at the top when the anchor is not on the page', async () => {
    controlledResize();
    window.scrollTo(0, 300);
    const { applyScroll } = await fresh();
    applyScroll('#missing');
    expect(window.scrollY).toBe(0);
  });
});

describe('holding the scroll while the page grows', () => {
  it("re-applies a restored position each time the page's size changes", async () => {
    const resize = controlledResize();
    sessionStorage.setItem(STORE_KEY, JSON.stringify({ back: 700 }));
    history.replaceState({ scrollKey: 'back' }, '');
    const { applyScroll } = await fresh();

    applyScroll('');
    expect(window.scrollY).toBe(700);
    expect(resize.observers[0]?.observed).toEqual([document.body]);

    // The short page clamped the offset; the data arrives and the page grows.
    window.scrollTo(0, 200);
    resize.grow();
    expect(window.scrollY).toBe(700);
  });

  it('keeps an anchor in view as content arrives above it, and survives the anchor going away', async () => {
    const resize = controlledResize();
    const target = document.createElement('h2');
    target.id = 'faq';
    document.body.append(target);
    const scrollIntoView = vi.spyOn(target, 'scrollIntoView').mockImplementation(() => {});
    const { applyScroll } = await fresh();

    applyScroll('#faq');
    resize.grow();
    expect(scrollIntoView).toHaveBeenCalledTimes(2);

    target.remove();
    expect(() => resize.grow()).not.toThrow();
  });

  it.each(['wheel', 'touchstart', 'keydown', 'pointerdown'])('lets go as soon as the user scrolls themselves (%s)', async (type) => {
    const resize = controlledResize();
    const removeListener = vi.spyOn(window, 'removeEventListener');
    const addListener = vi.spyOn(window, 'addEventListener');
    sessionStorage.setItem(STORE_KEY, JSON.stringify({ back: 700 }));
    history.replaceState({ scrollKey: 'back' }, '');
    const { applyScroll } = await fresh();
    applyScroll('');
    // Listening must never delay the user's own scrolling.
    expect(addListener).toHaveBeenCalledWith(type, expect.any(Function), { passive: true });

    window.dispatchEvent(new Event(type));
    window.scrollTo(0, 50);
    resize.grow();

    expect(window.scrollY).toBe(50);
    expect(resize.observers[0]?.connected).toBe(false);
    // The user's input is no longer watched once the hold is over.
    for (const t of ['wheel', 'touchstart', 'keydown', 'pointerdown']) {
      expect(removeListener).toHaveBeenCalledWith(t, expect.any(Function));
    }
  });

  it('lets go after five seconds, the time a page gets to settle', async () => {
    vi.useFakeTimers();
    const resize = controlledResize();
    sessionStorage.setItem(STORE_KEY, JSON.stringify({ back: 700 }));
    history.replaceState({ scrollKey: 'back' }, '');
    const { applyScroll } = await fresh();
    applyScroll('');

    vi.advanceTimersByTime(4999);
    window.scrollTo(0, 10);
    resize.grow();
    expect(window.scrollY).toBe(700);

    vi.advanceTimersByTime(1);
    window.scrollTo(0, 10);
    resize.grow();
    expect(window.scrollY).toBe(10);
  });

  it('lets go of the previous screen when another one is shown', async () => {
    const resize = controlledResize();
    sessionStorage.setItem(STORE_KEY, JSON.stringify({ back: 700 }));
    history.replaceState({ scrollKey: 'back' }, '');
    const { applyScroll } = await fresh();
    applyScroll('');

    history.pushState(null, '');
    applyScroll('');
    expect(window.scrollY).toBe(0);
    resize.grow();
    expect(window.scrollY).toBe(0);
  });

  it('applies the position once when the browser cannot watch the page size', async () => {
    vi.stubGlobal('ResizeObserver', undefined);
    sessionStorage.setItem(STORE_KEY, JSON.stringify({ back: 700 }));
    history.replaceState({ scrollKey: 'back' }, '');
    const { applyScroll } = await fresh();
    applyScroll('');
    expect(window.scrollY).toBe(700);
  });
});
