import { describe, expect, it } from 'vitest';
import type { PendingProfileSave } from './pending-save';
import type { Profile } from './requests';
import { profileWithPending } from './pending-view';

const HELD: Profile = {
  id: 'p-1',
  displayName: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.org',
  bio: 'Engines',
  avatar: '/api/user/profile/p-1/avatar',
  language: 'en',
  interests: ['maths'],
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-02T00:00:00.000Z',
};

const update = (fields: Record<string, unknown>, id = 'p-1') =>
  ({ kind: 'update', id, fields, ifMatch: '"1"', avatar: null, apiBase: '/api/', queuedAt: 0 }) as unknown as PendingProfileSave;
const create = (fields: Record<string, unknown>) =>
  ({ kind: 'create', fields, avatar: null, apiBase: '/api/', queuedAt: Date.UTC(2024, 4, 1) }) as unknown as PendingProfileSave;

describe('profileWithPending', () => {
  it('is the profile held when nothing waits', () => {
    expect(profileWithPending(HELD, null)).toBe(HELD);
    expect(profileWithPending(null, null)).toBeNull();
  });

  it('lays a waiting update over the profile held; a field it leaves out keeps its value', () => {
    expect(profileWithPending(HELD, update({ displayName: 'Countess Ada', bio: undefined }))).toEqual({
      ...HELD,
      displayName: 'Countess Ada',
    });
  });

  it('shows the avatar waiting to be sent in place of the one held', () => {
    expect(profileWithPending(HELD, update({}), 'blob:new')?.avatar).toBe('blob:new');
    expect(profileWithPending({ ...HELD, avatar: undefined }, update({}))?.avatar).toBeNull();
  });

  it('an update of another profile changes nothing shown', () => {
    expect(profileWithPending(HELD, update({ displayName: 'X' }, 'p-2'))).toBe(HELD);
    expect(profileWithPending(null, update({ displayName: 'X' }))).toBeNull();
  });

  it('a waiting create is the profile to come, member since it was saved', () => {
    expect(profileWithPending(null, create({ displayName: 'Grace Hopper', username: 'grace', email: 'g@example.org' }), 'blob:a')).toEqual({
      id: '',
      displayName: 'Grace Hopper',
      username: 'grace',
      email: 'g@example.org',
      interests: [],
      avatar: 'blob:a',
      createdAt: '2024-05-01T00:00:00.000Z',
      updatedAt: '2024-05-01T00:00:00.000Z',
    });
  });

  it('a create does not hide a profile already held', () => {
    expect(profileWithPending(HELD, create({ displayName: 'Grace Hopper' }))).toBe(HELD);
  });
});
