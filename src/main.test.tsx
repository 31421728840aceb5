import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * main.tsx is the page's entry: it names the build, then loads the app once the prerendered screen
 * has painted (or after three seconds, whichever comes first). Each test loads it afresh and
 * records which of the app's modules it asked for.
 *
 * Its stylesheets come from the build's plugins (the theme sheet is a virtual module), which the
 * unit tests do not run: the entry is loaded from a copy without those imports, its other imports
 * pointed back at src/ (so the stand-ins below stand in for them). The copy lives in the project's
 * ignored .cache/: Vite loads no module from outside the project.
 */
const h = vi.hoisted(() => ({
  paint: [] as Array<() => void>,
  loaded: [] as string[],
  bootFails: { current: null as Error | null },
}));

vi.mock('./lib/first-paint', () => ({
  afterFirstContentfulPaint: (then: () => void) => {
    h.paint.push(then);
  },
}));

// The page's timers are fake (its three-second fallback); the test's waiting is not.
const realSetTimeout = globalThis.setTimeout;
const settle = () => new Promise((resolve) => realSetTimeout(resolve, 20));

const here = dirname(fileURLToPath(import.meta.url));
const cache = join(here, '..', '.cache');
mkdirSync(cache, { recursive: true });
const copies = mkdtempSync(join(cache, 'unit-entry-'));
let copied = 0;

/** Loads the entry as the page does, each time afresh (the copy is read when the test runs). */
async function loadEntry() {
  const source = readFileSync(join(here, 'main.tsx'), 'utf8')
    .replace(/^import\s*['"][^'"]+\.css['"];?[ \t]*$/gm, '')
    .replace(/(from\s*|import\s*\(\s*)(['"])\.\//g, `$1$2${here}/`);
  expect(source).not.toMatch(/\.css['"]/);
  copied += 1;
  const copy = join(copies, `main-${copied}.tsx`);
  writeFileSync(copy, source);
  vi.resetModules();
  // Registered again for each load: a stand-in's module, once made, would be kept otherwise.
  vi.doMock('./boot', () => {
    h.loaded.push('boot');
    if (h.bootFails.current) throw h.bootFails.current;
    return {};
  });
  vi.doMock('./app/home-screen', () => {
    h.loaded.push('home-screen');
    return {};
  });
  await import(/* @vite-ignore */ copy);
}

afterAll(() => {
  rmSync(copies, { recursive: true, force: true });
});

/** The first contentful paint, as the browser reports it. */
function paint() {
  for (const then of h.paint) then();
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  h.paint.length = 0;
  h.loaded.length = 0;
  h.bootFails.current = null;
});

afterEach(() => {
  vi.useRealTimers();
  delete document.documentElement.dataset.build;
});

describe('the entry', () => {
  it('names the build on the page at once', async () => {
    vi.stubGlobal('__BUILD_ID__', '2026.11.23-abc123');
    await loadEntry();
    expect(document.documentElement.dataset.build).toBe('2026.11.23-abc123');
  });

  it('loads the app and the home screen once the page has painted, and only once', async () => {
    await loadEntry();
    await settle();
    expect(h.loaded).toEqual([]);
    paint();
    await settle();
    expect(h.loaded.sort()).toEqual(['boot', 'home-screen']);
    // The three-second fallback finds the app started.
    vi.advanceTimersByTime(3000);
    await settle();
    expect(h.loaded).toHaveLength(2);
  });

  it('loads the app after three seconds when no paint is reported', async () => {
    await loadEntry();
    vi.advanceTimersByTime(2999);
    await settle();
    expect(h.loaded).toEqual([]);
    vi.advanceTimersByTime(1);
    await settle();
    expect(h.loaded.sort()).toEqual(['boot', 'home-screen']);
  });

  it('says so, once, when the app cannot be loaded', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    h.bootFails.current = new Error('chunk failed');
    await loadEntry();
    paint();
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith('Circle failed to start', expect.any(Error)));
    vi.advanceTimersByTime(3000);
    await settle();
    expect(error).toHaveBeenCalledTimes(1);
  });
});
