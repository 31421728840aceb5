/**
 * The member's profile and its avatar. Every rule comes from openapi.yaml: the fields each form
 * accepts and their lengths and patterns (its schemas), the body sizes (`x-max-body-bytes`), the
 * avatar's types (the form's `encoding`) and size (`maxLength`).
 *
 * | method | path                          | answer                                              |
 * |--------|-------------------------------|-----------------------------------------------------|
 * | GET    | /user/profile/myprofile       | 200 profile; 204 while there is none                |
 * | POST   | /user/profile                 | 201 + Location; 409 when one exists                 |
 * | PATCH  | /user/profile/{id}            | 200 profile with the fields sent changed            |
 * | DELETE | /user/profile/{id}            | 204, the avatar goes with it                        |
 * | GET    | /user/profile/{id}/avatar     | 200 the image as uploaded; 404 without one          |
 *
 * A create or update that repeats an earlier one's Idempotency-Key answers that earlier answer
 * again, while the profile it made still exists, and changes nothing.
 */
import type { HttpHandler } from 'msw';
import type { components } from '../../src/api/schema';
import { avatarRulesOf, describeTypes, isImageOf, type AvatarRules } from '../avatar.ts';
import { formatBytes, mediaType, readForm, readJson } from '../body.ts';
import type { Profile } from '../db.ts';
import { httpError } from '../errors.ts';
import { follow, isRecord, SpecError, type MediaSpec, type OperationSpec } from '../openapi/index.ts';
import type { MockContext } from './context.ts';

type Schemas = components['schemas'];
type Fields = Schemas['ProfileInput'] | Schemas['ProfilePatch'];
/** The media types getProfileAvatar documents; a stored avatar has one of them (its schema checks the type). */
type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';
interface Image {
  type: string;
  bytes: Uint8Array;
}

/** What one operation's body may be, as the document states it. */
interface BodyRules {
  json: MediaSpec;
  form: MediaSpec;
  /** The fields the form schema has (`additionalProperties: false`): any other is refused. */
  formFields: string[];
  avatar: AvatarRules;
  /** Whether the JSON shape of the fields must be complete (create) or may be any subset (update). */
  complete: boolean;
}

function bodyRules(operation: OperationSpec, doc: unknown): BodyRules {
  const json = operation.body?.content['application/json'];
  const form = operation.body?.content['multipart/form-data'];
  if (!json || !form) throw new SpecError(`${operation.id} must accept application/json and multipart/form-data`);
  const schema = follow(doc, form.schema, form.pointer).node;
  return {
    json,
    form,
    formFields: Object.keys(isRecord(schema.properties) ? schema.properties : {}),
    avatar: avatarRulesOf(form, operation.id),
    complete: operation.body?.required === true && operation.method === 'POST',
  };
}

async function readAvatar(value: FormDataEntryValue | null, rules: AvatarRules): Promise<Image | undefined> {
  if (value === null) return undefined;
  if (typeof value === 'string') throw httpError(400, 'body.avatar must be a file, not text');
  if (value.size === 0) return undefined;
  const type = value.type.toLowerCase();
  if (!rules.types.includes(type)) throw httpError(415, `The avatar must be ${describeTypes(rules.types)}`);
  if (value.size > rules.maxBytes) throw httpError(413, `The avatar must be at most ${formatBytes(rules.maxBytes)}`);
  const bytes = new Uint8Array(await value.arrayBuffer());
  if (!isImageOf(type, bytes)) throw httpError(422, `The avatar's content is not ${describeTypes([type])}`);
  return { type, bytes };
}

export function profileHandlers({ route, db, contract, basePath }: MockContext): HttpHandler[] {
  const { check, checkAt } = contract;
  const createRules = bodyRules(contract.spec.byId('createProfile'), contract.spec.doc);
  const updateRules = bodyRules(contract.spec.byId('updateProfile'), contract.spec.doc);

  const avatarUrl = (id: string, version: number) => `${basePath}/user/profile/${id}/avatar?v=${version}`;
  const plain = (profile: Profile): Profile => ({ ...profile });
  const mustBe = (id: string) => {
    const profile = db.profile.findFirst((q) => q.where({ id }));
    if (!profile) throw httpError(404, `Profile '${id}' not found`);
    return profile;
  };

  // Idempotency-Key → the profile a save answered with (its status and headers too).
  const saves = new Map<string, Profile>();
  const keyOf = (request: Request) => {
    const key = request.headers.get('idempotency-key');
    if (key === null) return null;
    if (!/^[\x21-\x7E]{1,128}$/.test(key)) throw httpError(400, 'header Idempotency-Key must be 1 to 128 visible ASCII characters');
    return `${request.method} ${key}`;
  };
  /** The profile answered earlier for this key, while that profile still exists. */
  const replay = (key: string | null): Profile | null => {
    const earlier = key === null ? undefined : saves.get(key);
    return earlier && db.profile.findFirst((q) => q.where({ id: earlier.id })) ? plain(earlier) : null;
  };

  /** A create or update body in either media type, read into the contract's JSON shape. */
  async function readBody(request: Request, rules: BodyRules): Promise<{ fields: Fields; image?: Image }> {
    const type = mediaType(request);
    if (type === 'application/json') {
      const body = await readJson(request, rules.json.maxBodyBytes ?? Number.POSITIVE_INFINITY);
      const problem = checkAt(rules.json.pointer, body, 'body');
      if (problem) throw httpError(400, problem);
      return { fields: body as Fields };
    }
    if (type !== 'multipart/form-data') throw httpError(415, 'The body must be multipart/form-data or JSON');
    const form = await readForm(request, rules.form.maxBodyBytes ?? Number.POSITIVE_INFINITY);
    const text: Record<string, string> = {};
    const seen = new Set<string>();
    for (const [key, value] of form) {
      if (!rules.formFields.includes(key)) throw httpError(400, `body has an unknown field '${key}'`);
      // Every field holds one value: a repeated one is ambiguous, not "the last one wins".
      if (seen.has(key)) throw httpError(400, `body.${key} is given more than once`);
      seen.add(key);
      if (rules.form.fileFields.includes(key)) continue;
      if (typeof value !== 'string') throw httpError(400, `body.${key} must be text`);
      text[key] = value;
    }
    const problem = checkAt(rules.form.pointer, text, 'body');
    if (problem) throw httpError(400, problem);
    const fields: Record<string, unknown> = { ...text };
    if (text.interests !== undefined) {
      fields.interests = text.interests
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
    }
    const image = await readAvatar(form.get('avatar'), rules.avatar);
    // An update may carry only an avatar; otherwise the fields must read as the JSON body does.
    if (Object.keys(fields).length > 0 || rules.complete) {
      const asJson = checkAt(rules.json.pointer, fields, 'body');
      if (asJson) throw httpError(400, asJson);
    }
    return image ? { fields: fields as Fields, image } : { fields: fields as Fields };
  }

  /** The stored profile must satisfy the contract: a failure here is a bug of this mock (500). */
  const valid = (profile: Profile): Profile => {
    const problem = check('Profile', profile);
    if (problem) throw new Error(`The profile would break the contract: ${problem}`);
    return profile;
  };

  return [
    route('get', '/user/profile/myprofile', () => {
      const profile = db.profile.findFirst();
      return profile ? { status: 200, body: plain(profile) } : { status: 204 };
    }),

    route('post', '/user/profile', async ({ request }) => {
      const key = keyOf(request);
      const again = replay(key);
      if (again) return { status: 201, body: again, headers: { location: `${basePath}/user/profile/${again.id}` } };
      const { fields, image } = await readBody(request, createRules);
      if (db.profile.count() > 0) throw httpError(409, 'A profile already exists: update it instead');
      const id = crypto.randomUUID();
      const now = new Date().toISOString();
      const profile = await db.profile.create(
        valid({ interests: [], ...fields, id, avatar: image ? avatarUrl(id, 1) : null, createdAt: now, updatedAt: now } as Profile),
      );
      if (image) await db.avatars.create({ id, ...image, version: 1 });
      if (key !== null) saves.set(key, plain(profile));
      return { status: 201, body: plain(profile), headers: { location: `${basePath}/user/profile/${id}` } };
    }),

    route('patch', '/user/profile/{id}', async ({ request, params: { id } }) => {
      const key = keyOf(request);
      const again = replay(key === null ? null : `${key} ${id}`);
      if (again) return { status: 200, body: again };
      const current = mustBe(id);
      const { fields, image } = await readBody(request, updateRules);
      if (Object.keys(fields).length === 0 && !image) throw httpError(400, 'body has no field to change');
      const previous = db.avatars.findFirst((q) => q.where({ id }));
      const version = (previous?.version ?? 0) + 1;
      const next = valid({ ...plain(current), ...fields, updatedAt: new Date().toISOString() } as Profile);
      if (image) next.avatar = avatarUrl(id, version);
      const profile = await db.profile.update(current, {
        data(draft) {
          Object.assign(draft, next);
        },
      });
      if (image) {
        if (previous) db.avatars.delete(previous);
        await db.avatars.create({ id, ...image, version });
      }
      const answer = plain(profile ?? next);
      if (key !== null) saves.set(`${key} ${id}`, answer);
      return { status: 200, body: answer };
    }),

    route('delete', '/user/profile/{id}', ({ params: { id } }) => {
      db.profile.delete(mustBe(id));
      db.avatars.deleteMany((q) => q.where({ id }));
      return { status: 204 };
    }),

    route('get', '/user/profile/{id}/avatar', ({ params: { id } }) => {
      mustBe(id);
      const avatar = db.avatars.findFirst((q) => q.where({ id }));
      if (!avatar) throw httpError(404, `Profile '${id}' has no avatar`);
      return { status: 200, bytes: avatar.bytes, type: avatar.type as ImageType, headers: { 'cache-control': 'no-cache' } };
    }),
  ];
}
