// @vitest-environment node
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearStateHistory, HISTORY_MAX_AGE, recordChange, stateHistory } from './history';
import { sessionStarted } from './auth';

describe('state history', () => {
  beforeEach(() => clearStateHistory());

  it('keeps only the last 10 changes, oldest first', () => {
    expect(HISTORY_MAX_AGE).toBe(10);
    for (let i = 1; i <= 15; i++) recordChange('test', `action-${i}`, { i });
    const entries = stateHistory();
    expect(entries).toHaveLength(10);
    expect(entries.map((e) => e.action)).toEqual(Array.from({ length: 10 }, (_, k) => `action-${k + 6}`));
    expect(entries[9]).toMatchObject({ store: 'test', state: { i: 15 } });
    expect(typeof entries[0]!.at).toBe('number');
  });

  it('keeps fewer than 10 as they are', () => {
    recordChange('a', 'one', 1);
    recordChange('b', 'two', 2);
    expect(stateHistory().map((e) => [e.store, e.action, e.state])).toEqual([
      ['a', 'one', 1],
      ['b', 'two', 2],
    ]);
  });

  it('hands out a copy that callers cannot use to change the history', () => {
    recordChange('a', 'one', 1);
    const copy = stateHistory() as unknown[];
    copy.length = 0;
    expect(stateHistory()).toHaveLength(1);
  });

  it('receives the changes of the stores', () => {
    sessionStarted({ subject: 'ada', name: 'Ada Lovelace', email: null });
    expect(stateHistory().at(-1)).toMatchObject({ store: 'auth', action: 'signIn', state: { isLoggedIn: true } });
  });

  it('starts empty', async () => {
    vi.resetModules();
    const fresh = await import('./history');
    expect(fresh.stateHistory()).toEqual([]);
  });
});
