import { describe, expect, it } from 'vitest';
import {
  applyMarks,
  countUnread,
  decodeMarks,
  newestOf,
  nextToSend,
  NO_MARKS,
  type Notification,
  waiting,
  withAllRead,
  withMark,
  withoutSent,
  withSentApplied,
} from './marks';

const note = (id: string, createdAt: string, read = false): Notification => ({ id, title: id, body: '', level: 'info', read, createdAt });
const OLD = note('old', '2026-01-01T00:00:00Z');
const MID = note('mid', '2026-02-01T00:00:00Z', true);
const NEW = note('new', '2026-03-01T00:00:00+01:00');
const LIST = [NEW, MID, OLD];
const reads = (items: Notification[]) => items.map((n) => `${n.id}:${n.read}`);

describe('the marks not yet sent', () => {
  it('change what the member sees: "all" up to a time first, then each one made since', () => {
    expect(applyMarks(LIST, NO_MARKS)).toEqual(LIST);
    expect(reads(applyMarks(LIST, withMark(NO_MARKS, 'old', true)))).toEqual(['new:false', 'mid:true', 'old:true']);
    expect(reads(applyMarks(LIST, withMark(NO_MARKS, 'mid', false)))).toEqual(['new:false', 'mid:false', 'old:false']);
    // Up to February: the newest stays unread; compared as instants, not as text.
    const all = withAllRead('2026-02-01T00:00:00Z');
    expect(reads(applyMarks(LIST, all))).toEqual(['new:false', 'mid:true', 'old:true']);
    expect(reads(applyMarks(LIST, withAllRead('2026-03-01T00:00:00Z')))).toEqual(['new:true', 'mid:true', 'old:true']);
    expect(reads(applyMarks(LIST, withMark(all, 'old', false)))).toEqual(['new:false', 'mid:true', 'old:false']);
    expect(reads(applyMarks(LIST, withAllRead(null)))).toEqual(['new:true', 'mid:true', 'old:true']);
    // A notification the marks leave as it was is the same object.
    expect(applyMarks(LIST, withMark(NO_MARKS, 'mid', true))[1]).toBe(MID);
  });

  it('keep the latest mark of each; a "mark all" forgets the marks before it', () => {
    const marks = withMark(withMark(withMark(NO_MARKS, 'old', true), 'mid', false), 'old', false);
    expect(marks.ids).toEqual({ old: false, mid: false });
    expect(waiting(marks)).toBe(2);
    expect(withAllRead('2026-02-01T00:00:00Z')).toEqual({ all: { upTo: '2026-02-01T00:00:00Z' }, ids: {} });
    expect(waiting(withMark(withAllRead(null), 'new', true))).toBe(2);
  });

  it('go out in the order they were made, and leave once answered unless made again the other way', () => {
    const marks = withMark(withMark(withAllRead('2026-02-01T00:00:00Z'), 'new', true), 'mid', false);
    const first = nextToSend(marks);
    expect(first).toEqual({ kind: 'all', upTo: '2026-02-01T00:00:00Z' });
    const rest = withoutSent(marks, first!);
    expect(rest).toEqual({ ids: { new: true, mid: false } });
    expect(nextToSend(rest)).toEqual({ kind: 'one', id: 'new', read: true });
    expect(withoutSent(rest, { kind: 'one', id: 'new', read: true })).toEqual({ ids: { mid: false } });
    // Marked unread again while "read" was on its way: the unread mark still waits.
    expect(withoutSent(rest, { kind: 'one', id: 'mid', read: true })).toBe(rest);
    expect(withoutSent(marks, { kind: 'all', upTo: null })).toBe(marks);
    expect(nextToSend(NO_MARKS)).toBeNull();
  });

  it('once answered, are what the server holds', () => {
    expect(reads(withSentApplied(LIST, { kind: 'one', id: 'new', read: true }))).toEqual(['new:true', 'mid:true', 'old:false']);
    expect(reads(withSentApplied(LIST, { kind: 'all', upTo: '2026-01-15T00:00:00Z' }))).toEqual(['new:false', 'mid:true', 'old:true']);
  });

  it('are read back from storage only when they are marks', () => {
    expect(decodeMarks({ ids: { a: true } })).toEqual({ ids: { a: true } });
    expect(decodeMarks({ all: { upTo: null }, ids: {} })).toEqual({ all: { upTo: null }, ids: {} });
    expect(decodeMarks({ all: { upTo: '2026-01-01T00:00:00Z' }, ids: {}, extra: 1 })).toEqual({
      all: { upTo: '2026-01-01T00:00:00Z' },
      ids: {},
    });
    for (const broken of [
      null,
      [],
      { ids: [] },
      { ids: { a: 'yes' } },
      { all: {}, ids: {} },
      { all: { upTo: 3 }, ids: {} },
      { all: 'x', ids: {} },
    ]) {
      expect(decodeMarks(broken)).toBeNull();
    }
  });
});

describe('newestOf and countUnread', () => {
  it('give the newest createdAt by instant (null for none) and how many are unread', () => {
    expect(newestOf(LIST)).toBe(NEW.createdAt);
    expect(newestOf([OLD, note('later', '2026-01-01T00:00:00-05:00')])).toBe('2026-01-01T00:00:00-05:00');
    expect(newestOf([])).toBeNull();
    expect(countUnread(LIST)).toBe(2);
  });
});
