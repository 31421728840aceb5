/**
 * What the profile screen's tests share: the model's reads, saves and outbox as mocks (a test says
 * what the server holds and what waits on the device), a stand-in for the conflict resolver, a
 * profile, a queued update and a conflict.
 *
 * A test file hands the mocks to vi.mock itself, before anything imports the screen:
 *   const { edits, outboxModule, resolverModule, storeModule } = await vi.hoisted(() => import('./ProfileScreen.test-support'));
 *   vi.mock('./store', storeModule);
 *   vi.mock('./save', () => edits);
 *   vi.mock('./outbox', outboxModule);
 *   vi.mock('./ConflictResolver', resolverModule);
 * So this module imports none of the app's modules until a test runs (resetBetweenTests takes them
 * then, mocked as the screen sees them).
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { createElement } from 'react';
import type { Signal } from '@preact/signals-core';
import type { Profile } from './requests';
import type { PendingProfileSave } from './pending-save';
import type { ProfileConflict } from './conflict-state';

export const PROFILE: Profile = {
  id: 'p-1',
  displayName: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.org',
  bio: 'Engines',
  language: 'en',
  interests: ['maths'],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-02T00:00:00Z',
};

export const reads = { fetchProfile: vi.fn<() => Promise<Profile | null>>() };

/** The store, its reads replaced. */
export async function storeModule(importOriginal: <T>() => Promise<T>) {
  return {
    ...(await importOriginal<typeof import('./store')>()),
    ...reads,
    // The screen's read: the model's reads are its own tests' (ProfileScreen.strict.test.tsx runs the screen over them).
    readProfile: () => reads.fetchProfile(),
  };
}

export const edits = {
  deleteProfile: vi.fn<(id: string) => Promise<'deleted' | 'changed'>>(),
  saveProfile: vi.fn<(...args: unknown[]) => Promise<'saved' | 'queued' | 'conflict'>>(),
};

export const outbox = {
  pending: null as unknown as Signal<PendingProfileSave | null>,
  refused: null as unknown as Signal<{ save: PendingProfileSave; message: string } | null>,
  dismissRefusedSave: vi.fn(),
  loadPendingSave: vi.fn<() => Promise<PendingProfileSave | null>>(),
  sendQueuedSave: vi.fn(async () => 'conflict' as const),
};

/** The outbox, its save waiting and its refused save as signals the test sets. */
export async function outboxModule() {
  const { signal: make } = await import('@preact/signals-core');
  outbox.pending = make(null);
  outbox.refused = make(null);
  return {
    pendingProfileSave: outbox.pending,
    refusedProfileSave: outbox.refused,
    dismissRefusedSave: outbox.dismissRefusedSave,
    loadPendingSave: outbox.loadPendingSave,
    sendQueuedSave: outbox.sendQueuedSave,
  };
}

/** The resolver has its own tests: here it is enough to see it shown and to answer for it. */
export function resolverModule() {
  return {
    default: ({ conflict, onResolved }: { conflict: ProfileConflict; onResolved: () => void }) =>
      createElement(
        'section',
        { 'aria-label': 'Conflict' },
        createElement('p', null, 'Conflict on ', conflict.id),
        createElement('button', { type: 'button', onClick: onResolved }, 'Resolve'),
      ),
  };
}

/** The app's modules the set-up acts on, taken before each test, once the test file's mocks are in place. */
let app: typeof import('./store') & typeof import('./conflict-state') & typeof import('../ui/snackbar/store');

/** The fetch as the model does it: the profile read lands in the store. */
export function serverHolds(p: Profile | null) {
  reads.fetchProfile.mockImplementation(async () => {
    app.setProfileState('fetch:success', { profile: p, loading: false });
    return p;
  });
}

export const update = (conflict: boolean): PendingProfileSave =>
  ({ kind: 'update', id: 'p-1', fields: { bio: 'x' }, ifMatch: '"1"', key: 'k', conflict }) as unknown as PendingProfileSave;

export const CONFLICT: ProfileConflict = {
  id: 'p-1',
  mine: { bio: 'Mine' },
  base: null,
  avatar: null,
  theirs: PROFILE,
  etag: '"2"',
  queued: false,
  fields: ['bio'],
};

export const heading = () => screen.getByRole('heading', { level: 1, name: 'Your profile' });

/** Every test starts with nothing waiting on the device, and leaves the mocks, the profile, a conflict and the snackbar as it found them. */
export function resetBetweenTests(): void {
  beforeEach(async () => {
    const [store, conflicts, snackbar] = await Promise.all([import('./store'), import('./conflict-state'), import('../ui/snackbar/store')]);
    app = { ...store, ...conflicts, ...snackbar };
    // Dialogs open as the browser does it.
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.setAttribute('open', '');
    };
    outbox.loadPendingSave.mockResolvedValue(null);
  });

  afterEach(() => {
    reads.fetchProfile.mockReset();
    edits.deleteProfile.mockReset();
    edits.saveProfile.mockReset();
    outbox.dismissRefusedSave.mockClear();
    outbox.loadPendingSave.mockReset();
    outbox.sendQueuedSave.mockClear();
    act(() => {
      outbox.pending.value = null;
      outbox.refused.value = null;
      app.setProfileConflict(null);
      app.resetProfileState();
      app.resetSnackbar();
    });
  });
}
