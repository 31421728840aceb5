import { createFormState, type FormState } from '../ui/form/form-state';
import { draftKey } from './draft';
import { Validators, type Validator } from '../ui/form/validators';
import type { Profile, ProfileInput } from './requests';
import { isLanguage, type Language } from '../config/languages';

export type ProfileField = 'displayName' | 'username' | 'email' | 'bio' | 'language' | 'interests';

/**
 * Tags from the comma-separated text, trimmed, empty ones dropped. Chinese keyboards type the
 * full-width comma (，) or the enumeration comma (、): both separate tags too.
 */
export function parseInterests(text: string): string[] {
  return text
    .split(/[,，、]/)
    .map((tag) => tag.trim())
    .filter(Boolean);
}

const interestsRule: Validator = (value) => {
  const tags = parseInterests(value);
  return tags.length > 10 || tags.some((tag) => [...tag].length > 24) ? { key: 'validation.interests' } : null;
};

/** The product's rules for a profile, the same as openapi.yaml's Profile schema. */
export const PROFILE_FIELDS = [
  { name: 'displayName', rules: [Validators.required(), Validators.minLength(2), Validators.maxLength(50)] },
  { name: 'username', rules: [Validators.required(), Validators.pattern(/[a-z0-9_]{3,20}/, 'validation.username')] },
  { name: 'email', rules: [Validators.required(), Validators.email(), Validators.maxLength(254)] },
  { name: 'bio', rules: [Validators.maxLength(280)] },
  { name: 'language', initial: 'en', rules: [] },
  { name: 'interests', rules: [interestsRule] },
] as const satisfies ReadonlyArray<{ name: ProfileField; rules: readonly Validator[]; initial?: string }>;

const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export function checkAvatar(file: File | null): 'validation.avatarType' | 'validation.avatarSize' | null {
  if (!file) return null;
  if (!AVATAR_TYPES.includes(file.type)) return 'validation.avatarType';
  if (file.size > AVATAR_MAX_BYTES) return 'validation.avatarSize';
  return null;
}

/** How each accepted type's content begins (null: any byte): PNG's signature, JPEG's SOI marker, WebP's RIFF header. */
const SIGNATURES: Record<string, ReadonlyArray<number | null>> = {
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
  'image/webp': [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50],
};

/**
 * Whether the file's content is the image its type says: a text file renamed `.png` has the type
 * but not the bytes, and the server would refuse it (422) only after the upload. Read from its
 * first bytes, so a file of any size is checked at once.
 */
export async function checkAvatarContent(file: File): Promise<'validation.avatarContent' | null> {
  const signature = SIGNATURES[file.type];
  if (!signature) return null;
  const head = new Uint8Array(await file.slice(0, signature.length).arrayBuffer());
  const matches = head.length === signature.length && signature.every((byte, i) => byte === null || head[i] === byte);
  return matches ? null : 'validation.avatarContent';
}

export function valuesOf(profile: Profile): Record<ProfileField, string> {
  return {
    displayName: profile.displayName,
    username: profile.username,
    email: profile.email,
    bio: profile.bio ?? '',
    language: profile.language ?? 'en',
    interests: profile.interests.join(', '),
  };
}

export function toInput(values: Record<ProfileField, string>): ProfileInput {
  const input: ProfileInput = {
    displayName: values.displayName.trim(),
    username: values.username.trim(),
    email: values.email.trim(),
    bio: values.bio,
    interests: parseInterests(values.interests),
  };
  if (isLanguage(values.language)) input.language = values.language;
  return input;
}

/** Who the identity provider says the member is: a new profile starts from it. */
export interface Identity {
  name: string;
  email: string | null;
}

/**
 * The form for `profile`, or for a new one, whose preferred language starts as `language` (the one
 * on screen) and whose name and e-mail start as the provider gave them.
 */
export function createProfileForm(
  profile: Profile | null,
  language: Language = 'en',
  identity: Identity | null = null,
): FormState<ProfileField> {
  return createFormState<ProfileField>(PROFILE_FIELDS, {
    draftKey: draftKey(profile?.id ?? null),
    initial: profile ? valuesOf(profile) : { language, displayName: identity?.name ?? '', email: identity?.email ?? '' },
  });
}
