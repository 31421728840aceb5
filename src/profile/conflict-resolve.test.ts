import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokenKeeper } from '../api/credentials';
import { configureApi } from '../api/instance';
import { clearPendingSave, readPendingSave } from './pending-save';
import type { Profile } from './requests';
import { setConnectivity } from '../lib/connectivity';
import { type ProfileConflict, profileConflict, setProfileConflict } from './conflict-state';
import { clearStateHistory, stateHistory } from '../state/history';
import { resetProfileState } from './store';
import { profileState } from './store';
import { draftKey } from './draft';
import { pendingProfileSave, queueSave, resetProfileOutbox } from './outbox';
import { resolveProfileConflict } from './conflict-resolve';
import { fieldsOf as fieldsOfProfile } from './conflict-state';
import { PROFILE } from '../test/profile-fixture';

/*
 * What src/profile/conflicts.contract.test.ts (the model against the mock) does not reach: a
 * choice made with no conflict open, and a conflict whose edit the device could not keep.
 */

/** The saved profile as another device changed it. */
const THEIRS: Profile = { ...PROFILE, displayName: 'Countess Ada', updatedAt: '2024-02-01T00:00:00Z' };

/** A conflict over the bio whose edit lives only in the form: keeping it on the device failed. */
const NOT_QUEUED: ProfileConflict = {
  id: 'p-1',
  mine: { bio: 'Mine' },
  base: { bio: 'Analyst.' },
  avatar: null,
  theirs: THEIRS,
  etag: '"v2"',
  queued: false,
  fields: ['bio'],
};

let requests: Request[];

beforeEach(() => {
  setTokenKeeper({ accessToken: async () => 'tok-ada' });
  configureApi('/api/');
  resetProfileState();
  resetProfileOutbox();
  setProfileConflict(null);
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (request: Request) => {
      requests.push(request);
      return new Response(null, { status: 500 });
    }),
  );
});

afterEach(async () => {
  setConnectivity(true);
  setProfileConflict(null);
  resetProfileOutbox();
  await clearPendingSave();
});

describe('resolveProfileConflict', () => {
  it('with no conflict open (already resolved, a second click), changes and sends nothing', async () => {
    await expect(resolveProfileConflict({ kind: 'mine' })).resolves.toBe('discarded');
    await expect(resolveProfileConflict({ kind: 'theirs' })).resolves.toBe('discarded');
    expect(requests).toEqual([]);
    expect(profileState.value.profile).toBeNull();
  });

  it('for an edit not kept on the device, leaves alone the other save waiting there', async () => {
    // A save made earlier while offline still waits to go out: it is not this conflict's edit.
    setConnectivity(false);
    await queueSave(
      { kind: 'create', fields: { displayName: 'Ada', username: 'ada', email: 'ada@example.org', interests: [] } },
      null,
      'k-1',
    );
    localStorage.setItem(draftKey('p-1'), JSON.stringify({ bio: 'Mine' }));
    setProfileConflict(NOT_QUEUED);
    clearStateHistory();

    await expect(resolveProfileConflict({ kind: 'theirs' })).resolves.toBe('discarded');
    // The history names the step that showed the server's version.
    expect(stateHistory().map((change) => `${change.store} ${change.action}`)).toEqual(['profile conflict:theirs']);
    expect(await readPendingSave()).toMatchObject({ kind: 'create', key: 'k-1', fields: { displayName: 'Ada' } });
    expect(pendingProfileSave.value).toMatchObject({ kind: 'create', key: 'k-1' });
    // The choice itself is carried out: the server's version shown, the edit's draft gone.
    expect(profileState.value).toMatchObject({ profile: THEIRS, etag: '"v2"' });
    expect(localStorage.getItem(draftKey('p-1'))).toBeNull();
    expect(profileConflict.value).toBeNull();
  });

  describe('"Keep my changes", a three-way merge from the edit’s base', () => {
    /** The edit started from PROFILE; this device changed the bio and the interests. */
    const MINE = { ...fieldsOfProfile(PROFILE), bio: 'Mine', interests: ['maths', 'poetry'] };
    /** Meanwhile another device changed the display name and the interests. */
    const OTHER: Profile = { ...PROFILE, displayName: 'Ada from desktop', interests: ['chess'], updatedAt: '2024-02-01T00:00:00Z' };

    /** The PATCH the choice sent, as JSON, answered with what it sent. */
    async function sentBody(): Promise<Record<string, unknown>> {
      const patch = requests.find((r) => r.method === 'PATCH');
      expect(patch, 'a PATCH was sent').toBeDefined();
      expect(patch!.headers.get('If-Match')).toBe('"v2"');
      const type = patch!.headers.get('content-type') ?? '';
      if (type.includes('json')) return (await patch!.clone().json()) as Record<string, unknown>;
      const form = await patch!.clone().formData();
      return Object.fromEntries([...form.keys()].map((k) => [k, form.getAll(k).length > 1 ? form.getAll(k) : form.get(k)]));
    }

    beforeEach(() => {
      // The save's progress goes through fetch's streams where there is no XMLHttpRequest.
      vi.stubGlobal('XMLHttpRequest', undefined);
      vi.stubGlobal(
        'fetch',
        vi.fn(async (request: Request) => {
          requests.push(request);
          const body = { ...OTHER, displayName: 'merged', updatedAt: '2024-03-01T00:00:00Z' };
          return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', etag: '"v3"' } });
        }),
      );
    });

    const conflict = (base: ProfileConflict['base']): ProfileConflict => ({
      id: 'p-1',
      mine: MINE,
      base,
      avatar: null,
      theirs: OTHER,
      etag: '"v2"',
      queued: false,
      fields: ['displayName', 'bio', 'interests'],
    });

    it('keeps what only the other device changed, and this device’s changes, its own where both changed', async () => {
      setProfileConflict(conflict(fieldsOfProfile(PROFILE)));
      await expect(resolveProfileConflict({ kind: 'mine' })).resolves.toBe('saved');
      const sent = await sentBody();
      // Never touched here: the other device's name stays.
      expect(sent.displayName).toBe('Ada from desktop');
      // Changed only here: this device's.
      expect(sent.bio).toBe('Mine');
      // Changed on both: "keep my changes" keeps this device's.
      expect(String(sent.interests)).toBe(String(['maths', 'poetry']));
      expect(profileConflict.value).toBeNull();
    });

    it('without the base, keeps every field as this device has it', async () => {
      setProfileConflict(conflict(null));
      await expect(resolveProfileConflict({ kind: 'mine' })).resolves.toBe('saved');
      const sent = await sentBody();
      expect([sent.displayName, sent.bio, String(sent.interests)]).toEqual(['Ada Lovelace', 'Mine', String(['maths', 'poetry'])]);
    });

    it('a merge sends each differing field from the side chosen', async () => {
      setProfileConflict(conflict(fieldsOfProfile(PROFILE)));
      const choice = {
        displayName: 'mine',
        username: 'mine',
        email: 'mine',
        bio: 'theirs',
        language: 'mine',
        interests: 'theirs',
      } as const;
      await expect(resolveProfileConflict({ kind: 'merge', choice })).resolves.toBe('saved');
      const sent = await sentBody();
      expect([sent.displayName, sent.bio, String(sent.interests)]).toEqual(['Ada Lovelace', 'Analyst.', 'chess']);
    });
  });
});
