// @vitest-environment node
import { beforeEach, describe, expect, it, vi } from 'vitest';

type RecentReads = typeof import('./recent-reads');
let reads: RecentReads;

beforeEach(async () => {
  // The list is the module's own: each test starts from a page that has read nothing.
  vi.resetModules();
  reads = await import('./recent-reads');
});

const url = (n: number) => `https://app.example/api/symbols/${n}`;

describe('the recent reads handed to the service worker', () => {
  it('lists each read once, the latest last', () => {
    expect(reads.recentReads()).toEqual([]);
    reads.rememberRead(url(1));
    reads.rememberRead(url(2));
    reads.rememberRead(url(1));
    expect(reads.recentReads()).toEqual([url(2), url(1)]);
  });

  it('keeps the 30 latest reads', () => {
    for (let n = 1; n <= 30; n++) reads.rememberRead(url(n));
    expect(reads.recentReads()).toHaveLength(30);
    expect(reads.recentReads()[0]).toBe(url(1));

    // Read again, the oldest becomes the latest: the next new read drops the second instead.
    reads.rememberRead(url(1));
    reads.rememberRead(url(31));
    const kept = reads.recentReads();
    expect(kept).toHaveLength(30);
    expect(kept).not.toContain(url(2));
    expect(kept.slice(-2)).toEqual([url(1), url(31)]);
    expect(kept[0]).toBe(url(3));
  });

  it('hands out a copy that does not change the list', () => {
    reads.rememberRead(url(1));
    reads.recentReads().push(url(9));
    expect(reads.recentReads()).toEqual([url(1)]);
  });
});
