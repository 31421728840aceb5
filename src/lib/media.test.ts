import { describe, expect, it, vi } from 'vitest';

/** The signals per query are module state: each test starts with none. */
async function freshMedia() {
  vi.resetModules();
  return import('./media');
}

/** A viewport whose media query lists the test can flip, as a resize or rotation would. */
function viewport(initiallyMatching: ReadonlySet<string>) {
  const lists = new Map<string, EventTarget & { matches: boolean }>();
  const matchMedia = vi.fn((query: string) => {
    const list = Object.assign(new EventTarget(), { media: query, matches: initiallyMatching.has(query) });
    lists.set(query, list);
    return list;
  });
  vi.stubGlobal('matchMedia', matchMedia);
  return {
    matchMedia,
    change(query: string, matches: boolean) {
      const list = lists.get(query);
      if (!list) throw new Error(`nothing asked about ${query}`);
      list.matches = matches;
      list.dispatchEvent(Object.assign(new Event('change'), { matches, media: query }));
    },
  };
}

describe('mediaMatches', () => {
  it('says whether the query matches now', async () => {
    viewport(new Set(['(max-width: 600px)']));
    const { mediaMatches } = await freshMedia();
    expect(mediaMatches('(max-width: 600px)').value).toBe(true);
    expect(mediaMatches('(prefers-reduced-motion: reduce)').value).toBe(false);
  });

  it('follows the query as the viewport changes', async () => {
    const screen = viewport(new Set());
    const { mediaMatches } = await freshMedia();
    const narrow = mediaMatches('(max-width: 600px)');
    screen.change('(max-width: 600px)', true);
    expect(narrow.value).toBe(true);
    screen.change('(max-width: 600px)', false);
    expect(narrow.value).toBe(false);
  });

  it('asks the browser once per query, however many readers there are', async () => {
    const screen = viewport(new Set());
    const { mediaMatches } = await freshMedia();
    const first = mediaMatches('(max-width: 600px)');
    const second = mediaMatches('(max-width: 600px)');
    mediaMatches('(orientation: portrait)');
    expect(screen.matchMedia.mock.calls).toEqual([['(max-width: 600px)'], ['(orientation: portrait)']]);
    screen.change('(max-width: 600px)', true);
    expect(first.value).toBe(true);
    expect(second.value).toBe(true);
  });
});
