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

/** Called once a screen has rendered: back/forward restores, an anchor scrolls into view, else top. */
export function applyScroll(hash: string): void {
  const fromHistory = performance.now() - poppedAt < 2000;
  poppedAt = 0;
  const saved = positions[entryKey()];
  if (fromHistory && saved !== undefined) {
    window.scrollTo(0, saved);
    return;
  }
  if (hash.length > 1) {
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (target) {
      target.scrollIntoView();
      return;
    }
  }
  window.scrollTo(0, 0);
}
