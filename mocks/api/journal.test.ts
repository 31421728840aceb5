// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createJournal, type Exchange } from './journal.ts';

const exchange = (n: number): Exchange => ({
  method: 'GET',
  path: `/api/symbols/${n}`,
  status: 200,
  time: '2026-11-23T10:00:00.000Z',
  duration: n,
});

describe('the journal of GET /__mock/requests', () => {
  it('keeps the last `size` exchanges, newest first', () => {
    const journal = createJournal(2);
    expect(journal.size).toBe(2);
    expect(journal.entries()).toEqual([]);
    for (const n of [1, 2, 3]) journal.record(exchange(n));
    expect(journal.entries()).toEqual([exchange(3), exchange(2)]);
  });

  it('hands out a copy: what a caller does with it changes nothing kept', () => {
    const journal = createJournal(3);
    journal.record(exchange(1));
    journal.entries().pop();
    expect(journal.entries()).toEqual([exchange(1)]);
  });

  it('clear() forgets every exchange, and recording starts again from nothing', () => {
    const journal = createJournal(3);
    journal.record(exchange(1));
    journal.record(exchange(2));
    journal.clear();
    expect(journal.entries()).toEqual([]);
    journal.record(exchange(3));
    expect(journal.entries()).toEqual([exchange(3)]);
  });
});
