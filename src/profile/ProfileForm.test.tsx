import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionEnded, sessionStarted } from '../state/auth';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setTokenKeeper } from '../api/credentials';
import { ProfileForm } from './ProfileForm';
import type { Profile } from './requests';
import { ApiError } from '../api/errors';
import { resetProfileState } from './store';
import { setProfileState } from './store';
import { resetSnackbar, snackbar } from '../ui/snackbar/store';
import { watchSubmits } from '../test/watch-submits';

const edit = vi.hoisted(() => ({
  saveProfile: vi.fn<(edit: unknown, avatar: Blob | null, signal?: AbortSignal) => Promise<'saved' | 'queued' | 'conflict'>>(),
}));
vi.mock('./save', () => edit);

const drafts = vi.hoisted(() => ({
  keepDraftAvatar: vi.fn(async (_id: string | null | undefined, _file: File | null) => undefined),
  restoreDraftAvatar: vi.fn(async (_id: string | null | undefined): Promise<File | null> => null),
}));
vi.mock('./draft', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./draft')>()),
  ...drafts,
}));

const PROFILE: Profile = {
  id: 'p-7',
  displayName: 'Ada Lovelace',
  username: 'ada',
  email: 'ada@example.org',
  bio: 'Engines',
  language: 'en',
  interests: ['maths', 'poetry'],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-02T00:00:00Z',
};

/** A file of `type` that begins as that type's content does (a PNG's first 8 bytes, a JPEG's 3, a WebP's 12). */
function image(type = 'image/png', size = 10, name = 'me.png'): File {
  const bytes = new Uint8Array(size);
  const head =
    {
      'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      'image/jpeg': [0xff, 0xd8, 0xff],
      'image/webp': [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
    }[type] ?? [];
  bytes.set(head.slice(0, size));
  return new File([bytes], name, { type });
}

let urls: string[];
let revoked: string[];
beforeEach(() => {
  urls = [];
  revoked = [];
  let n = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    const url = `blob:preview-${++n}`;
    urls.push(url);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
});

afterEach(() => {
  edit.saveProfile.mockReset();
  drafts.keepDraftAvatar.mockClear();
  drafts.restoreDraftAvatar.mockReset();
  drafts.restoreDraftAvatar.mockResolvedValue(null);
  act(() => {
    resetProfileState();
    resetSnackbar();
  });
});

const field = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input,textarea,select' }) as HTMLInputElement;
const avatarInput = () => screen.getByLabelText('Avatar') as HTMLInputElement;

async function fillNewProfile(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field('Display name'), '  Grace Hopper ');
  await user.type(field('Username'), 'grace');
  await user.type(field('Email'), 'grace@example.org');
  await user.type(field('About you'), 'Ships');
  await user.type(field('Interests'), 'cobol, navy');
}

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

describe('<ProfileForm> avatar', () => {
  it('previews a good image and sends it with the save', async () => {
    const user = userEvent.setup();
    edit.saveProfile.mockResolvedValueOnce('saved');
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    const chosen = image();
    await user.upload(avatarInput(), chosen);
    const preview = document.querySelector('img.avatar--preview') as HTMLImageElement;
    expect(preview.getAttribute('src')).toBe('blob:preview-1');
    expect(avatarInput().getAttribute('aria-invalid')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(edit.saveProfile).toHaveBeenCalled());
    expect(edit.saveProfile.mock.calls[0]![1]).toBe(chosen);
  });

  it('another image replaces the preview and frees the old one', async () => {
    const user = userEvent.setup();
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    await user.upload(avatarInput(), image());
    await user.upload(avatarInput(), image('image/webp', 12, 'two.webp'));
    expect(revoked).toEqual(['blob:preview-1']);
    expect((document.querySelector('img.avatar--preview') as HTMLImageElement).getAttribute('src')).toBe('blob:preview-2');
  });

  it('never shows a preview whose URL is freed: the old image is gone before its URL is revoked', async () => {
    const user = userEvent.setup();
    const shownWhenFreed: (string | null)[] = [];
    vi.mocked(URL.revokeObjectURL).mockImplementation(() => {
      shownWhenFreed.push(document.querySelector('img.avatar--preview')?.getAttribute('src') ?? null);
    });
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    await user.upload(avatarInput(), image());
    await user.upload(avatarInput(), image('image/webp', 12, 'two.webp'));
    await user.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(shownWhenFreed).toEqual([null, null]);
  });

  it('a file of another type is refused with its reason, linked to the input, and not previewed', async () => {
    const user = userEvent.setup({ applyAccept: false });
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    await user.upload(avatarInput(), image('image/gif', 10, 'me.gif'));
    const error = screen.getByText('Choose a PNG, JPEG or WebP image.');
    expect(error.id).toBe('profile-avatar-error');
    expect(avatarInput().getAttribute('aria-describedby')).toBe('profile-avatar-hint profile-avatar-error');
    expect(avatarInput().getAttribute('aria-invalid')).toBe('true');
    expect(avatarInput().closest('.field')?.className).toBe('field avatar-picker field--invalid');
    expect(document.querySelector('img.avatar--preview')).toBeNull();
  });

  it('a file over 2 MB is refused', async () => {
    const user = userEvent.setup();
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    await user.upload(avatarInput(), image('image/png', 2 * 1024 * 1024 + 1));
    expect(screen.getByText('Choose an image of at most 2 MB.')).toBeTruthy();
  });

  it('an avatar chosen before a reload comes back with its preview, and is sent', async () => {
    const user = userEvent.setup();
    const restored = image('image/jpeg', 10, 'kept.jpg');
    drafts.restoreDraftAvatar.mockResolvedValueOnce(restored);
    edit.saveProfile.mockResolvedValueOnce('saved');
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    expect(drafts.restoreDraftAvatar).toHaveBeenCalledWith(null);
    await waitFor(() => expect(document.querySelector('img.avatar--preview')).not.toBeNull());
    // A new profile: no saved version to go back to, the form starts over.
    expect(screen.getByRole('button', { name: 'Start over' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Discard changes' })).toBeNull();
    await fillNewProfile(user);
    await user.click(screen.getByRole('button', { name: 'Create profile' }));
    await waitFor(() => expect(edit.saveProfile).toHaveBeenCalled());
    expect(edit.saveProfile.mock.calls[0]![1]).toBe(restored);
  });

  it('a restored avatar of a refused type shows its error', async () => {
    drafts.restoreDraftAvatar.mockResolvedValueOnce(image('image/gif', 10, 'old.gif'));
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    expect(await screen.findByText('Choose a PNG, JPEG or WebP image.')).toBeTruthy();
  });

  it('an avatar chosen while the old one was being read wins over it', async () => {
    const user = userEvent.setup({ applyAccept: false });
    let restore: (file: File | null) => void = () => undefined;
    drafts.restoreDraftAvatar.mockImplementationOnce(() => new Promise((resolve) => (restore = resolve)));
    edit.saveProfile.mockResolvedValueOnce('saved');
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    const chosen = image('image/gif', 10, 'new.gif');
    await user.upload(avatarInput(), chosen);
    await act(async () => restore(image('image/png', 10, 'old.png')));
    // The error of the chosen file stays: the restored one replaced neither file nor error.
    expect(screen.getByText('Choose a PNG, JPEG or WebP image.')).toBeTruthy();
    await user.upload(avatarInput(), image('image/png', 10, 'fine.png'));
    expect(screen.queryByText('Choose a PNG, JPEG or WebP image.')).toBeNull();
  });

  it('a good avatar chosen while the old one was being read is the one kept and sent', async () => {
    const user = userEvent.setup();
    let restore: (file: File | null) => void = () => undefined;
    drafts.restoreDraftAvatar.mockImplementationOnce(() => new Promise((resolve) => (restore = resolve)));
    edit.saveProfile.mockResolvedValueOnce('saved');
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    const chosen = image('image/png', 10, 'new.png');
    await user.upload(avatarInput(), chosen);
    await act(async () => restore(image('image/png', 10, 'old.png')));
    expect((document.querySelector('img.avatar--preview') as HTMLImageElement).getAttribute('src')).toBe('blob:preview-1');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(edit.saveProfile).toHaveBeenCalled());
    expect(edit.saveProfile.mock.calls[0]![1]).toBe(chosen);
  });

  it('a restored avatar arriving after another profile was handed in is not shown', async () => {
    let restore: (file: File | null) => void = () => undefined;
    drafts.restoreDraftAvatar.mockImplementationOnce(() => new Promise((resolve) => (restore = resolve)));
    const { rerender } = render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    rerender(<ProfileForm profile={{ ...PROFILE, id: 'p-8' }} onDone={() => undefined} />);
    await act(async () => restore(image()));
    expect(document.querySelector('img.avatar--preview')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Discard changes' })).toBeNull();
  });
});

describe('<ProfileForm> while sending', () => {
  it('shows the progress and its message, disables saving, and can cancel the upload', async () => {
    const user = userEvent.setup();
    let seen: AbortSignal | undefined;
    edit.saveProfile.mockImplementationOnce(
      (_edit, _avatar, signal) =>
        new Promise((_resolve, reject) => {
          seen = signal;
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    act(() =>
      setProfileState('update:start', {
        loading: true,
        progress: 40,
        progressMessage: { key: 'profile.progress.upload', params: { percent: 40 } },
      }),
    );
    const bar = screen.getByRole('progressbar', { name: 'Upload progress' }) as HTMLProgressElement;
    expect(bar.value).toBe(40);
    expect(screen.getByRole('status').textContent).toBe('Files are 40% uploaded');
    expect((screen.getByRole('button', { name: 'Save changes' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Cancel upload' }));
    expect(seen?.aborted).toBe(true);
    await act(async () => undefined);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('once all of it is sent, no longer offers to cancel the upload', async () => {
    const user = userEvent.setup();
    edit.saveProfile.mockImplementationOnce(() => new Promise(() => undefined));
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const at = (progress: number, key: 'profile.progress.upload' | 'profile.progress.download') =>
      act(() => setProfileState('update:start', { loading: true, progress, progressMessage: { key, params: { percent: progress } } }));
    at(99, 'profile.progress.upload');
    expect(screen.getByRole('button', { name: 'Cancel upload' })).toBeTruthy();
    at(100, 'profile.progress.upload');
    expect(screen.getByRole('status').textContent).toBe('Files are 100% uploaded');
    expect(screen.queryByRole('button', { name: 'Cancel upload' })).toBeNull();
    at(50, 'profile.progress.download');
    expect(screen.queryByRole('button', { name: 'Cancel upload' })).toBeNull();
  });

  it('without a message yet the status is empty; without a running save no progress is shown', () => {
    act(() => setProfileState('update:start', { loading: true, progress: 0, progressMessage: null }));
    const { unmount } = render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    expect(screen.getByRole('status').textContent).toBe('');
    // Cancelling with no save of this form running does nothing, and fails in nothing.
    const failures: unknown[] = [];
    const onError = (event: ErrorEvent) => void failures.push(event.error);
    window.addEventListener('error', onError);
    try {
      act(() => screen.getByRole('button', { name: 'Cancel upload' }).click());
    } finally {
      window.removeEventListener('error', onError);
    }
    expect(failures).toEqual([]);
    unmount();
    act(() => setProfileState('update:success', { loading: false, progress: 100 }));
    render(<ProfileForm profile={PROFILE} onDone={() => undefined} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    act(() => setProfileState('fetch:start', { loading: true, progress: undefined }));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});

describe('<ProfileForm> avatar picker', () => {
  const PICTURED = { ...PROFILE, avatar: 'https://api.example.org/user/profile/p-7/avatar' };

  it('the edit form shows the current avatar until another image is chosen', async () => {
    setTokenKeeper({ accessToken: async () => 'tok' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(new Blob(['png'], { type: 'image/png' }))),
    );
    render(<ProfileForm profile={PICTURED} onDone={() => undefined} />);
    // The initials stand in until the image is here.
    await waitFor(() => expect(screen.getByRole('img', { name: 'Avatar of Ada Lovelace' }).tagName).toBe('IMG'));
    expect(screen.getByRole('img', { name: 'Avatar of Ada Lovelace' }).getAttribute('src')).toMatch(/^blob:/);
    await userEvent.setup().upload(avatarInput(), image());
    expect(screen.queryByRole('img', { name: 'Avatar of Ada Lovelace' })).toBeNull();
    expect(screen.getByRole('img', { name: 'The image chosen, not saved yet' }).getAttribute('src')).toMatch(/^blob:preview-/);
    setTokenKeeper({ accessToken: async () => null });
  });

  it('is chosen with a real button, the file input’s label, which the keyboard reaches through the input', () => {
    render(<ProfileForm profile={null} onDone={() => undefined} />);
    const button = screen.getByText('Choose an image');
    expect(button.tagName).toBe('LABEL');
    expect(button.getAttribute('for')).toBe(avatarInput().id);
    expect(button.className).toBe('button button--outlined');
    // Hidden from sight only: still in the tab order, named by its labels.
    expect(avatarInput().className).toBe('visually-hidden avatar-picker__input');
    expect(avatarInput().tabIndex).toBe(0);
    expect(screen.getByLabelText('Choose an image', { exact: false })).toBe(avatarInput());
  });

  it('takes an image dropped on it, previews it, keeps it as the draft, and can forget it', async () => {
    const user = userEvent.setup();
    const { container } = render(<ProfileForm profile={null} onDone={() => undefined} />);
    const picker = container.querySelector('.avatar-picker') as HTMLElement;
    const dropped = image('image/webp', 10, 'dropped.webp');
    fireEvent.dragOver(picker, { dataTransfer: { files: [dropped] } });
    expect(picker.className).toBe('field avatar-picker avatar-picker--over');
    fireEvent.drop(picker, { dataTransfer: { files: [dropped] } });
    expect(picker.className).toBe('field avatar-picker');
    expect(drafts.keepDraftAvatar).toHaveBeenLastCalledWith(null, dropped);
    await waitFor(() => expect(screen.getByRole('img', { name: 'The image chosen, not saved yet' })).toBeTruthy());
    await user.click(screen.getByRole('button', { name: 'Remove the chosen image' }));
    expect(screen.queryByRole('img', { name: 'The image chosen, not saved yet' })).toBeNull();
    expect(drafts.keepDraftAvatar).toHaveBeenLastCalledWith(null, null);
    expect(screen.queryByRole('button', { name: 'Remove the chosen image' })).toBeNull();
  });

  it('a dropped file of another type is refused as a chosen one is', () => {
    const { container } = render(<ProfileForm profile={null} onDone={() => undefined} />);
    fireEvent.drop(container.querySelector('.avatar-picker') as HTMLElement, {
      dataTransfer: { files: [image('image/gif', 10, 'x.gif')] },
    });
    expect(screen.getByText('Choose a PNG, JPEG or WebP image.')).toBeTruthy();
    expect(avatarInput().getAttribute('aria-invalid')).toBe('true');
  });
});
