import { describe, expect, it, vi } from 'vitest';
import { readPersisted } from './persist';

/** A decoder that repairs whatever it is given: a list of strings, empty when nothing of it is one. */
const decodeTags = (raw: unknown): string[] => (Array.isArray(raw) ? raw.filter((t): t is string => typeof t === 'string') : []);

describe('readPersisted', () => {
  it('gives the fallback for a missing key without asking the decoder, which only sees stored values', () => {
    const decode = vi.fn(decodeTags);
    expect(readPersisted('tags', decode, ['welcome'])).toEqual(['welcome']);
    expect(decode).not.toHaveBeenCalled();
  });

  it('asks the decoder about a stored null, which is a value and not a missing key', () => {
    localStorage.setItem('tags', 'null');
    expect(readPersisted('tags', decodeTags, ['welcome'])).toEqual([]);
  });
});
