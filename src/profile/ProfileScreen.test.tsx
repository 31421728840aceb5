import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Signal } from '@preact/signals-core';
import ProfileScreen from './ProfileScreen';
import type { Profile } from './requests';
import type { PendingProfileSave } from './pending-save';
import { resetProfileState } from './store';
import { setProfileState } from './store';
import { setProfileConflict, type ProfileConflict } from './conflict-state';
import { draftKey } from './draft';
import { resetSnackbar, snackbar } from '../ui/snackbar/store';

const PROFILE: Profile = {
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

const reads = vi.hoisted(() => ({ fetchProfile: vi.fn<() => Promise<Profile | null>>() }));
vi.mock('./store', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./store')>()),
  ...reads,
  // The screen's read: the model's reads are its own tests' (ProfileScreen.strict.test.tsx runs the screen over them).
  readProfile: () => reads.fetchProfile(),
}));

const edits = vi.hoisted(() => ({
  deleteProfile: vi.fn<(id: string) => Promise<'deleted' | 'changed'>>(),
  saveProfile: vi.fn<(...args: unknown[]) => Promise<'saved' | 'queued' | 'conflict'>>(),
}));
vi.mock('./save', () => edits);

const outbox = vi.hoisted(() => ({
  pending: null as unknown as Signal<PendingProfileSave | null>,
  refused: null as unknown as Signal<{ save: PendingProfileSave; message: string } | null>,
  dismissRefusedSave: vi.fn(),
  loadPendingSave: vi.fn<() => Promise<PendingProfileSave | null>>(),
  sendQueuedSave: vi.fn(async () => 'conflict' as const),
}));
vi.mock('./outbox', async () => {
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
});

// The resolver has its own tests: here it is enough to see it shown and to answer for it.
vi.mock('./ConflictResolver', () => ({
  default: ({ conflict, onResolved }: { conflict: ProfileConflict; onResolved: () => void }) => (
    <section aria-label="Conflict">
      <p>Conflict on {conflict.id}</p>
      <button type="button" onClick={onResolved}>
        Resolve
      </button>
    </section>
  ),
}));

/** The fetch as the model does it: the profile read lands in the store. */
function serverHolds(p: Profile | null) {
  reads.fetchProfile.mockImplementation(async () => {
    setProfileState('fetch:success', { profile: p, loading: false });
    return p;
  });
}

const update = (conflict: boolean): PendingProfileSave =>
  ({ kind: 'update', id: 'p-1', fields: { bio: 'x' }, ifMatch: '"1"', key: 'k', conflict }) as unknown as PendingProfileSave;

const CONFLICT: ProfileConflict = {
  id: 'p-1',
  mine: { bio: 'Mine' },
  base: null,
  avatar: null,
  theirs: PROFILE,
  etag: '"2"',
  queued: false,
  fields: ['bio'],
};

beforeEach(() => {
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
    setProfileConflict(null);
    resetProfileState();
    resetSnackbar();
  });
});

const heading = () => screen.getByRole('heading', { level: 1, name: 'Your profile' });

describe('<ProfileScreen>', () => {
  it('says it is loading while the profile is read', () => {
    reads.fetchProfile.mockImplementation(() => {
      setProfileState('fetch:start', { loading: true });
      return new Promise(() => undefined);
    });
    render(<ProfileScreen />);
    expect(heading().tabIndex).toBe(-1);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    expect(screen.queryByText('You have no profile yet.')).toBeNull();
    expect(reads.fetchProfile).toHaveBeenCalledTimes(1);
  });

  it('shows nothing while idle and not yet loaded', () => {
    reads.fetchProfile.mockImplementation(() => new Promise(() => undefined));
    render(<ProfileScreen />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('a member without a profile is offered the form to create one', async () => {
    serverHolds(null);
    render(<ProfileScreen />);
    expect(await screen.findByText('You have no profile yet.')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Create your profile' })).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(reads.fetchProfile).toHaveBeenCalledTimes(1);
  });

  it('once read, a later call of the profile (a save, a delete) does not put the screen back to loading', async () => {
    serverHolds(null);
    const first = render(<ProfileScreen />);
    await screen.findByText('You have no profile yet.');
    act(() => setProfileState('create:start', { loading: true }));
    expect(screen.queryByText('Loading…')).toBeNull();
    first.unmount();

    act(() => setProfileState('x', { loading: false }));
    serverHolds(PROFILE);
    render(<ProfileScreen />);
    await screen.findByRole('button', { name: 'Edit' });
    act(() => setProfileState('delete:start', { loading: true }));
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('a failed read says why, and Retry reads again', async () => {
    const user = userEvent.setup();
    reads.fetchProfile.mockRejectedValueOnce(new Error('boom'));
    render(<ProfileScreen />);
    expect((await screen.findByRole('alert')).textContent).toContain('Could not load this: boom');
    expect(screen.queryByText('You have no profile yet.')).toBeNull();
    serverHolds(null);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('You have no profile yet.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the profile with Edit and Delete; Edit opens the form, Cancel closes it', async () => {
    const user = userEvent.setup();
    serverHolds(PROFILE);
    render(<ProfileScreen />);
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByText('You have no profile yet.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('form', { name: 'Edit your profile' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(outbox.dismissRefusedSave).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('a saved edit goes back to the profile and forgets a refused save', async () => {
    const user = userEvent.setup();
    serverHolds(PROFILE);
    edits.saveProfile.mockResolvedValueOnce('saved');
    render(<ProfileScreen />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(outbox.dismissRefusedSave).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
  });

  it('a created profile forgets a refused save', async () => {
    const user = userEvent.setup();
    serverHolds(null);
    edits.saveProfile.mockImplementationOnce(async () => {
      setProfileState('create:success', { profile: PROFILE });
      return 'saved';
    });
    render(<ProfileScreen />);
    await screen.findByText('You have no profile yet.');
    await user.type(screen.getByLabelText('Display name', { exact: false }), 'Ada');
    await user.type(screen.getByLabelText('Username', { exact: false }), 'ada');
    await user.type(screen.getByLabelText('Email', { exact: false }), 'ada@example.org');
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    await waitFor(() => expect(outbox.dismissRefusedSave).toHaveBeenCalledTimes(1));
    // Shown, not edited further.
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('a profile created with the keyboard takes the focus to its name, not to the page', async () => {
    const user = userEvent.setup();
    serverHolds(null);
    edits.saveProfile.mockImplementationOnce(async () => {
      setProfileState('create:success', { profile: PROFILE });
      return 'saved';
    });
    render(<ProfileScreen />);
    await screen.findByText('You have no profile yet.');
    await user.click(screen.getByLabelText('Display name', { exact: false }));
    await user.keyboard('Ada');
    await user.tab();
    await user.keyboard('ada');
    await user.tab();
    await user.keyboard('ada@example.org{Enter}');
    const name = await screen.findByRole('heading', { level: 2, name: 'Ada Lovelace' });
    await waitFor(() => expect(document.activeElement).toBe(name));
  });

  it('Edit takes the focus to the form it opens, by its heading, not to the page', async () => {
    const user = userEvent.setup();
    serverHolds(PROFILE);
    render(<ProfileScreen />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const heading = screen.getByRole('heading', { level: 2, name: 'Edit your profile' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    // The next Tab reaches the form's first field.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: /Display name/ }));
  });

  it('a saved edit takes the focus to the name; a cancelled one back to Edit', async () => {
    const user = userEvent.setup();
    serverHolds(PROFILE);
    edits.saveProfile.mockResolvedValueOnce('saved');
    render(<ProfileScreen />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 2, name: 'Ada Lovelace' })));
    await user.click(screen.getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Edit' })));
  });

  it('an edit left unsaved reopens the form', async () => {
    serverHolds(PROFILE);
    localStorage.setItem(draftKey('p-1'), JSON.stringify({ bio: 'typed before the reload' }));
    render(<ProfileScreen />);
    expect(await screen.findByRole('form', { name: 'Edit your profile' })).toBeTruthy();
    expect((screen.getByLabelText('About you') as HTMLTextAreaElement).value).toBe('typed before the reload');
  });

  it('a draft of another profile does not open the form', async () => {
    serverHolds(PROFILE);
    localStorage.setItem(draftKey('p-2'), JSON.stringify({ bio: 'elsewhere' }));
    render(<ProfileScreen />);
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('a conflict kept from before is put before the member again once the profile is read', async () => {
    serverHolds(PROFILE);
    outbox.loadPendingSave.mockResolvedValueOnce(update(true));
    render(<ProfileScreen />);
    await waitFor(() => expect(outbox.sendQueuedSave).toHaveBeenCalledTimes(1));
  });

  it('a queued save without a conflict, or a create, or a conflict already shown, is not sent from here', async () => {
    serverHolds(PROFILE);
    outbox.loadPendingSave.mockResolvedValueOnce(update(false));
    const first = render(<ProfileScreen />);
    await screen.findByRole('button', { name: 'Edit' });
    await act(async () => undefined);
    first.unmount();

    outbox.loadPendingSave.mockResolvedValueOnce({ kind: 'create', fields: {}, key: 'k', conflict: true } as unknown as PendingProfileSave);
    const second = render(<ProfileScreen />);
    await screen.findByRole('button', { name: 'Edit' });
    await act(async () => undefined);
    second.unmount();

    act(() => setProfileConflict(CONFLICT));
    outbox.loadPendingSave.mockResolvedValueOnce(update(true));
    render(<ProfileScreen />);
    await waitFor(() => expect(outbox.loadPendingSave).toHaveBeenCalledTimes(3));
    await act(async () => undefined);
    expect(outbox.sendQueuedSave).not.toHaveBeenCalled();
  });

  it('a failure to read the outbox is no error of the screen', async () => {
    serverHolds(PROFILE);
    outbox.loadPendingSave.mockRejectedValueOnce(new Error('IndexedDB gone'));
    render(<ProfileScreen />);
    expect(await screen.findByRole('button', { name: 'Edit' })).toBeTruthy();
    await act(async () => undefined);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a save waits for the network, but not one that waits for a choice', async () => {
    serverHolds(PROFILE);
    render(<ProfileScreen />);
    await screen.findByRole('button', { name: 'Edit' });
    expect(screen.queryByTestId('pending-save')).toBeNull();
    act(() => {
      outbox.pending.value = update(false);
    });
    expect(screen.getByTestId('pending-save').textContent).toBe('Saved on this device. It will be sent when you are back online.');
    expect(screen.getByTestId('pending-save').getAttribute('role')).toBe('status');
    act(() => {
      outbox.pending.value = { kind: 'create', fields: {}, key: 'k', conflict: true, queuedAt: 0 } as unknown as PendingProfileSave;
    });
    expect(screen.getByTestId('pending-save')).toBeTruthy();
    act(() => {
      outbox.pending.value = update(true);
    });
    expect(screen.queryByTestId('pending-save')).toBeNull();
  });

  describe('a save made offline', () => {
    const queuedEdit = (fields: Record<string, unknown>): PendingProfileSave =>
      ({ kind: 'update', id: 'p-1', fields, ifMatch: '"1"', key: 'k', avatar: null, queuedAt: 0 }) as unknown as PendingProfileSave;

    /** The model keeps the edit on the device, as it does offline. */
    function offlineSave() {
      edits.saveProfile.mockImplementationOnce(async (edit) => {
        outbox.pending.value = queuedEdit((edit as { fields: Record<string, unknown> }).fields);
        return 'queued';
      });
    }

    it('closes the form and shows the profile as saved, says once that it waits, and offers only Edit', async () => {
      const user = userEvent.setup();
      serverHolds(PROFILE);
      offlineSave();
      render(<ProfileScreen />);
      await user.click(await screen.findByRole('button', { name: 'Edit' }));
      const name = screen.getByLabelText('Display name', { exact: false });
      await user.clear(name);
      await user.type(name, 'Countess Ada');
      await user.click(screen.getByRole('button', { name: 'Save changes' }));

      await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
      expect(screen.getByRole('heading', { level: 2, name: 'Countess Ada' })).toBeTruthy();
      expect(screen.getAllByText('Saved on this device. It will be sent when you are back online.')).toHaveLength(1);
      expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Edit']);
      // Nothing else to say: the notice is the news.
      expect(snackbar.value).toBeNull();
    });

    it('once sent, leaves the form (one opened meanwhile too) for the profile the server now has', async () => {
      const user = userEvent.setup();
      serverHolds(PROFILE);
      offlineSave();
      render(<ProfileScreen />);
      await user.click(await screen.findByRole('button', { name: 'Edit' }));
      await user.click(screen.getByRole('button', { name: 'Save changes' }));
      await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
      await user.click(screen.getByRole('button', { name: 'Edit' }));
      expect(screen.getByRole('form', { name: 'Edit your profile' })).toBeTruthy();

      // Back online, the outbox sends it: the store has the server's answer, nothing waits.
      act(() => {
        setProfileState('save:sent-queued', { profile: { ...PROFILE, displayName: 'Countess Ada' } });
        outbox.pending.value = null;
      });
      expect(screen.queryByRole('form')).toBeNull();
      expect(screen.queryByTestId('pending-save')).toBeNull();
      expect(screen.getByRole('heading', { level: 2, name: 'Countess Ada' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Delete profile' })).toBeTruthy();
    });

    it('a create kept on the device is shown as the profile to come, not as an empty form', async () => {
      serverHolds(null);
      outbox.loadPendingSave.mockImplementation(async () => {
        const save = {
          kind: 'create',
          fields: { displayName: 'Grace Hopper', username: 'grace', email: 'grace@example.org', interests: [] },
          key: 'k',
          avatar: null,
          queuedAt: 0,
        } as unknown as PendingProfileSave;
        outbox.pending.value = save;
        return save;
      });
      render(<ProfileScreen />);
      expect(await screen.findByRole('heading', { level: 2, name: 'Grace Hopper' })).toBeTruthy();
      expect(screen.queryByRole('form')).toBeNull();
      expect(screen.queryByText('You have no profile yet.')).toBeNull();
      expect(screen.getAllByTestId('pending-save')).toHaveLength(1);
    });

    it('a draft of a save that waits does not reopen the form after a reload', async () => {
      serverHolds(PROFILE);
      localStorage.setItem(draftKey('p-1'), JSON.stringify({ displayName: 'Countess Ada' }));
      outbox.loadPendingSave.mockImplementation(async () => {
        const save = queuedEdit({ displayName: 'Countess Ada' });
        outbox.pending.value = save;
        return save;
      });
      render(<ProfileScreen />);
      expect(await screen.findByRole('heading', { level: 2, name: 'Countess Ada' })).toBeTruthy();
      await act(async () => undefined);
      expect(screen.queryByRole('form')).toBeNull();
      localStorage.clear();
    });
  });

  it('an open conflict replaces the profile, its form and the pending notice until resolved', async () => {
    const user = userEvent.setup();
    serverHolds(PROFILE);
    render(<ProfileScreen />);
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    act(() => {
      outbox.pending.value = update(false);
      setProfileConflict(CONFLICT);
    });
    expect(await screen.findByText('Conflict on p-1')).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(screen.queryByTestId('pending-save')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    act(() => setProfileConflict(null));
    // Resolved: the profile as it now is, not the form.
    expect(screen.getByRole('button', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('loads the conflict view with the first conflict shown, not with the screen', async () => {
    // A fresh copy of the screen, so that its lazy part is set up inside this test. The mocked
    // modules stay as they are; the conflict state is a fresh copy too.
    vi.resetModules();
    const { default: FreshScreen } = await import('./ProfileScreen');
    const conflicts = await import('./conflict-state');
    // The fresh screen reads a fresh store too (the mocked read stays as it is).
    const store = await import('./store');
    reads.fetchProfile.mockImplementation(async () => {
      store.setProfileState('fetch:success', { profile: PROFILE, loading: false });
      return PROFILE;
    });
    render(<FreshScreen />);
    await screen.findByRole('button', { name: 'Edit' });
    expect(screen.queryByRole('region', { name: 'Conflict' })).toBeNull();
    try {
      act(() => conflicts.setProfileConflict(CONFLICT));
      expect(await screen.findByText('Conflict on p-1')).toBeTruthy();
    } finally {
      act(() => conflicts.setProfileConflict(null));
    }
  });

  it('a queued update the server refused reopens the form with the reason', async () => {
    serverHolds(PROFILE);
    render(<ProfileScreen />);
    await screen.findByRole('button', { name: 'Edit' });
    act(() => {
      outbox.refused.value = { save: update(false), message: 'email taken' };
    });
    expect(screen.getByRole('form', { name: 'Edit your profile' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Your changes were not saved: email taken. The form keeps what you typed.');
  });

  it('a refused create is shown on the create form, and opens no edit', async () => {
    serverHolds(null);
    render(<ProfileScreen />);
    await screen.findByText('You have no profile yet.');
    act(() => {
      outbox.refused.value = { save: { kind: 'create', fields: {}, key: 'k' } as unknown as PendingProfileSave, message: 'bad' };
    });
    // The form keeps its first error; a remount of the screen shows it.
    expect(screen.getByRole('form', { name: 'Create your profile' })).toBeTruthy();
    act(() => setProfileState('x', { profile: PROFILE }));
    expect(screen.queryByRole('form')).toBeNull();
  });

  describe('delete', () => {
    async function openDelete(user: ReturnType<typeof userEvent.setup>) {
      serverHolds(PROFILE);
      render(<ProfileScreen />);
      const button = await screen.findByRole('button', { name: 'Delete profile' });
      expect(document.querySelector('dialog')?.open).toBe(false);
      await user.click(button);
      return screen.getByRole('dialog', { name: 'Delete your profile?' });
    }

    it('is asked first; cancelling deletes nothing', async () => {
      const user = userEvent.setup();
      const dialog = await openDelete(user);
      expect(dialog.textContent).toContain('Your profile and avatar will be removed. This cannot be undone.');
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect((dialog as HTMLDialogElement).open).toBe(false);
      expect(edits.deleteProfile).not.toHaveBeenCalled();
    });

    it('confirmed, deletes the profile and says so', async () => {
      const user = userEvent.setup();
      edits.deleteProfile.mockResolvedValueOnce('deleted');
      const dialog = await openDelete(user);
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      expect(edits.deleteProfile).toHaveBeenCalledWith('p-1');
      await waitFor(() => expect(snackbar.value).toMatchObject({ message: 'Your profile was deleted.', duration: 4000 }));
      expect((dialog as HTMLDialogElement).open).toBe(false);
    });

    it('a profile changed elsewhere is asked about again, then the question is the usual one', async () => {
      const user = userEvent.setup();
      edits.deleteProfile.mockResolvedValueOnce('changed').mockResolvedValueOnce('changed').mockResolvedValueOnce('deleted');
      const dialog = (await openDelete(user)) as HTMLDialogElement;
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      await waitFor(() =>
        expect(dialog.textContent).toContain(
          'Your profile was changed on another device after you opened it. The current version is now shown. Delete it anyway?',
        ),
      );
      expect(dialog.open).toBe(true);
      expect(snackbar.value).toBeNull();
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(dialog.open).toBe(false);
      await user.click(screen.getByRole('button', { name: 'Delete profile' }));
      expect(dialog.textContent).toContain('This cannot be undone.');

      // A delete that goes through after a stale one leaves the usual question for next time.
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(dialog.textContent).toContain('Delete it anyway?'));
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      await waitFor(() => expect(snackbar.value?.message).toBe('Your profile was deleted.'));
      await user.click(screen.getByRole('button', { name: 'Delete profile' }));
      expect(dialog.textContent).toContain('This cannot be undone.');
    });

    it('the profile gone elsewhere while the question was open: confirming sends nothing and says nothing', async () => {
      const user = userEvent.setup();
      const dialog = (await openDelete(user)) as HTMLDialogElement;
      act(() => setProfileState('fetch:success', { profile: null }));
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      await act(async () => undefined);
      expect(edits.deleteProfile).not.toHaveBeenCalled();
      expect(dialog.open).toBe(false);
      expect(snackbar.value).toBeNull();
    });

    it('a failed delete says why, assertively', async () => {
      const user = userEvent.setup();
      edits.deleteProfile.mockImplementationOnce(async () => {
        setProfileState('delete:failure', { error: 'Backend returned code 500, with body oops' });
        throw new Error('oops');
      });
      await openDelete(user);
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      await waitFor(() =>
        expect(snackbar.value).toMatchObject({ message: 'Backend returned code 500, with body oops', politeness: 'assertive' }),
      );
    });

    it('a failed delete with no reason recorded says something went wrong', async () => {
      const user = userEvent.setup();
      edits.deleteProfile.mockRejectedValueOnce(new Error('oops'));
      await openDelete(user);
      await user.click(screen.getByRole('button', { name: 'Delete' }));
      await waitFor(() =>
        expect(snackbar.value?.message).toBe(
          'Something went wrong while showing this screen. Your other screens and saved drafts are safe.',
        ),
      );
    });
  });
});
