/**
 * What the form's tests share: the save and the avatar's draft as mocks (a test says what a save
 * comes to, and what a reload brings back), a profile, images, the fields by their labels, and
 * object URLs recorded instead of made.
 *
 * A test file hands the mocks to vi.mock itself, before anything imports the form:
 *   const { edit, drafts } = await vi.hoisted(() => import('./ProfileForm.test-support'));
 *   vi.mock('./save', () => edit);
 *   vi.mock('./draft', async (importOriginal) => ({ ...(await importOriginal()), ...drafts }));
 * So this module imports nothing that imports those two.
 */
import { afterEach, beforeEach, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import type { Profile } from './requests';
import { resetProfileState } from './store';
import { resetSnackbar } from '../ui/snackbar/store';

export const edit = {
  saveProfile: vi.fn<(edit: unknown, avatar: Blob | null, signal?: AbortSignal) => Promise<'saved' | 'queued' | 'conflict'>>(),
};

export const drafts = {
  keepDraftAvatar: vi.fn(async (_id: string | null | undefined, _file: File | null) => undefined),
  restoreDraftAvatar: vi.fn(async (_id: string | null | undefined): Promise<File | null> => null),
};

export const PROFILE: Profile = {
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
export function image(type = 'image/png', size = 10, name = 'me.png'): File {
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

/** The object URLs the form made (for previews) and freed, in order, emptied before each test. */
const urls: string[] = [];
export const revoked: string[] = [];

export const field = (label: string) =>
  screen.getByLabelText(label, { exact: false, selector: 'input,textarea,select' }) as HTMLInputElement;
export const avatarInput = () => screen.getByLabelText('Avatar') as HTMLInputElement;

export async function fillNewProfile(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field('Display name'), '  Grace Hopper ');
  await user.type(field('Username'), 'grace');
  await user.type(field('Email'), 'grace@example.org');
  await user.type(field('About you'), 'Ships');
  await user.type(field('Interests'), 'cobol, navy');
}

/** Every test starts with no object URL made, and leaves the mocks, the profile and the snackbar as it found them. */
export function resetBetweenTests(): void {
  beforeEach(() => {
    urls.length = 0;
    revoked.length = 0;
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
}
