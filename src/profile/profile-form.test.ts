import { describe, expect, it, vi } from 'vitest';
import {
  AVATAR_MAX_BYTES,
  checkAvatar,
  checkAvatarContent,
  createProfileForm,
  parseInterests,
  toInput,
  valuesOf,
  type ProfileField,
} from './profile-form';
import type { Profile } from './requests';
import { draftKey } from './draft';

const PROFILE: Profile = {
  id: 'p-9',
  displayName: 'Grace Hopper',
  username: 'grace',
  email: 'grace@example.org',
  bio: 'COBOL',
  language: 'de',
  interests: ['compilers', 'navy'],
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-02T00:00:00Z',
};

function file(type: string, size: number, name = 'avatar'): File {
  return new File([new Uint8Array(size)], name, { type });
}

describe('parseInterests', () => {
  it('splits on commas, trims and drops empty tags', () => {
    expect(parseInterests('maths, music ,, ,art')).toEqual(['maths', 'music', 'art']);
    expect(parseInterests('')).toEqual([]);
    expect(parseInterests(' , ')).toEqual([]);
    expect(parseInterests('one')).toEqual(['one']);
  });

  it('also splits on the full-width and enumeration commas Chinese keyboards type', () => {
    expect(parseInterests('数学，诗歌、音乐, art')).toEqual(['数学', '诗歌', '音乐', 'art']);
  });
});

describe('checkAvatarContent', () => {
  const bytes = (type: string, ...content: number[]) => new File([new Uint8Array(content)], 'x', { type });
  const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  const WEBP = [0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50];

  it('accepts a file whose first bytes are those of its type', async () => {
    expect(await checkAvatarContent(bytes('image/png', ...PNG, 0, 0))).toBeNull();
    expect(await checkAvatarContent(bytes('image/jpeg', 0xff, 0xd8, 0xff, 0xe0))).toBeNull();
    // The RIFF size (bytes 4 to 7) may be anything.
    expect(await checkAvatarContent(bytes('image/webp', ...WEBP))).toBeNull();
  });

  it('refuses text named as an image, another type’s bytes, and a file shorter than its signature', async () => {
    const text = new File(['not an image at all'], 'notes.png', { type: 'image/png' });
    expect(await checkAvatarContent(text)).toBe('validation.avatarContent');
    expect(await checkAvatarContent(bytes('image/jpeg', ...PNG))).toBe('validation.avatarContent');
    expect(await checkAvatarContent(bytes('image/png', ...PNG.slice(0, 7)))).toBe('validation.avatarContent');
    expect(await checkAvatarContent(bytes('image/webp', ...WEBP.slice(0, 8), 0x41, 0x56, 0x49, 0x20))).toBe('validation.avatarContent');
    expect(await checkAvatarContent(bytes('image/png', 0x88, ...PNG.slice(1)))).toBe('validation.avatarContent');
  });
});

describe('checkAvatar', () => {
  it('accepts no file and PNG, JPEG or WebP images up to 2 MB', () => {
    expect(checkAvatar(null)).toBeNull();
    expect(checkAvatar(file('image/png', 10))).toBeNull();
    expect(checkAvatar(file('image/jpeg', 10))).toBeNull();
    expect(checkAvatar(file('image/webp', AVATAR_MAX_BYTES))).toBeNull();
  });

  it('rejects other types', () => {
    for (const type of ['image/gif', 'image/svg+xml', 'application/pdf', '']) {
      expect(checkAvatar(file(type, 10)), type).toBe('validation.avatarType');
    }
  });

  it('rejects files over 2 MB', () => {
    expect(AVATAR_MAX_BYTES).toBe(2 * 1024 * 1024);
    expect(checkAvatar(file('image/png', AVATAR_MAX_BYTES + 1))).toBe('validation.avatarSize');
  });

  it('from a freshly loaded module, takes each of the three types up to 2 MiB exactly and refuses the rest', async () => {
    // The accepted types and the limit are set when the module loads: load it again to check them.
    vi.resetModules();
    const fresh = await import('./profile-form');
    const twoMiB = 2_097_152;
    for (const type of ['image/png', 'image/jpeg', 'image/webp']) {
      expect(fresh.checkAvatar(file(type, twoMiB)), type).toBeNull();
      expect(fresh.checkAvatar(file(type, twoMiB + 1)), type).toBe('validation.avatarSize');
    }
    for (const type of ['', 'image/gif', 'image/svg+xml']) {
      expect(fresh.checkAvatar(file(type, 10)), type).toBe('validation.avatarType');
    }
  });
});

describe('toInput', () => {
  const values: Record<ProfileField, string> = {
    displayName: '  Ada  ',
    username: ' ada_1 ',
    email: ' ada@example.org ',
    bio: '  keeps its spaces ',
    language: 'es',
    interests: 'maths, , poetry ',
  };

  it('trims names and email, parses interests and keeps a known language', () => {
    expect(toInput(values)).toEqual({
      displayName: 'Ada',
      username: 'ada_1',
      email: 'ada@example.org',
      bio: '  keeps its spaces ',
      language: 'es',
      interests: ['maths', 'poetry'],
    });
  });

  it('leaves out a language that is not one of the app', () => {
    expect(toInput({ ...values, language: 'zh-TW' })).not.toHaveProperty('language');
  });

  it('round-trips a stored profile through the form values', () => {
    expect(toInput(valuesOf(PROFILE))).toEqual({
      displayName: 'Grace Hopper',
      username: 'grace',
      email: 'grace@example.org',
      bio: 'COBOL',
      language: 'de',
      interests: ['compilers', 'navy'],
    });
  });
});

describe('valuesOf', () => {
  it('shows a profile without a bio or a language as an empty bio in English', () => {
    const { bio: _bio, language: _language, ...bare } = PROFILE;
    expect(valuesOf(bare)).toMatchObject({ bio: '', language: 'en' });
  });
});

describe('the profile form rules', () => {
  it('checks display name, username pattern, email, bio and interests', () => {
    const form = createProfileForm(null);
    expect(form.errors.value).toMatchObject({
      displayName: { key: 'validation.required' },
      username: { key: 'validation.required' },
      email: { key: 'validation.required' },
    });
    form.setValue('displayName', 'A');
    form.setValue('username', 'Ada!');
    form.setValue('email', 'nope');
    form.setValue('bio', 'x'.repeat(281));
    form.setValue('interests', Array.from({ length: 11 }, (_, i) => `t${i}`).join(','));
    expect(form.errors.value).toEqual({
      displayName: { key: 'validation.minLength', params: { min: 2 } },
      username: { key: 'validation.username' },
      email: { key: 'validation.email' },
      bio: { key: 'validation.maxLength', params: { max: 280 } },
      interests: { key: 'validation.interests' },
    });
    form.setValue('displayName', 'Ada');
    form.setValue('username', 'ada_99');
    form.setValue('email', 'ada@example.org');
    form.setValue('bio', 'x'.repeat(280));
    form.setValue('interests', 'a, b');
    expect(form.valid.value).toBe(true);
    form.dispose();
  });

  it('username must be 3 to 20 of a-z, 0-9 and _ in full', () => {
    const form = createProfileForm(null);
    for (const [value, ok] of [
      ['ab', false],
      ['abc', true],
      ['a'.repeat(20), true],
      ['a'.repeat(21), false],
      ['ABC', false],
      ['abc def', false],
      ['abc-def', false],
    ] as const) {
      form.setValue('username', value);
      expect(form.errors.value.username === undefined, value).toBe(ok);
    }
    form.dispose();
  });

  it('accepts exactly 10 interests, and one of exactly 24 characters', () => {
    const form = createProfileForm(null);
    form.setValue('interests', Array.from({ length: 10 }, (_, i) => `t${i}`).join(','));
    expect(form.errors.value.interests).toBeUndefined();
    form.setValue('interests', `ok, ${'x'.repeat(24)}`);
    expect(form.errors.value.interests).toBeUndefined();
    form.dispose();
  });

  it('rejects an interest longer than 24 characters', () => {
    const form = createProfileForm(null);
    form.setValue('interests', `ok, ${'x'.repeat(25)}`);
    expect(form.errors.value.interests).toEqual({ key: 'validation.interests' });
    form.dispose();
  });

  it("a new profile's preferred language starts as the one on screen; an existing profile keeps its own", () => {
    const fresh = createProfileForm(null, 'zh-Hans');
    expect(fresh.values.value.language).toBe('zh-Hans');
    expect(toInput(fresh.values.value).language).toBe('zh-Hans');
    fresh.dispose();
    const defaults = createProfileForm(null);
    expect(defaults.values.value.language).toBe('en');
    defaults.dispose();
    const existing = createProfileForm({ ...PROFILE, language: 'de' }, 'fr');
    expect(existing.values.value.language).toBe('de');
    existing.dispose();
  });

  it('edits an existing profile under its own draft key', () => {
    expect(draftKey(null)).toBe('draft.profile.new');
    expect(draftKey('p-9')).toBe('draft.profile.p-9');
    const form = createProfileForm(PROFILE);
    expect(form.values.value).toEqual(valuesOf(PROFILE));
    form.setValue('bio', 'Admiral');
    expect(JSON.parse(localStorage.getItem('draft.profile.p-9')!)).toMatchObject({ bio: 'Admiral' });
    expect(localStorage.getItem('draft.profile.new')).toBeNull();
    form.dispose();
  });
});
