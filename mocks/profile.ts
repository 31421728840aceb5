import type { Contract } from './contract.ts';
import { HttpError, json } from './errors.ts';
import { MAX_AVATAR_BYTES, mediaType, readForm, readJson } from './body.ts';

/** The one member's profile, kept as the contract's Profile plus its avatar bytes. */
type Profile = Record<string, unknown> & { id: string };
interface Avatar {
  bytes: Uint8Array;
  type: string;
}

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
const FORM_FIELDS = ['displayName', 'username', 'email', 'bio', 'language', 'interests', 'avatar'];

/** What the first bytes of a file say it is, whatever its name or declared type claims. */
function sniffImage(bytes: Uint8Array): string | null {
  const at = (i: number) => bytes[i] ?? -1;
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return 'image/png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return null;
}

async function readAvatar(value: FormDataEntryValue | null): Promise<Avatar | undefined> {
  if (value === null) return undefined;
  if (typeof value === 'string') throw new HttpError(400, 'body.avatar must be a file, not text');
  if (value.size === 0) return undefined;
  const declared = value.type.toLowerCase();
  if (!(AVATAR_TYPES as readonly string[]).includes(declared)) {
    throw new HttpError(415, 'The avatar must be a PNG, JPEG or WebP image');
  }
  if (value.size > MAX_AVATAR_BYTES) throw new HttpError(413, 'The avatar must be at most 2 MB');
  const bytes = new Uint8Array(await value.arrayBuffer());
  if (sniffImage(bytes) !== declared) {
    throw new HttpError(422, `The avatar's content is not a ${declared.slice(6).toUpperCase()} image`);
  }
  return { bytes, type: declared };
}

/** Reads a create or update body in either media type into the contract's JSON shape. */
async function readProfileBody(
  request: Request,
  contract: Contract,
  schemas: { json: string; form: string },
): Promise<{ fields: Record<string, unknown>; avatar?: Avatar }> {
  const type = mediaType(request);
  if (type === 'application/json') {
    const body = await readJson(request);
    const problem = contract.check(schemas.json, body);
    if (problem) throw new HttpError(400, problem);
    return { fields: body as Record<string, unknown> };
  }
  if (type !== 'multipart/form-data') {
    throw new HttpError(415, 'The body must be multipart/form-data or JSON');
  }
  const form = await readForm(request);
  const text: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [key, value] of form) {
    if (!FORM_FIELDS.includes(key)) throw new HttpError(400, `body has an unknown field '${key}'`);
    // Every field holds one value: a repeated one is ambiguous, not "the last one wins".
    if (seen.has(key)) throw new HttpError(400, `body.${key} is given more than once`);
    seen.add(key);
    if (key !== 'avatar') {
      if (typeof value !== 'string') throw new HttpError(400, `body.${key} must be text`);
      text[key] = value;
    }
  }
  const problem = contract.check(schemas.form, text);
  if (problem) throw new HttpError(400, problem);
  const fields: Record<string, unknown> = { ...text };
  if (text.interests !== undefined) {
    fields.interests = text.interests
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  }
  const avatar = await readAvatar(form.get('avatar'));
  // An update may carry only an avatar; otherwise the fields must read as the JSON schema does.
  if (Object.keys(fields).length > 0 || schemas.json === 'ProfileInput') {
    const asJson = contract.check(schemas.json, fields);
    if (asJson) throw new HttpError(400, asJson);
  }
  if (avatar === undefined) return { fields };
  return { fields, avatar };
}

export interface ProfileStore {
  handle(request: Request, rest: string[], base: string): Promise<Response> | Response;
  reset(): void;
}

export function createProfileStore(contract: Contract): ProfileStore {
  let profile: Profile | undefined;
  let avatar: Avatar | undefined;
  let version = 0;

  const avatarUrl = (base: string, id: string) => `${base}/user/profile/${id}/avatar?v=${version}`;
  const mustBe = (id: string) => {
    if (!profile || profile.id !== id) throw new HttpError(404, `Profile '${id}' not found`);
    return profile;
  };
  const store = (next: Profile) => {
    const problem = contract.check('Profile', next);
    // The stored profile must satisfy the contract; a failure here is a bug in this mock.
    if (problem) throw new Error(`Stored profile breaks the contract: ${problem}`);
    profile = next;
    return next;
  };

  async function create(request: Request, base: string): Promise<Response> {
    const { fields, avatar: image } = await readProfileBody(request, contract, { json: 'ProfileInput', form: 'ProfileForm' });
    if (profile) throw new HttpError(409, 'A profile already exists: update it instead');
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    version += 1;
    avatar = image;
    const created = store({
      interests: [],
      ...fields,
      id,
      avatar: image ? avatarUrl(base, id) : null,
      createdAt: now,
      updatedAt: now,
    });
    return json(created, 201, { location: `${base}/user/profile/${id}` });
  }

  async function update(request: Request, id: string, base: string): Promise<Response> {
    const current = mustBe(id);
    const { fields, avatar: image } = await readProfileBody(request, contract, { json: 'ProfilePatch', form: 'ProfilePatchForm' });
    if (Object.keys(fields).length === 0 && !image) throw new HttpError(400, 'body has no field to change');
    const changed: Profile = { ...current, ...fields, updatedAt: new Date().toISOString() };
    if (image) {
      version += 1;
      avatar = image;
      changed.avatar = avatarUrl(base, id);
    }
    return json(store(changed));
  }

  function readAvatarImage(id: string): Response {
    mustBe(id);
    if (!avatar) throw new HttpError(404, `Profile '${id}' has no avatar`);
    return new Response(avatar.bytes.slice().buffer, {
      headers: { 'content-type': avatar.type, 'cache-control': 'no-cache' },
    });
  }

  return {
    reset() {
      profile = undefined;
      avatar = undefined;
    },
    handle(request, rest, base) {
      const [first, second, third] = rest;
      const method = request.method;
      if (rest.length === 1 && first === 'myprofile') {
        if (method !== 'GET') throw new HttpError(405, 'Method not allowed', { allow: 'GET' });
        if (!profile) return new Response(null, { status: 204 });
        return json(profile);
      }
      if (rest.length === 0) {
        if (method !== 'POST') throw new HttpError(405, 'Method not allowed', { allow: 'POST' });
        return create(request, base);
      }
      if (rest.length === 1 && first) {
        if (method === 'PATCH') return update(request, first, base);
        if (method === 'DELETE') {
          mustBe(first);
          profile = undefined;
          avatar = undefined;
          return new Response(null, { status: 204 });
        }
        throw new HttpError(405, 'Method not allowed', { allow: 'PATCH, DELETE' });
      }
      if (rest.length === 2 && first && second === 'avatar' && third === undefined) {
        if (method !== 'GET') throw new HttpError(405, 'Method not allowed', { allow: 'GET' });
        return readAvatarImage(first);
      }
      throw new HttpError(404, `No profile resource at '${rest.join('/')}'`);
    },
  };
}
