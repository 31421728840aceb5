/**
 * The members' profiles and their avatars. Every rule comes from openapi.yaml: the fields each
 * form accepts and their lengths and patterns (its schemas), the body sizes (`x-max-body-bytes`),
 * the avatar's types (the form's `encoding`) and size (`maxLength`). Every operation here is
 * secured: the router has read the caller's identity (else answered 401), and a profile is its
 * owner's, the subject that created it.
 *
 * | method | path                          | answer                                                        |
 * |--------|-------------------------------|---------------------------------------------------------------|
 * | GET    | /user/profile/myprofile       | 200 the caller's profile + ETag; 204 while they have none     |
 * | POST   | /user/profile                 | 201 + Location + ETag; 409 when the caller has one            |
 * | PATCH  | /user/profile/{id}            | 200 + ETag, the fields sent changed; 428 / 412 (If-Match)     |
 * | DELETE | /user/profile/{id}            | 204, the avatar goes with it; 428 / 412 (If-Match)            |
 * | GET    | /user/profile/{id}/avatar     | 200 the image as uploaded; 404 without one                    |
 *
 * Another member's profile answers 403 to PATCH, DELETE and the avatar; an unknown id 404.
 * The order of the checks: credentials (401), an Idempotency-Key replay, the id (404, 403), the
 * precondition (428, 412), then the body (400, 413, 415, 422): a precondition is judged before
 * the content is processed (RFC 9110 13.2.1), and a replay before it, since the tag the replayed
 * save carried was current when it was first sent.
 *
 * A create or update that repeats an earlier one's Idempotency-Key (the same member's) answers that
 * earlier answer again, its ETag included, while the profile it made still exists, and changes nothing.
 * The same key with another body, or on another operation or profile, answers 422.
 */
import type { HttpHandler } from 'msw';
import type { components } from '../../src/index.ts';
import { avatarRulesOf, describeTypes, isImageOf, type AvatarRules } from '../avatar.ts';
import { formatBytes, mediaType, readForm, readJson } from '../body.ts';
import type { Identity } from '../auth.ts';
import { etagOf, type Profile } from '../db.ts';
import { httpError } from '../errors.ts';
import { follow, isRecord, SpecError, type MediaSpec, type OperationSpec } from '../../openapi-kit/index.ts';
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
  /** Whether the JSON shape of the fields must be complete (the create, a POST) or may be any subset (the update). */
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
    complete: operation.method === 'POST',
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

/** A save's answer as first given: what a repeat of its Idempotency-Key answers again. */
interface Saved {
  profile: Profile;
  etag: string;
}

/** A save made with an Idempotency-Key: what it was (operation and body) and what it answered. */
interface KeyedSave {
  /** `POST`, or `PATCH <id>`: a key is one save, of one profile. */
  target: string;
  body: string;
  answer: Saved;
}

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');
const digest = async (bytes: BufferSource) => hex(await crypto.subtle.digest('SHA-256', bytes));

/** JSON with its keys in order: the same value, whatever order its fields were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * What a save sent, as the server reads it: the same save sent again (a queued save replayed with
 * a new multipart boundary, JSON written in another order) reads the same; another body does not.
 */
async function bodyPrint(request: Request): Promise<string> {
  const copy = request.clone();
  const type = mediaType(request);
  if (type === 'multipart/form-data') {
    try {
      const parts: string[] = [];
      for (const [name, value] of await copy.formData()) {
        parts.push(typeof value === 'string' ? `${name}=${value}` : `${name}:${value.type}:${await digest(await value.arrayBuffer())}`);
      }
      return `form ${canonicalJson(parts)}`;
    } catch {
      // Not readable as a form: compared as bytes (a fresh copy, this one may be partly read).
      return `bytes ${await digest(await request.clone().arrayBuffer())}`;
    }
  }
  const bytes = await copy.arrayBuffer();
  if (type === 'application/json') {
    try {
      return `json ${canonicalJson(JSON.parse(new TextDecoder().decode(bytes)))}`;
    } catch {
      // Not JSON: compared as bytes, below.
    }
  }
  return `${type} ${await digest(bytes)}`;
}

/**
 * Whether an If-Match value lets a change of the profile whose current tag is `current` through:
 * `*`, or a list of entity tags one of which is `current`, compared strongly (a weak `W/` tag
 * never matches, RFC 9110 13.1.1). Anything else, malformed values included, does not.
 */
export function ifMatchAllows(value: string, current: string): boolean {
  if (value.trim() === '*') return true;
  // Stryker disable next-line ArrayDeclaration: a value with no quoted tag matches nothing either way, as no other string equals a quoted ETag
  return (value.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag === current);
}

export function profileHandlers({ route, db, contract, basePath }: MockContext): HttpHandler[] {
  const { check, checkAt } = contract;
  const createRules = bodyRules(contract.spec.byId('createProfile'), contract.spec.doc);
  const updateRules = bodyRules(contract.spec.byId('updateProfile'), contract.spec.doc);

  const avatarUrl = (id: string, version: number) => `${basePath}/user/profile/${id}/avatar?v=${version}`;
  const plain = (profile: Profile): Profile => ({ ...profile });
  const subjectOf = (identity: Identity | null): string => {
    // The router authenticates every secured operation before its resolver runs.
    if (!identity) throw new Error('A profile operation ran without an identity: is it secured in openapi.yaml?');
    return identity.subject;
  };
  // Stryker disable next-line OptionalChaining: a tag is only made for a profile with an owner (the caller's own, or one just created)
  const etag = (id: string) => etagOf(id, db.owners.get(id)?.version ?? 1);
  /** The caller's own profile of this id: 404 when there is none, 403 when it is another member's. */
  const ownProfile = (id: string, subject: string) => {
    const profile = db.profiles.findFirst((q) => q.where({ id }));
    if (!profile) throw httpError(404, `Profile '${id}' not found`);
    if (db.owners.get(id)?.owner !== subject) throw httpError(403, `Profile '${id}' belongs to another member`);
    return profile;
  };
  /** A change goes on only with If-Match naming the profile's current ETag (or `*`). */
  const precondition = (request: Request, id: string) => {
    const value = request.headers.get('if-match');
    if (value === null) throw httpError(428, "Send If-Match with the profile's ETag (from its last read) to change it");
    const current = etag(id);
    if (!ifMatchAllows(value, current)) {
      throw httpError(
        412,
        `The profile changed since it was read (its ETag is now ${current}): read it again, then send its current ETag`,
        {
          etag: current,
        },
      );
    }
  };

  // "<subject> <Idempotency-Key>" → that save. Per member: another member's key, even the same
  // string, is another save.
  const saves = new Map<string, KeyedSave>();
  /** The save this request makes, when it carries an Idempotency-Key: its key, target and body. */
  const keyedSave = async (request: Request, subject: string, target: string) => {
    const key = request.headers.get('idempotency-key');
    if (key === null) return null;
    if (!/^[\x21-\x7E]{1,128}$/.test(key)) throw httpError(400, 'header Idempotency-Key must be 1 to 128 visible ASCII characters');
    return { key: `${subject} ${key}`, target, body: await bodyPrint(request) };
  };
  /**
   * The answer given earlier for this key, while the profile it answered still exists; a key
   * already used for another save (another body, operation or profile) is refused with 422, as
   * the IETF Idempotency-Key draft asks: answering the first save again would drop this one unseen.
   */
  const replay = (save: { key: string; target: string; body: string } | null): Saved | null => {
    const earlier = save === null ? undefined : saves.get(save.key);
    if (!save || !earlier) return null;
    if (earlier.target !== save.target || earlier.body !== save.body) {
      throw httpError(422, 'This Idempotency-Key was already used for another save: send a fresh key with a new save');
    }
    const { answer } = earlier;
    return db.profiles.findFirst((q) => q.where({ id: answer.profile.id })) ? { ...answer, profile: plain(answer.profile) } : null;
  };
  const remember = (save: { key: string; target: string; body: string } | null, answer: Saved) => {
    if (save) saves.set(save.key, { target: save.target, body: save.body, answer });
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
    route('get', '/user/profile/myprofile', ({ identity }) => {
      const profile = db.profileOf(subjectOf(identity));
      return profile ? { status: 200, body: plain(profile), headers: { etag: etag(profile.id) } } : { status: 204 };
    }),

    route('post', '/user/profile', async ({ request, identity }) => {
      const subject = subjectOf(identity);
      const save = await keyedSave(request, subject, 'POST');
      const again = replay(save);
      if (again) {
        const { profile, etag } = again;
        return { status: 201, body: profile, headers: { location: `${basePath}/user/profile/${profile.id}`, etag } };
      }
      const { fields, image } = await readBody(request, createRules);
      if (db.profileOf(subject)) throw httpError(409, 'A profile already exists: update it instead');
      const id = crypto.randomUUID();
      const now = new Date().toISOString();
      const profile = await db.profiles.create(
        valid({ interests: [], ...fields, id, avatar: image ? avatarUrl(id, 1) : null, createdAt: now, updatedAt: now } as Profile),
      );
      db.owners.set(id, { owner: subject, version: 1 });
      if (image) await db.avatars.create({ id, ...image, version: 1 });
      const answer = { profile: plain(profile), etag: etag(id) };
      remember(save, answer);
      return { status: 201, body: plain(profile), headers: { location: `${basePath}/user/profile/${id}`, etag: answer.etag } };
    }),

    route('patch', '/user/profile/{id}', async ({ request, identity, params: { id } }) => {
      const subject = subjectOf(identity);
      const save = await keyedSave(request, subject, `PATCH ${id}`);
      const again = replay(save);
      if (again) return { status: 200, body: again.profile, headers: { etag: again.etag } };
      const current = ownProfile(id, subject);
      precondition(request, id);
      const { fields, image } = await readBody(request, updateRules);
      if (Object.keys(fields).length === 0 && !image) throw httpError(400, 'body has no field to change');
      const previous = db.avatars.findFirst((q) => q.where({ id }));
      const version = (previous?.version ?? 0) + 1;
      const next = valid({ ...plain(current), ...fields, updatedAt: new Date().toISOString() } as Profile);
      if (image) next.avatar = avatarUrl(id, version);
      const profile = await db.profiles.update(current, {
        data(draft) {
          Object.assign(draft, next);
        },
      });
      const meta = db.owners.get(id)!;
      db.owners.set(id, { ...meta, version: meta.version + 1 });
      if (image) {
        if (previous) db.avatars.delete(previous);
        await db.avatars.create({ id, ...image, version });
      }
      // Stryker disable next-line LogicalOperator: the update returns the stored profile, which holds exactly the fields of next, so either answers the same JSON
      const answer = { profile: plain(profile ?? next), etag: etag(id) };
      remember(save, answer);
      return { status: 200, body: answer.profile, headers: { etag: answer.etag } };
    }),

    route('delete', '/user/profile/{id}', ({ request, identity, params: { id } }) => {
      const profile = ownProfile(id, subjectOf(identity));
      precondition(request, id);
      db.profiles.delete(profile);
      db.avatars.deleteMany((q) => q.where({ id }));
      db.owners.delete(id);
      return { status: 204 };
    }),

    route('get', '/user/profile/{id}/avatar', ({ identity, params: { id } }) => {
      ownProfile(id, subjectOf(identity));
      const avatar = db.avatars.findFirst((q) => q.where({ id }));
      if (!avatar) throw httpError(404, `Profile '${id}' has no avatar`);
      // A member's image: kept by no cache, shared or private (its URL changes with each upload anyway).
      return { status: 200, bytes: avatar.bytes, type: avatar.type as ImageType, headers: { 'cache-control': 'no-store' } };
    }),
  ];
}
