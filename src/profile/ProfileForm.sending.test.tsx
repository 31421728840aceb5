import { describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ProfileForm } from './ProfileForm';
import { setProfileState } from './store';
import { PROFILE, resetBetweenTests } from './ProfileForm.test-support';

/**
 * While a save is sent: its progress, its message, and the way to cancel the upload.
 */
const { edit, drafts } = await vi.hoisted(() => import('./ProfileForm.test-support'));
vi.mock('./save', () => edit);
vi.mock('./draft', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./draft')>()),
  ...drafts,
}));

resetBetweenTests();

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
