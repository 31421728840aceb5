import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ProfileScreen from './ProfileScreen';
import { setProfileState } from './store';
import { snackbar } from '../ui/snackbar/store';
import { PROFILE, serverHolds, resetBetweenTests } from './ProfileScreen.test-support';

/**
 * Deleting the profile: asked first, asked again when it changed elsewhere, and a failure said.
 */
const { edits, outboxModule, resolverModule, storeModule } = await vi.hoisted(() => import('./ProfileScreen.test-support'));
vi.mock('./store', storeModule);
vi.mock('./save', () => edits);
vi.mock('./outbox', outboxModule);
vi.mock('./ConflictResolver', resolverModule);

resetBetweenTests();

describe('<ProfileScreen>', () => {
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
