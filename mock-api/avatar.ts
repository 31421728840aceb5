/**
 * The profile's avatar. Its rules (the image types accepted, the largest size) are openapi.yaml's:
 * the `encoding` and `maxLength` of the avatar field of each profile form. What the document cannot
 * say is how to recognise each type by its first bytes; that table is here, and limits.test.ts
 * checks it covers every type the document accepts.
 */
import type { StandardSchema } from './contract.ts';
import { SpecError, type MediaSpec, type OpenApiSpec } from '../openapi-kit/index.ts';

export interface AvatarRules {
  /** Media types accepted, lower case, as the form's `encoding` lists them. */
  types: string[];
  maxBytes: number;
}

/** The avatar rules of one profile form (createProfile's or updateProfile's multipart body). */
export function avatarRulesOf(form: MediaSpec | undefined, where: string): AvatarRules {
  const types = form?.fileTypes.avatar;
  const maxBytes = form?.maxFileBytes.avatar;
  if (!types || types.length === 0 || maxBytes === undefined) {
    throw new SpecError(`${where} has no multipart avatar field with its types and maxLength`);
  }
  return { types, maxBytes };
}

/** The rules of a stored avatar: those of the form that creates the profile. */
export const avatarRules = (spec: OpenApiSpec): AvatarRules =>
  avatarRulesOf(spec.byId('createProfile').body?.content['multipart/form-data'], 'createProfile');

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** How each image type begins, whatever a file's name or declared type claims. */
export const SIGNATURES: Readonly<Record<string, { name: string; test(bytes: Uint8Array): boolean }>> = {
  'image/png': { name: 'PNG', test: (b) => b[0] === 0x89 && ascii(b, 1, 4) === 'PNG' },
  'image/jpeg': { name: 'JPEG', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  'image/webp': { name: 'WebP', test: (b) => ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP' },
};

export const imageName = (type: string): string => SIGNATURES[type]?.name ?? type.slice(type.indexOf('/') + 1).toUpperCase();

/** Whether the bytes are an image of this type. */
export const isImageOf = (type: string, bytes: Uint8Array): boolean => SIGNATURES[type]?.test(bytes) ?? false;

/** 'a PNG, JPEG or WebP image' */
export function describeTypes(types: readonly string[]): string {
  const names = types.map(imageName);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
  return `a ${list} image`;
}

/** The profile's avatar image as uploaded; `version` makes the URL of each new upload a new one. */
export interface Avatar {
  /** The profile's id. */
  id: string;
  type: string;
  bytes: Uint8Array;
  version: number;
}

/** A Standard Schema of a stored avatar, from the document's rules. */
export function avatarSchema(rules: AvatarRules): StandardSchema<Avatar> {
  const problem = (value: unknown): string | null => {
    if (typeof value !== 'object' || value === null) return 'an avatar must be an object';
    const { id, type, bytes, version } = value as Partial<Avatar>;
    if (typeof id !== 'string' || id === '') return 'avatar.id must be the profile id';
    if (typeof type !== 'string' || !rules.types.includes(type)) return `avatar.type must be one of ${rules.types.join(', ')}`;
    if (!(bytes instanceof Uint8Array)) return 'avatar.bytes must be bytes';
    if (bytes.length > rules.maxBytes) return `the avatar has ${bytes.length} bytes, more than ${rules.maxBytes}`;
    if (!isImageOf(type, bytes)) return `the avatar's content is not ${describeTypes([type])}`;
    if (!Number.isSafeInteger(version) || (version ?? 0) < 1) return 'avatar.version must be a positive integer';
    return null;
  };
  return {
    '~standard': {
      version: 1,
      vendor: 'circle-mock',
      validate(value) {
        const message = problem(value);
        return message === null ? { value: value as Avatar } : { issues: [{ message }] };
      },
    },
  };
}
