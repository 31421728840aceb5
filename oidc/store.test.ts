// @vitest-environment node
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStore } from './store.ts';

afterEach(() => vi.restoreAllMocks());

/** Sets the clock the store reads. */
const at = (ms: number) => vi.spyOn(Date, 'now').mockReturnValue(ms);

describe('the provider’s memory store', () => {
  it('keeps a record by model and id until it is destroyed', async () => {
    const store = memoryStore();
    const sessions = store('Session');
    const grants = store('Grant');
    await sessions.upsert('1', { accountId: 'ada' }, 0);
    expect(await sessions.find('1')).toEqual({ accountId: 'ada' });
    expect(await grants.find('1')).toBeUndefined();
    // Another adapter of the same model (and issuer) sees the same records.
    expect(await store('Session').find('1')).toEqual({ accountId: 'ada' });
    await sessions.upsert('1', { accountId: 'grace' }, 0);
    expect(await sessions.find('1')).toEqual({ accountId: 'grace' });
    await sessions.destroy('1');
    expect(await sessions.find('1')).toBeUndefined();
  });

  it("keeps each issuer's records apart, and removes a member's records of every issuer at once", async () => {
    const store = memoryStore();
    const here = store.forIssuer('http://127.0.0.1:8080/oidc');
    const there = store.forIssuer('http://localhost:8080/oidc');
    await here('RefreshToken').upsert('r1', { accountId: 'ada', grantId: 'g1' }, 0);
    await here('Grant').upsert('g1', { accountId: 'ada' }, 0);
    await there('Grant').upsert('g2', { accountId: 'ada' }, 0);
    await there('Grant').upsert('g3', { accountId: 'grace' }, 0);
    expect(await there('RefreshToken').find('r1')).toBeUndefined();
    expect(await store('RefreshToken').find('r1')).toBeUndefined();
    expect(await here('RefreshToken').find('r1')).toEqual({ accountId: 'ada', grantId: 'g1' });
    expect(store.removeAccount('ada').sort()).toEqual(['g1', 'g2']);
    expect([await here('RefreshToken').find('r1'), await there('Grant').find('g2')]).toEqual([undefined, undefined]);
    expect(await there('Grant').find('g3')).toEqual({ accountId: 'grace' });
  });

  it('a record expires after the seconds the provider gives, and is removed when read then', async () => {
    at(1_000_000);
    const interactions = memoryStore()('Interaction');
    await interactions.upsert('old', { uid: 'u' }, 10);
    await interactions.upsert('new', { uid: 'u', kind: 'second' }, 0);
    at(1_009_999);
    expect(await interactions.find('old')).toEqual({ uid: 'u' });
    at(1_010_000);
    expect(await interactions.find('old')).toBeUndefined();
    // Removed, not only hidden: the search by uid now finds the other record.
    expect(await interactions.findByUid('u')).toEqual({ uid: 'u', kind: 'second' });
    at(Number.MAX_SAFE_INTEGER);
    expect(await interactions.find('new')).toEqual({ uid: 'u', kind: 'second' });
  });

  it('finds a record of its own model by uid and by user code', async () => {
    const store = memoryStore();
    await store('Session').upsert('s', { uid: 'u1', userCode: 'ABCD' }, 0);
    const codes = store('DeviceCode');
    await codes.upsert('d1', { userCode: 'WXYZ' }, 0);
    await codes.upsert('d2', { userCode: 'ABCD', uid: 'u2' }, 0);
    expect(await codes.findByUserCode!('ABCD')).toEqual({ userCode: 'ABCD', uid: 'u2' });
    expect(await codes.findByUserCode!('WXYZ')).toEqual({ userCode: 'WXYZ' });
    expect(await codes.findByUserCode!('NONE')).toBeUndefined();
    expect(await codes.findByUid('u2')).toEqual({ userCode: 'ABCD', uid: 'u2' });
    expect(await codes.findByUid('u1')).toBeUndefined();
    expect(await store('Session').findByUid('u1')).toEqual({ uid: 'u1', userCode: 'ABCD' });
  });

  it('consuming marks a record with the time in seconds; an unknown one is left alone', async () => {
    at(1_700_000_000_999);
    const codes = memoryStore()('AuthorizationCode');
    await codes.upsert('c', { grantId: 'g' }, 60);
    await codes.consume('c');
    await codes.consume('unknown');
    expect(await codes.find('c')).toEqual({ grantId: 'g', consumed: 1_700_000_000 });
    expect(await codes.find('unknown')).toBeUndefined();
  });

  it('revoking a grant removes every record of it, of any model', async () => {
    const store = memoryStore();
    await store('AccessToken').upsert('a', { grantId: 'g1' }, 0);
    await store('RefreshToken').upsert('r', { grantId: 'g1' }, 0);
    await store('RefreshToken').upsert('other', { grantId: 'g2' }, 0);
    await store('AccessToken').revokeByGrantId('g1');
    expect(await store('AccessToken').find('a')).toBeUndefined();
    expect(await store('RefreshToken').find('r')).toBeUndefined();
    expect(await store('RefreshToken').find('other')).toEqual({ grantId: 'g2' });
  });
});
