import { describe, expect, it, vi } from 'vitest';
import type { Profile } from './requests';
import type { ProfileConflict } from './conflict-state';

async function freshModule() {
  vi.resetModules();
  return import('./conflict-state');
}

const theirs: Profile = {
  id: 'p-1',
  displayName: 'Ada L.',
  username: 'ada_l',
  email: 'ada@circle.example.org',
  bio: 'Analyst.',
  avatar: '/api/user/profile/p-1/avatar',
  language: 'fr',
  interests: ['engines', 'poetry'],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-02-01T00:00:00Z',
};

describe('the conflict before the member', () => {
  it('none at first; the one put before the member is shown until it is ended', async () => {
    const { profileConflict, setProfileConflict } = await freshModule();
    expect(profileConflict.value).toBeNull();
    const conflict: ProfileConflict = {
      id: 'p-1',
      mine: { displayName: 'Ada' },
      base: null,
      avatar: null,
      theirs,
      etag: '"2"',
      queued: true,
      fields: ['displayName'],
    };
    setProfileConflict(conflict);
    expect(profileConflict.value).toBe(conflict);
    setProfileConflict(null);
    expect(profileConflict.value).toBeNull();
  });
});

describe('a profile’s fields as a save sends them', () => {
  it('the six editable fields, nothing the server sets', async () => {
    const { fieldsOf } = await freshModule();
    expect(fieldsOf(theirs)).toStrictEqual({
      displayName: 'Ada L.',
      username: 'ada_l',
      email: 'ada@circle.example.org',
      bio: 'Analyst.',
      language: 'fr',
      interests: ['engines', 'poetry'],
    });
  });

  it('an absent bio is an empty one', async () => {
    const { fieldsOf } = await freshModule();
    const { bio: _absent, ...withoutBio } = theirs;
    expect(fieldsOf(withoutBio).bio).toBe('');
  });
});
