import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Shared setup of the unit project. Every test starts with empty storage and real timers;
 * whatever a component test rendered is unmounted afterwards. Files that opt into the node
 * environment (pure logic) have no storage and no DOM, and skip those parts.
 */
function clearStorage() {
  try {
    globalThis.localStorage?.clear();
    globalThis.sessionStorage?.clear();
  } catch {
    // A test may have replaced storage with one that throws; vi.unstubAllGlobals() restores it.
  }
}

beforeEach(() => {
  clearStorage();
});

afterEach(async () => {
  // Only component tests render; loading Testing Library (and react-dom) for the others costs time.
  if (typeof document !== 'undefined' && document.body.childElementCount > 0) {
    const { cleanup } = await import('@testing-library/react');
    cleanup();
    document.body.replaceChildren();
  }
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  clearStorage();
});
