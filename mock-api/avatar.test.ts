// @vitest-environment node
/**
 * The avatar's rules come from openapi.yaml; what is judged here is how the mock applies them: a
 * file is recognised by its first bytes whatever it claims, and a stored avatar that breaks a rule
 * is refused with a message naming the rule.
 */
import { describe, expect, it } from 'vitest';
import { type Avatar, avatarRules, avatarRulesOf, avatarSchema, describeTypes, imageName, isImageOf, SIGNATURES } from './avatar.ts';
import { type MediaSpec, OpenApiSpec, SpecError } from '../openapi-kit/index.ts';
import { loadSpec } from '../openapi-kit/node.ts';

const bytes = (...values: Array<number | string>): Uint8Array =>
  Uint8Array.from(values.flatMap((v) => (typeof v === 'number' ? [v] : Array.from(v, (c) => c.charCodeAt(0)))));

const PNG = bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0);
const WEBP = bytes('RIFF', 0, 0, 0, 0, 'WEBP');

const form = (fileTypes: Record<string, string[]>, maxFileBytes: Record<string, number>): MediaSpec => ({
  media: 'multipart/form-data',
  schema: {},
  pointer: '/x',
  fileFields: Object.keys(fileTypes),
  fileTypes,
  maxFileBytes,
});

describe('avatarRulesOf', () => {
  it("reads the avatar field's types and size", () => {
    expect(avatarRulesOf(form({ avatar: ['image/png'] }, { avatar: 10 }), 'op')).toEqual({ types: ['image/png'], maxBytes: 10 });
    expect(avatarRules(new OpenApiSpec(loadSpec()))).toEqual({
      types: ['image/png', 'image/jpeg', 'image/webp'],
      maxBytes: 2 * 1024 * 1024,
    });
  });

  it('refuses a document whose createProfile takes no body, naming createProfile', () => {
    const doc = structuredClone(loadSpec()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    delete doc.paths['/user/profile']!.post!.requestBody;
    const read = () => avatarRules(new OpenApiSpec(doc));
    expect(read).toThrow(SpecError);
    expect(read).toThrow('createProfile has no multipart avatar field with its types and maxLength');
  });

  it.each([
    ['no form at all', undefined],
    ['no avatar field', form({}, {})],
    ['an avatar field that accepts no type', form({ avatar: [] }, { avatar: 10 })],
    ['an avatar field without maxLength', form({ avatar: ['image/png'] }, {})],
  ])('refuses a document with %s, naming the operation', (_, media) => {
    const read = () => avatarRulesOf(media, 'updateProfile');
    expect(read).toThrow(SpecError);
    expect(read).toThrow('updateProfile has no multipart avatar field with its types and maxLength');
  });
});

describe('recognising an image by its first bytes', () => {
  it('knows PNG, JPEG and WebP by their signatures', () => {
    expect(isImageOf('image/png', PNG)).toBe(true);
    expect(isImageOf('image/jpeg', JPEG)).toBe(true);
    expect(isImageOf('image/webp', WEBP)).toBe(true);
    expect(SIGNATURES['image/webp']!.test(bytes('RIFF', 1, 2, 3, 4, 'WEBPVP8 '))).toBe(true);
  });

  it('a PNG needs both its first byte and the letters PNG', () => {
    expect(isImageOf('image/png', bytes(0x88, 'PNG'))).toBe(false);
    expect(isImageOf('image/png', bytes(0x89, 'PNB'))).toBe(false);
    expect(isImageOf('image/png', bytes('GIF89a'))).toBe(false);
  });

  it('a JPEG needs all three of FF D8 FF', () => {
    expect(isImageOf('image/jpeg', bytes(0x00, 0xd8, 0xff))).toBe(false);
    expect(isImageOf('image/jpeg', bytes(0xff, 0x00, 0xff))).toBe(false);
    expect(isImageOf('image/jpeg', bytes(0xff, 0xd8, 0x00))).toBe(false);
    expect(isImageOf('image/jpeg', bytes(0x00, 0x00, 0xff))).toBe(false);
    expect(isImageOf('image/jpeg', bytes(0xff, 0x00, 0x00))).toBe(false);
  });

  it('a WebP needs RIFF, then WEBP at byte 8, in twelve bytes at least', () => {
    expect(isImageOf('image/webp', bytes('RIFX', 0, 0, 0, 0, 'WEBP'))).toBe(false);
    expect(isImageOf('image/webp', bytes('RIFF', 0, 0, 0, 0, 'WAVE'))).toBe(false);
    expect(isImageOf('image/webp', bytes('XXXX', 0, 0, 0, 0, 'WEBP'))).toBe(false);
    expect(isImageOf('image/webp', bytes('RIFF', 0, 0, 0, 0, 'WEB'))).toBe(false);
    expect(isImageOf('image/webp', PNG)).toBe(false);
  });

  it('an image type without a known signature is never recognised', () => {
    expect(isImageOf('image/gif', bytes('GIF89a'))).toBe(false);
    expect(isImageOf('image/gif', PNG)).toBe(false);
  });

  it('names each type as a person would', () => {
    expect(imageName('image/png')).toBe('PNG');
    expect(imageName('image/webp')).toBe('WebP');
    expect(imageName('image/gif')).toBe('GIF');
    expect(imageName('image/svg+xml')).toBe('SVG+XML');
    expect(imageName('bitmap')).toBe('BITMAP');
  });

  it('lists the types in one phrase', () => {
    expect(describeTypes(['image/png', 'image/jpeg', 'image/webp'])).toBe('a PNG, JPEG or WebP image');
    expect(describeTypes(['image/png', 'image/gif'])).toBe('a PNG or GIF image');
    expect(describeTypes(['image/jpeg'])).toBe('a JPEG image');
    expect(describeTypes([])).toBe('a  image');
  });
});

describe('avatarSchema', () => {
  // Made within each test, where a change to how it is made is seen (made as the file is collected, it would count as no test's).
  const schema = () => avatarSchema({ types: ['image/png', 'image/jpeg'], maxBytes: 8 });
  const valid: Avatar = { id: 'p-1', type: 'image/png', bytes: PNG, version: 1 };
  const verdict = (value: unknown) => schema()['~standard'].validate(value);

  it('accepts a stored avatar that honours the rules, as is', () => {
    expect(verdict(valid)).toEqual({ value: valid });
    expect(verdict({ ...valid, type: 'image/jpeg', bytes: JPEG, version: 7 })).toEqual({
      value: { ...valid, type: 'image/jpeg', bytes: JPEG, version: 7 },
    });
    expect(schema()['~standard']).toMatchObject({ version: 1, vendor: 'circle-mock' });
  });

  it.each<[string, unknown, string]>([
    ['null', null, 'an avatar must be an object'],
    ['a string', 'avatar', 'an avatar must be an object'],
    ['no id', { ...valid, id: undefined }, 'avatar.id must be the profile id'],
    ['a numeric id', { ...valid, id: 1 }, 'avatar.id must be the profile id'],
    ['an empty id', { ...valid, id: '' }, 'avatar.id must be the profile id'],
    ['a type the rules do not list', { ...valid, type: 'image/webp', bytes: WEBP }, 'avatar.type must be one of image/png, image/jpeg'],
    ['no type', { ...valid, type: undefined }, 'avatar.type must be one of image/png, image/jpeg'],
    ['bytes as an array', { ...valid, bytes: Array.from(PNG) }, 'avatar.bytes must be bytes'],
    ['too many bytes', { ...valid, bytes: bytes(0x89, 'PNG', 0, 0, 0, 0, 0) }, 'the avatar has 9 bytes, more than 8'],
    ['content of another type', { ...valid, bytes: JPEG }, "the avatar's content is not a PNG image"],
    ['no version', { ...valid, version: undefined }, 'avatar.version must be a positive integer'],
    ['version 0', { ...valid, version: 0 }, 'avatar.version must be a positive integer'],
    ['a fractional version', { ...valid, version: 1.5 }, 'avatar.version must be a positive integer'],
    ['a version as text', { ...valid, version: '2' }, 'avatar.version must be a positive integer'],
  ])('refuses %s', (_, value, message) => {
    expect(verdict(value)).toEqual({ issues: [{ message }] });
  });

  it('accepts an avatar of exactly the largest size', () => {
    const exact = { ...valid, bytes: bytes(0x89, 'PNG', 0, 0, 0, 0) };
    expect(verdict(exact)).toEqual({ value: exact });
  });
});
