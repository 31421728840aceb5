/**
 * Scroll restoration for history navigation: each history entry gets a key in history.state,
 * its scroll position is saved as the user scrolls, and restored when the user comes back.
 */
const STORE_KEY = 'router.scroll';
let positions: Record<string, number> = {};
try {
  positions = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? '{}') as Record<string, number>;
} catch {
  positions = {};
}

function entryKey(): string {
  const state = history.state as { scrollKey?: string } | null;
  if (state?.scrollKey) return state.scrollKey;
  const scrollKey = Math.random().toString(36).slice(2);
  history.replaceState({ ...(state ?? {}), scrollKey }, '');
  return scrollKey;
}

let poppedAt = 0;

export function installScrollRestoration(): () => void {
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  let frame = 0;
  const onScroll = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      positions[entryKey()] = window.scrollY;
      try {
        sessionStorage.setItem(STORE_KEY, JSON.stringify(positions));
      } catch {
        // Restoration is a nicety: without storage it only lasts for this page.
      }
    });
  };
  const onPop = () => {
    poppedAt = performance.now();
  };
  window.addEventListener('scroll', onScroll, { passive: true });
  window.addEventListener('popstate', onPop);
  return () => {
    window.removeEventListener('scroll', onScroll);
    window.removeEventListener('popstate', onPop);
  };
}

/** How long a restored position or an anchor is held while the screen's data arrives. */
const HOLD_MS = 5000;
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
let stopHolding: (() => void) | null = null;

/**
 * A screen renders before its data arrives, so the page is shorter at first than when it was
 * left: a saved position cannot be reached yet, and content arriving above an anchor pushes it
 * away. The scroll is applied again each time the page changes size, until the user scrolls
 * themselves, another screen is shown, or the page had time to settle.
 */
function hold(apply: () => void): void {
  stopHolding?.();
  apply();
  if (typeof ResizeObserver === 'undefined') return;
  const observer = new ResizeObserver(() => apply());
  observer.observe(document.body);
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
    if (stopHolding === stop) stopHolding = null;
  };
  const timer = setTimeout(stop, HOLD_MS);
  for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
  stopHolding = stop;
}

/** Called once a screen has rendered: back/forward restores, an anchor scrolls into view, else top. */
export function applyScroll(hash: string): void {
  const fromHistory = performance.now() - poppedAt < 2000;
  poppedAt = 0;
  const saved = positions[entryKey()];
  if (fromHistory && saved !== undefined) {
    hold(() => window.scrollTo(0, saved));
    return;
  }
  if (hash.length > 1) {
    const id = decodeURIComponent(hash.slice(1));
    if (document.getElementById(id)) {
      hold(() => document.getElementById(id)?.scrollIntoView());
      return;
    }
  }
  stopHolding?.();
  window.scrollTo(0, 0);
}
