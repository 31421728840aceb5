import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * main.tsx is the page's entry: it names the build, starts the boot, and is the one place a failed
 * start is reported (the boot's code that does not load, or a boot that ends in an error). Each
 * test loads it afresh.
 *
 * Its stylesheets come from the build's plugins (the theme sheet is a virtual module), which the
 * unit tests do not run: the entry is loaded from a copy without those imports, its other imports
 * pointed back at src/ (so the stand-ins below stand in for them). The copy lives in the project's
 * ignored .cache/: Vite loads no module from outside the project.
 */
const h = vi.hoisted(() => ({
  loaded: [] as string[],
  booted: 0,
  loadFails: { current: null as Error | null },
  bootFails: { current: null as Error | null },
}));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

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
    if (h.loadFails.current) throw h.loadFails.current;
    return {
      boot: async () => {
        h.booted += 1;
        if (h.bootFails.current) throw h.bootFails.current;
      },
    };
  });
  await import(/* @vite-ignore */ copy);
}

afterAll(() => {
  rmSync(copies, { recursive: true, force: true });
});

beforeEach(() => {
  h.loaded.length = 0;
  h.booted = 0;
  h.loadFails.current = null;
  h.bootFails.current = null;
});

afterEach(() => {
  vi.restoreAllMocks();
  delete document.documentElement.dataset.build;
});

describe('the entry', () => {
  it('names the build on the page at once', async () => {
    vi.stubGlobal('__BUILD_ID__', '2026.11.23-abc123');
    await loadEntry();
    expect(document.documentElement.dataset.build).toBe('2026.11.23-abc123');
  });

  it('loads the boot and starts it, once, and asks for nothing else', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await loadEntry();
    await settle();
    expect(h.loaded).toEqual(['boot']);
    expect(h.booted).toBe(1);
    expect(error).not.toHaveBeenCalled();
  });

  it("says so, once, when the boot's code cannot be loaded", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    h.loadFails.current = new Error('chunk failed');
    await loadEntry();
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith('Circle failed to start', expect.any(Error)));
    await settle();
    expect(h.booted).toBe(0);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('says so, once, with the reason, when the start ends in an error', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = new Error('no configuration');
    h.bootFails.current = failure;
    await loadEntry();
    await vi.waitFor(() => expect(error).toHaveBeenCalledWith('Circle failed to start', failure));
    await settle();
    expect(error).toHaveBeenCalledTimes(1);
  });
});
