import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ProfileScreen from './ProfileScreen';
import type { PendingProfileSave } from './pending-save';
import { setProfileState } from './store';
import { setProfileConflict } from './conflict-state';
import { draftKey } from './draft';
import { snackbar } from '../ui/snackbar/store';
import { PROFILE, reads, outbox, serverHolds, update, CONFLICT, resetBetweenTests } from './ProfileScreen.test-support';

/**
 * A save that waits on the device or was refused, and a conflict: what the screen says of them, and
 * what it opens.
 */
const { edits, outboxModule, resolverModule, storeModule } = await vi.hoisted(() => import('./ProfileScreen.test-support'));
vi.mock('./store', storeModule);
vi.mock('./save', () => edits);
vi.mock('./outbox', outboxModule);
vi.mock('./ConflictResolver', resolverModule);

resetBetweenTests();

describe('<ProfileScreen>', () => {
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
});
