import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ProfileScreen from './ProfileScreen';
import { setProfileState } from './store';
import { draftKey } from './draft';
import { PROFILE, reads, outbox, serverHolds, heading, resetBetweenTests } from './ProfileScreen.test-support';

/**
 * The screen reading the profile (loading, none yet, failed) and the way through editing it: the
 * form it opens, where the focus goes, a draft left from before.
 */
const { edits, outboxModule, resolverModule, storeModule } = await vi.hoisted(() => import('./ProfileScreen.test-support'));
vi.mock('./store', storeModule);
vi.mock('./save', () => edits);
vi.mock('./outbox', outboxModule);
vi.mock('./ConflictResolver', resolverModule);

resetBetweenTests();

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
});
