import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setTokenKeeper } from '../api/credentials';
import { ProfileForm } from './ProfileForm';
import { PROFILE, image, revoked, avatarInput, fillNewProfile, resetBetweenTests } from './ProfileForm.test-support';

/**
 * The avatar: chosen or dropped, checked, previewed, kept as a draft across a reload, and sent with
 * the save; a late read never wins over a newer choice.
 */
const { edit, drafts } = await vi.hoisted(() => import('./ProfileForm.test-support'));
vi.mock('./save', () => edit);
vi.mock('./draft', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./draft')>()),
  ...drafts,
}));

resetBetweenTests();

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
