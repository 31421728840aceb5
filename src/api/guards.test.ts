// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { checkItem, checkList, checkProfile } from './guards';
import { ApiError } from './errors';

const profile = {
  id: 'p1',
  displayName: 'Ada',
  username: 'ada',
  email: 'ada@example.org',
  interests: ['math'],
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
};

describe('payload guards', () => {
  it('pass what the contract describes', () => {
    expect(checkProfile(profile)).toBe(profile);
    expect(checkList('symbols', [{ id: '1', code: 'MSFT', entity: 'Microsoft' }])).toHaveLength(1);
    expect(checkItem('accounts', { id: '1', name: 'Fees', currency: 'EUR', balance: 3 })).toBeTruthy();
  });

  it('turn a payload the screens cannot read into a clear API error', () => {
    expect(() => checkProfile({ ...profile, interests: 'math' })).toThrow(ApiError);
    expect(() => checkProfile(null)).toThrow('The server sent a profile this app cannot read');
    expect(() => checkList('notifications', { id: '1' })).toThrow('The server sent a notifications list this app cannot read');
    expect(() => checkList('symbols', [{ id: 1, code: 'X', entity: 'Y' }])).toThrow('a symbols record');
    // Only a plain object is a record, whatever fields something else carries.
    const callable = Object.assign(() => undefined, { id: '1', code: 'MSFT', entity: 'Microsoft' });
    expect(() => checkItem('symbols', callable)).toThrow('The server sent a symbols record this app cannot read');
  });

  it('never let anything but valid records through, whatever arrives', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          const rows = checkList<{ id: unknown; code: unknown; entity: unknown }>('symbols', value);
          return rows.every((r) => typeof r.id === 'string' && typeof r.code === 'string' && typeof r.entity === 'string');
        } catch (error) {
          return error instanceof ApiError && error.status === 502;
        }
      }),
    );
  });

  it('answer an unreadable payload as a 502 Bad Gateway the error screens can show', () => {
    let failure: unknown;
    try {
      checkItem('accounts', { id: '1', name: 'Fees', currency: 'EUR' });
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({
      status: 502,
      body: { status: 502, error: 'Bad Gateway', message: 'The server sent a accounts record this app cannot read' },
    });
  });

  it('check texts and records as the module is loaded', async () => {
    // The checks are built when the module loads: a fresh load sees them as they are built.
    vi.resetModules();
    const fresh = await import('./guards');
    expect(fresh.checkProfile(profile)).toBe(profile);
    expect(() => fresh.checkProfile([profile])).toThrow('The server sent a profile this app cannot read');
    expect(() => fresh.checkItem('symbols', { id: '1', code: 2, entity: 'Y' })).toThrow('a symbols record');
  });
});
