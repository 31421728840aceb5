/**
 * Scroll restoration for history navigation: each history entry gets a key in history.state,
 * its scroll position is saved as the user scrolls, and restored when the user comes back.
 */
const STORE_KEY = 'router.scroll';
let positions: Record<string, number> = {};
try {
  positions = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? '{}') as Record<string, number>;
} catch {
  // Unreadable (storage denied, not JSON): positions is still the empty record it started as.
}

/** The key of the current history entry, once a screen was shown in it (see applyScroll). */
function currentKey(): string | undefined {
  return (history.state as { scrollKey?: string } | null)?.scrollKey;
}

function stampKey(): string {
  // Stryker disable next-line MethodExpression: the key is only compared for equality, and '0.' in front of every key keeps them as distinct
  const scrollKey = Math.random().toString(36).slice(2);
  // Stryker disable next-line StringLiteral: the title argument of replaceState is ignored by browsers
  history.replaceState({ ...((history.state as object | null) ?? {}), scrollKey }, '');
  return scrollKey;
}

export function installScrollRestoration(): () => void {
  if ('scrollRestoration' in history) history.scrollRestoration = 'manual';
  let frame = 0;
  const onScroll = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      // An entry without a key has no screen shown yet (a navigation is under way): the offset
      // belongs to the screen being left, not to it.
      const key = currentKey();
      if (!key) return;
      positions[key] = window.scrollY;
      try {
        sessionStorage.setItem(STORE_KEY, JSON.stringify(positions));
      } catch {
        // Restoration is a nicety: without storage it only lasts for this page.
      }
    });
  };
  window.addEventListener('scroll', onScroll, { passive: true });
  return () => {
    cancelAnimationFrame(frame);
    window.removeEventListener('scroll', onScroll);
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
    // Stryker disable next-line CallExpression: a timer left running only calls this stop again, which disconnects and removes what is already gone and no longer owns stopHolding
    clearTimeout(timer);
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, stop);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: each stop runs while it is still the current hold (a new hold stops the old one before replacing it, and a stopped one is never called again), and calling a stale stop again changes nothing
    if (stopHolding === stop) stopHolding = null;
  };
  const timer = setTimeout(stop, HOLD_MS);
  for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, stop, { passive: true });
  stopHolding = stop;
}

/**
 * Called once a screen has rendered. An entry that already has a key was shown before: the user
 * came back to it (back, forward or reload) and its position is restored. A new entry (a link,
 * a redirect, a first visit) gets a key and starts at its anchor, or at the top.
 *
 * The key, not the popstate event, tells the two apart: the router may render the screen of the
 * entry before a popstate listener runs, so the event cannot be relied on to come first.
 */
export function applyScroll(hash: string): void {
  const key = currentKey();
  if (key) {
    const saved = positions[key] ?? 0;
    hold(() => window.scrollTo(0, saved));
    return;
  }
  stampKey();
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
