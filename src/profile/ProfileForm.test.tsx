import { describe, expect, it, vi } from 'vitest';
import { sessionEnded, sessionStarted } from '../state/auth';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ProfileForm } from './ProfileForm';
import { ApiError } from '../api/errors';
import { snackbar } from '../ui/snackbar/store';
import { watchSubmits } from '../test/watch-submits';
import { PROFILE, image, field, avatarInput, fillNewProfile, resetBetweenTests } from './ProfileForm.test-support';

/**
 * The form for a new profile and for an existing one: what it starts from, its checks, and what a
 * save, a failed one, a conflict, a discard or a cancel leave behind.
 */
const { edit, drafts } = await vi.hoisted(() => import('./ProfileForm.test-support'));
vi.mock('./save', () => edit);
vi.mock('./draft', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./draft')>()),
  ...drafts,
}));

resetBetweenTests();

describe('<ProfileForm> for a new profile', () => {
  it('starts from the name and e-mail the provider gave, which count as nothing typed yet', () => {
    act(() => sessionStarted({ subject: 'grace', name: 'Grace Hopper', email: 'grace@navy.example.org' }));
    try {
      render(<ProfileForm profile={null} onDone={() => undefined} />);
      expect(field('Display name').value).toBe('Grace Hopper');
      expect(field('Email').value).toBe('grace@navy.example.org');
      expect(field('Username').value).toBe('');
      expect(screen.queryByRole('button', { name: 'Discard changes' })).toBeNull();
      expect(localStorage.getItem('draft.profile.new')).toBeNull();
    } finally {
      act(() => sessionEnded('signed-out'));
    }
  });

  it('before an image is chosen, shows the initials of the name typed, not an empty disc', async () => {
    const user = userEvent.setup();
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    const field = screen.getByLabelText('Display name', { exact: false, selector: 'input' });
    await user.clear(field);
    await user.type(field, 'Grace Hopper');
    const initials = document.querySelector('.avatar-picker .avatar--initials')!;
    expect(initials.textContent).toBe('GH');
    expect(initials.getAttribute('aria-hidden')).toBe('true');
  });

  it('is titled and labelled for creating one, every field with its hint', () => {
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    expect(screen.getByRole('form', { name: 'Create your profile' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Create your profile' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create profile' })).toBeTruthy();
    for (const label of ['Display name', 'Username', 'Email', 'About you', 'Interests']) expect(field(label)).toBeTruthy();
    for (const hint of [
      '2 to 50 characters.',
      'Lower-case letters, digits and _, 3 to 20 characters.',
      'At most 280 characters.',
      'Separate with commas, at most 10.',
      'PNG, JPEG or WebP, at most 2 MB. You can also drop an image here.',
    ])
      expect(screen.getByText(hint)).toBeTruthy();
    const language = screen.getByLabelText('Preferred language') as HTMLSelectElement;
    expect(language.value).toBe('en');
    expect([...language.options].map((o) => o.textContent)).toContain('English');
    expect(avatarInput().getAttribute('aria-describedby')).toBe('profile-avatar-hint');
    expect(avatarInput().getAttribute('aria-invalid')).toBeNull();
    expect(avatarInput().closest('.field')?.className).toBe('field avatar-picker');
    // Nothing typed, nothing to discard, no cancel offered, nothing announced.
    expect(screen.queryByRole('button', { name: 'Discard changes' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(snackbar.value).toBeNull();
  });

  it('says the preferred language is the profile’s, not the app’s: the picker is described by where that is chosen', () => {
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    const language = screen.getByLabelText('Preferred language');
    const description = (language.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent)
      .join(' ');
    expect(description).toBe('Kept with your profile. The app’s own language is chosen in Settings.');
  });

  it('an empty submit sends nothing, counts the fields to correct and moves focus to the first', async () => {
    const user = userEvent.setup();
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    const submits = watchSubmits();
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(submits.reloaded()).toBe(false);
    expect(screen.getByRole('alert').textContent).toBe('Please correct 3 fields before saving.');
    await waitFor(() => expect(document.activeElement).toBe(field('Display name')));
    expect(edit.saveProfile).not.toHaveBeenCalled();
  });

  it('a wrong avatar is one more field to correct, and stops the save even when the fields are valid', async () => {
    const user = userEvent.setup({ applyAccept: false });
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    await user.upload(avatarInput(), image('image/gif', 10, 'me.gif'));
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(screen.getByRole('alert').textContent).toBe('Please correct 4 fields before saving.');

    await fillNewProfile(user);
    expect(screen.getByRole('alert').textContent).toBe('Please correct 1 field before saving.');
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(edit.saveProfile).not.toHaveBeenCalled();
    await waitFor(() => expect(document.activeElement).toBe(avatarInput()));
  });

  it('sends the trimmed fields and the tags, then says it was created, clears the draft and is done', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    edit.saveProfile.mockResolvedValueOnce('saved');
    render(<ProfileForm profile={null} onDone={onDone} />);
    await fillNewProfile(user);
    expect(localStorage.getItem('draft.profile.new')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    const [request, avatar, signal] = edit.saveProfile.mock.calls[0]!;
    expect(request).toEqual({
      kind: 'create',
      fields: {
        displayName: 'Grace Hopper',
        username: 'grace',
        email: 'grace@example.org',
        bio: 'Ships',
        interests: ['cobol', 'navy'],
        language: 'en',
      },
    });
    expect(avatar).toBeNull();
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(snackbar.value).toMatchObject({ message: 'Your profile was created.', duration: 4000 });
    expect(field('Display name').value).toBe('');
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('a save kept on the device is done: the screen says it waits; what was typed stays the draft until it is sent', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    edit.saveProfile.mockResolvedValueOnce('queued');
    render(<ProfileForm profile={null} onDone={onDone} />);
    await fillNewProfile(user);
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    // The screen's notice says it once; the form adds nothing.
    expect(screen.queryByRole('status')).toBeNull();
    expect(snackbar.value).toBeNull();
    // A refusal later gives the typed fields back from the draft.
    expect(JSON.parse(localStorage.getItem('draft.profile.new') ?? '{}')).toMatchObject({ displayName: '  Grace Hopper ' });
  });

  it('a failed save says why and keeps the form; a cancelled one says nothing', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    edit.saveProfile
      .mockRejectedValueOnce(new ApiError(422, { status: 422, error: 'Unprocessable', message: 'username taken' }))
      .mockRejectedValueOnce(new DOMException('The user aborted a request.', 'AbortError'));
    render(<ProfileForm profile={null} onDone={onDone} />);
    await fillNewProfile(user);
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your changes were not saved: username taken. The form keeps what you typed.',
    );
    expect(field('Username').value).toBe('grace');

    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    await waitFor(() => expect(edit.saveProfile).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(onDone).not.toHaveBeenCalled();
  });

  it('announces a draft restored from an earlier visit', () => {
    localStorage.setItem('draft.profile.new', JSON.stringify({ displayName: 'Half typed' }));
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    expect(field('Display name').value).toBe('Half typed');
    expect(snackbar.value).toMatchObject({ message: 'Your unsaved changes were restored.', duration: 5000 });
    // A new profile has no saved version to go back to: the form starts over, nothing is "discarded".
    expect(screen.queryByRole('button', { name: 'Discard changes' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Start over' })).toBeTruthy();
  });

  it('a text file named .png is refused for what it is, before anything is sent', async () => {
    const user = userEvent.setup();
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    await fillNewProfile(user);
    await user.upload(avatarInput(), new File(['just some notes'], 'notes.png', { type: 'image/png' }));
    const error = await screen.findByText(
      'This file is not an image: its content is not the PNG, JPEG or WebP its name says. Choose another image.',
    );
    expect(error.id).toBe('profile-avatar-error');
    expect(avatarInput().getAttribute('aria-invalid')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    expect(edit.saveProfile).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Please correct 1 field before saving.');
  });

  it('a file saved at once after choosing it is still read before it is sent', async () => {
    const user = userEvent.setup();
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    await fillNewProfile(user);
    // Chosen and sent in one go: the content check started on choosing has not answered yet.
    act(() => {
      fireEvent.change(avatarInput(), { target: { files: [new File(['GIF89a'], 'me.png', { type: 'image/png' })] } });
      fireEvent.submit(screen.getByRole('button', { name: 'Create profile' }).closest('form')!);
    });
    expect(await screen.findByText(/This file is not an image/)).toBeTruthy();
    expect(edit.saveProfile).not.toHaveBeenCalled();
  });
});

describe('<ProfileForm> for an existing profile', () => {
  it('starts from the profile, titled for editing, and sends an update of that profile', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    edit.saveProfile.mockResolvedValueOnce('saved');
    render(<ProfileForm profile={PROFILE} onDone={onDone} />);
    expect(screen.getByRole('heading', { name: 'Edit your profile' })).toBeTruthy();
    expect(field('Display name').value).toBe('Ada Lovelace');
    expect(field('Interests').value).toBe('maths, poetry');
    expect(snackbar.value).toBeNull();
    expect(drafts.restoreDraftAvatar).toHaveBeenCalledWith('p-7');

    await user.clear(field('About you'));
    await user.type(field('About you'), 'Analytical engine');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(edit.saveProfile.mock.calls[0]![0]).toEqual({
      kind: 'update',
      id: 'p-7',
      fields: {
        displayName: 'Ada Lovelace',
        username: 'ada',
        email: 'ada@example.org',
        bio: 'Analytical engine',
        interests: ['maths', 'poetry'],
        language: 'en',
      },
    });
    expect(snackbar.value?.message).toBe('Your changes were saved.');
  });

  it('a conflict leaves the form as typed, without saying it was saved', async () => {
    const user = userEvent.setup();
    const onDone = vi.fn();
    edit.saveProfile.mockResolvedValueOnce('conflict');
    render(<ProfileForm profile={PROFILE} onDone={onDone} />);
    await user.type(field('About you'), '!');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(edit.saveProfile).toHaveBeenCalled());
    await act(async () => undefined);
    expect(onDone).not.toHaveBeenCalled();
    expect(snackbar.value).toBeNull();
    expect(field('About you').value).toBe('Engines!');
    expect(JSON.parse(localStorage.getItem('draft.profile.p-7')!)).toMatchObject({ bio: 'Engines!' });
  });

  it('shows why an earlier save was refused until the next attempt', async () => {
    const user = userEvent.setup();
    edit.saveProfile.mockImplementationOnce(() => new Promise(() => undefined));
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} initialError="Refused: bad email" />);
    expect(screen.getByRole('alert').textContent).toBe('Refused: bad email');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('discarding puts the profile back, forgets the chosen avatar and clears the file input', async () => {
    const user = userEvent.setup();
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    await user.clear(field('Display name'));
    await user.type(field('Display name'), 'Countess');
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(field('Display name').value).toBe('Ada Lovelace');
    expect(screen.queryByRole('button', { name: 'Discard changes' })).toBeNull();

    const chosen = image();
    await user.upload(avatarInput(), chosen);
    expect(drafts.keepDraftAvatar).toHaveBeenLastCalledWith('p-7', chosen);
    // An avatar alone is something to discard.
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(drafts.keepDraftAvatar).toHaveBeenLastCalledWith('p-7', null);
    expect(avatarInput().value).toBe('');
    expect(avatarInput().files?.length ?? 0).toBe(0);
    expect(document.querySelector('img.avatar--preview')).toBeNull();
  });

  it('cancel drops the edit, draft included, and hands back', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} onCancel={onCancel} />);
    await user.type(field('Username'), 'x');
    expect(localStorage.getItem('draft.profile.p-7')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('draft.profile.p-7')).toBeNull();
    expect(field('Username').value).toBe('ada');
  });

  it('follows another profile handed in, with its own draft', () => {
    localStorage.setItem('draft.profile.p-8', JSON.stringify({ bio: 'typed for p-8' }));
    const { rerender } = render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    expect(snackbar.value).toBeNull();
    rerender(<ProfileForm profile={{ ...PROFILE, id: 'p-8', displayName: 'Someone else' }} onDone={() => undefined} />);
    expect(field('Display name').value).toBe('Someone else');
    expect(drafts.restoreDraftAvatar).toHaveBeenLastCalledWith('p-8');
    expect(field('About you').value).toBe('typed for p-8');
    expect(snackbar.value?.message).toBe('Your unsaved changes were restored.');
  });
});
