import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokenKeeper } from '../api/credentials';
import { configureApi } from '../api/instance';
import type { Profile, ProfilePatch } from './requests';
import { changedBy, openConflict, resetProfileConflict, suggestedChoice, textOf } from './conflict-compare';
import { profileConflict } from './conflict-state';
import { PROFILE } from '../test/profile-fixture';

/*
 * What src/profile/conflicts.contract.test.ts (the model against the mock) does not reach: the
 * edge cases of the comparison, and the server's version that is gone or has no ETag.
 */

/** The saved profile as another device changed it. */
const THEIRS: Profile = {
  ...PROFILE,
  displayName: 'Countess Ada',
  interests: ['maths', 'engines'],
  updatedAt: '2024-02-01T00:00:00Z',
};

/** The server's answer to reading the profile: the profile (or none, 204) and its ETag, if it sends one. */
function serverHolds(profile: Profile | null, etag: string | null = '"v2"') {
  const fetchMock = vi.fn(async (_request: Request) => {
    if (!profile) return new Response(null, { status: 204 });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (etag) headers.etag = etag;
    return new Response(JSON.stringify(profile), { status: 200, headers });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

beforeEach(() => {
  setTokenKeeper({ accessToken: async () => 'tok-ada' });
  configureApi('/api/');
  resetProfileConflict();
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  resetProfileConflict();
});

describe('textOf: a field as the comparison shows it', () => {
  it('reads a field left out, or a side not known, as empty', () => {
    expect(textOf({ displayName: 'Ada' }, 'bio')).toBe('');
    expect(textOf(null, 'bio')).toBe('');
    expect(textOf(null, 'interests')).toBe('');
  });

  it('gives text as it is and interests joined', () => {
    expect(textOf({ bio: 'Analyst.' }, 'bio')).toBe('Analyst.');
    expect(textOf({ interests: ['maths', 'engines'] }, 'interests')).toBe('maths, engines');
  });
});

describe('changedBy: who changed a field since the edit began', () => {
  const base: ProfilePatch = { displayName: 'Ada', bio: 'Old', interests: ['maths'] };
  // This device changed the bio and the interests; the other one the name and the interests.
  const mine: ProfilePatch = { displayName: 'Ada', bio: 'Mine', interests: ['maths', 'poetry'] };
  const theirs: Profile = { ...PROFILE, displayName: 'Ada from desktop', bio: 'Old', interests: ['chess'] };

  it('tells a field changed here, there, and on both (the real conflict)', () => {
    expect(changedBy({ base, mine, theirs }, 'displayName')).toBe('there');
    expect(changedBy({ base, mine, theirs }, 'bio')).toBe('here');
    expect(changedBy({ base, mine, theirs }, 'interests')).toBe('both');
  });

  it('says nothing without the base', () => {
    expect(changedBy({ base: null, mine, theirs }, 'interests')).toBeNull();
  });
});

describe('suggestedChoice', () => {
  it('without the base, starts a field the member emptied from mine', () => {
    // Nothing known of the base reads as empty, yet it does not make an emptied bio an untouched one.
    const choice = suggestedChoice({ fields: ['bio'], mine: { bio: '' }, base: null });
    expect(choice.bio).toBe('mine');
  });
});

describe('openConflict', () => {
  it("puts both versions before the member, with the server's ETag, and returns the conflict shown", async () => {
    serverHolds(THEIRS, '"v2"');
    const conflict = await openConflict({ id: 'p-1', mine: { bio: 'Mine' }, avatar: null, base: null, queued: false });
    expect(profileConflict.value).toBe(conflict);
    expect(conflict).toMatchObject({ id: 'p-1', theirs: THEIRS, etag: '"v2"', queued: false, fields: ['bio'], base: null });
  });

  it('keeps of a profile given as the base only the fields a save sends (an absent bio as empty)', async () => {
    serverHolds(THEIRS);
    const { bio: _dropped, ...withoutBio } = { ...THEIRS, displayName: 'Ada Lovelace', updatedAt: '2024-01-01T00:00:00Z' };
    const base: Profile = withoutBio;
    const conflict = await openConflict({ id: 'p-1', mine: { bio: 'Mine' }, avatar: null, base, queued: true });
    expect(conflict.base).toStrictEqual({
      displayName: 'Ada Lovelace',
      username: 'ada',
      email: 'ada@example.org',
      bio: '',
      interests: ['maths', 'engines'],
      language: 'en',
    });
    expect(conflict.queued).toBe(true);
  });

  it('from a freshly loaded module, keeps of a profile given as the base only the fields a save sends', async () => {
    // Which base is a whole profile is decided by a function defined when the module loads: load it again.
    vi.resetModules();
    const [credentials, instance, fresh, state] = await Promise.all([
      import('../api/credentials'),
      import('../api/instance'),
      import('./conflict-compare'),
      import('./conflict-state'),
    ]);
    credentials.setTokenKeeper({ accessToken: async () => 'tok-ada' });
    instance.configureApi('/api/');
    serverHolds(THEIRS);
    const conflict = await fresh.openConflict({ id: 'p-1', mine: { bio: 'Mine' }, avatar: null, base: PROFILE, queued: false });
    expect(conflict.base).toStrictEqual(state.fieldsOf(PROFILE));
    expect(conflict.base).not.toHaveProperty('id');
    fresh.resetProfileConflict();
  });

  it('keeps fields given as the base as they are', async () => {
    serverHolds(THEIRS);
    const base: ProfilePatch = { displayName: 'Ada Lovelace', bio: 'Analyst.' };
    const conflict = await openConflict({
      id: 'p-1',
      mine: { displayName: 'Ada Lovelace', bio: 'Mine' },
      avatar: null,
      base,
      queued: true,
    });
    expect(conflict.base).toStrictEqual(base);
    expect(conflict.fields).toEqual(['displayName', 'bio']);
    // The member changed the bio only: the name changed elsewhere is theirs to start from.
    expect(suggestedChoice(conflict)).toMatchObject({ displayName: 'theirs', bio: 'mine' });
  });

  it('names an ETag that matches nothing when the server sent none, so the next save cannot overwrite blindly', async () => {
    serverHolds(THEIRS, null);
    const conflict = await openConflict({ id: 'p-1', mine: { bio: 'Mine' }, avatar: null, base: null, queued: false });
    expect(conflict.etag).toBe('"unknown"');
  });

  it('refuses with 404 when the profile was deleted elsewhere; no conflict is shown', async () => {
    serverHolds(null);
    await expect(openConflict({ id: 'p-1', mine: { bio: 'Mine' }, avatar: null, base: null, queued: false })).rejects.toMatchObject({
      name: 'ApiError',
      status: 404,
      body: { status: 404, error: 'Not Found', message: "Profile 'p-1' no longer exists" },
    });
    expect(profileConflict.value).toBeNull();
  });

  it('refuses with 404 when the profile was replaced by another one elsewhere', async () => {
    serverHolds({ ...THEIRS, id: 'p-2' });
    await expect(openConflict({ id: 'p-1', mine: { bio: 'Mine' }, avatar: null, base: null, queued: false })).rejects.toMatchObject({
      status: 404,
      message: "Profile 'p-1' no longer exists",
    });
    expect(profileConflict.value).toBeNull();
  });
});
