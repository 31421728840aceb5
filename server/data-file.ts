/**
 * The mock's data as a JSON file: the fixtures given with `--data` and the file `--persist` keeps.
 *
 *   { "accounts": [...], "notifications": [...], "subscription": [...], "symbols": [...],
 *     "profiles": [{ "owner": "ada", "version": 1, "profile": { ...a Profile },
 *                    "avatar": { "type": "image/png", "base64": "iVBORw0…", "version": 1 } | null }],
 *     "inbox": { "translations": { "1": { "fr": { "title": "…", "body": "…" } } },
 *                "untilProfile": ["1"], "readMarks": { "grace": { "2": true } } } }
 *
 * Every key is optional: one left out keeps the seed's records, except the inbox, which describes
 * notifications: a file that gives its own notifications and no inbox has none. Each record must satisfy its
 * schema in openapi.yaml, ids are unique, a collection holds at most its `x-max-records`, a member
 * owns at most one profile; the first problem is a ConfigError of one line naming the file, the
 * record and the schema path. The file of a single member from before accounts ("profile" and
 * "avatar" at the top) still reads: that profile is `ada`'s (OLD_FORMAT_OWNER).
 */
import { Buffer } from 'node:buffer';
import { avatarRules, avatarSchema, type Avatar } from '../mock-api/index.ts';
import type { Contract } from '../mock-api/index.ts';
import {
  COLLECTION_NAMES,
  COLLECTIONS,
  type CollectionName,
  type DataSet,
  type OwnedProfile,
  type Profile,
  type Records,
} from '../mock-api/index.ts';
import { ConfigError, EMPTY_INBOX, type InboxData, type NotificationText } from '../mock-api/index.ts';
import { isRecord, SchemaValidator } from '../openapi-kit/index.ts';

/** Whose the profile of a file in the single-member format is: the first seeded member. */
export const OLD_FORMAT_OWNER = 'ada';

const KEYS = [...COLLECTION_NAMES, 'profiles', 'profile', 'avatar', 'inbox'];
const INBOX_KEYS = ['translations', 'untilProfile', 'readMarks'];
/** A language tag (BCP 47's shape); English is the records' own language, never a translation. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/;

/** Where a record breaks its schema, worded with the place in the document: only computed for a file that fails. */
function schemaProblem(contract: Contract, schema: string, value: unknown): string {
  const detailed = new SchemaValidator(contract.spec.doc, { detailed: true });
  const [p] = detailed.schema(schema, value);
  // Stryker disable next-line ConditionalExpression,StringLiteral: a fallback never taken: the detailed validator finds a problem in every value the contract's check refused (same document, same schema)
  if (!p) return `breaks schema ${schema}`;
  const where = p.instancePath ? p.instancePath.slice(1).replaceAll('/', '.') : 'the record';
  const extra = p.params.additionalProperty ?? p.params.unevaluatedProperty;
  const what = extra === undefined ? `${where} ${p.message}` : `${where} has an unknown field '${String(extra)}'`;
  return `${what} (schema path ${p.schemaPath})`;
}

/** A data file's text read into a DataSet; keys it leaves out keep `base`'s records. */
export function parseDataFile(text: string, contract: Contract, file: string, base: DataSet): DataSet {
  const fail = (problem: string): never => {
    throw new ConfigError(`${file}: ${problem}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    fail(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isRecord(parsed)) return fail('a data file is a JSON object keyed by collection (and profiles)');
  const unknown = Object.keys(parsed).find((key) => !KEYS.includes(key));
  if (unknown !== undefined) fail(`unknown key '${unknown}' (a data file has ${KEYS.join(', ')})`);

  const collection = <N extends CollectionName>(name: N): Records[N][] => {
    const records = parsed[name];
    if (records === undefined) return base.collections[name];
    if (!Array.isArray(records)) return fail(`${name} must be an array of records`);
    const { record: schema } = COLLECTIONS[name]!;
    const seen = new Map<string, number>();
    records.forEach((record: unknown, i) => {
      const id = isRecord(record) && typeof record.id === 'string' ? record.id : undefined;
      const label = `${name}[${i}]${id === undefined ? '' : ` (id '${id}')`}`;
      if (contract.check(schema, record) !== null) fail(`${label}: ${schemaProblem(contract, schema, record)}`);
      const first = seen.get(id!);
      if (first !== undefined) fail(`${label}: the id is already the one of ${name}[${first}]`);
      seen.set(id!, i);
    });
    const limit = contract.spec.collections.find((c) => c.name === name)?.maxRecords;
    if (limit !== undefined && records.length > limit) fail(`${name} has ${records.length} records, more than its x-max-records ${limit}`);
    return records as Records[N][];
  };

  /** A file's avatar entry of the profile `profile` (`where` names it in a refusal). */
  const avatarOf = (raw: unknown, profile: Profile | null, where: string): Avatar | null => {
    if (raw === undefined || raw === null) return null;
    if (!isRecord(raw) || typeof raw.base64 !== 'string')
      return fail(`${where} must be { "type": "image/png", "base64": "…", "version": 1 }`);
    if (!profile) return fail(`${where}: there is no profile for it to belong to`);
    const candidate = {
      id: profile.id,
      type: raw.type,
      bytes: new Uint8Array(Buffer.from(raw.base64, 'base64')),
      version: raw.version ?? 1,
    };
    const checked = avatarSchema(avatarRules(contract.spec))['~standard'].validate(candidate);
    // Stryker disable next-line OptionalChaining: a failed validation always has at least one issue
    if (checked.issues) fail(`${where}: ${checked.issues[0]?.message}`);
    return candidate as Avatar;
  };
  const profileOf = (raw: unknown, where: string): Profile => {
    if (contract.check('Profile', raw) !== null) fail(`${where}: ${schemaProblem(contract, 'Profile', raw)}`);
    return raw as Profile;
  };

  let profiles: OwnedProfile[] = base.profiles;
  if (parsed.profiles !== undefined) {
    if (parsed.profile !== undefined || parsed.avatar !== undefined) fail('give profiles, or the older profile and avatar, not both');
    if (!Array.isArray(parsed.profiles)) fail('profiles must be an array of { "owner", "version", "profile", "avatar" }');
    const owners = new Map<string, number>();
    const ids = new Map<string, number>();
    profiles = (parsed.profiles as unknown[]).map((entry, i) => {
      const where = `profiles[${i}]`;
      if (!isRecord(entry)) return fail(`${where} must be { "owner", "version", "profile", "avatar" }`);
      const unknown = Object.keys(entry).find((key) => !['owner', 'version', 'profile', 'avatar'].includes(key));
      if (unknown !== undefined) fail(`${where} has an unknown key '${unknown}' (an entry has owner, version, profile, avatar)`);
      const { owner, version = 1 } = entry;
      if (typeof owner !== 'string' || owner === '') fail(`${where}.owner must be the member's id (the token's subject), e.g. "ada"`);
      if (!Number.isSafeInteger(version) || (version as number) < 1) fail(`${where}.version must be a positive integer`);
      const profile = profileOf(entry.profile, `${where}.profile`);
      const owned = owners.get(owner as string);
      if (owned !== undefined) fail(`${where}: '${String(owner)}' already owns profiles[${owned}] (a member has one profile)`);
      owners.set(owner as string, i);
      const same = ids.get(profile.id);
      if (same !== undefined) fail(`${where} (id '${profile.id}'): the id is already the one of profiles[${same}]`);
      ids.set(profile.id, i);
      return { owner: owner as string, version: version as number, profile, avatar: avatarOf(entry.avatar, profile, `${where}.avatar`) };
    });
  } else if (parsed.profile !== undefined || parsed.avatar !== undefined) {
    // The single-member format: "profile" (or null) and its "avatar".
    const profile = parsed.profile === undefined || parsed.profile === null ? null : profileOf(parsed.profile, 'profile');
    const avatar = avatarOf(parsed.avatar, profile, 'avatar');
    profiles = profile ? [{ owner: OLD_FORMAT_OWNER, version: 1, profile, avatar }] : [];
  }

  const notifications = collection('notifications');

  /** The file's inbox, each id in it one of `notifications`, each text within the record's limits. */
  const inboxOf = (raw: unknown): InboxData => {
    if (raw === undefined) return parsed.notifications === undefined ? base.inbox : EMPTY_INBOX;
    if (!isRecord(raw)) return fail('inbox must be { "translations", "untilProfile", "readMarks" }');
    const unknown = Object.keys(raw).find((key) => !INBOX_KEYS.includes(key));
    if (unknown !== undefined) fail(`inbox has an unknown key '${unknown}' (it has ${INBOX_KEYS.join(', ')})`);
    const ids = new Set(notifications.map((n) => n.id));
    const known = (id: string, where: string) => ids.has(id) || fail(`${where}: '${id}' is the id of no notification`);
    const { translations = {}, untilProfile = [], readMarks = {} } = raw;

    if (!isRecord(translations)) fail('inbox.translations must be { "<notification id>": { "<language>": { "title", "body" } } }');
    for (const [id, byLanguage] of Object.entries(translations as Record<string, unknown>)) {
      known(id, 'inbox.translations');
      if (!isRecord(byLanguage)) fail(`inbox.translations.${id} must be { "<language>": { "title", "body" } }`);
      for (const [language, text] of Object.entries(byLanguage as Record<string, unknown>)) {
        const where = `inbox.translations.${id}.${language}`;
        if (!LANGUAGE_TAG.test(language) || language.toLowerCase() === 'en')
          fail(`${where}: a translation is in a language other than English`);
        if (!isRecord(text) || Object.keys(text).sort().join() !== 'body,title') fail(`${where} must be { "title", "body" }`);
        for (const field of ['title', 'body'] as const) {
          const problem = contract.checkAt(
            `/components/schemas/NotificationInput/properties/${field}`,
            (text as NotificationText)[field],
            field,
          );
          if (problem) fail(`${where}: ${problem}`);
        }
      }
    }
    if (!Array.isArray(untilProfile) || untilProfile.some((id) => typeof id !== 'string'))
      fail('inbox.untilProfile must be an array of notification ids');
    for (const id of untilProfile as string[]) known(id, 'inbox.untilProfile');
    if (!isRecord(readMarks)) fail('inbox.readMarks must be { "<member>": { "<notification id>": true | false } }');
    for (const [member, marks] of Object.entries(readMarks as Record<string, unknown>)) {
      if (!isRecord(marks)) fail(`inbox.readMarks.${member} must be { "<notification id>": true | false }`);
      for (const [id, read] of Object.entries(marks as Record<string, unknown>)) {
        known(id, `inbox.readMarks.${member}`);
        if (typeof read !== 'boolean') fail(`inbox.readMarks.${member}.${id} must be true (read) or false (unread)`);
      }
    }
    return { translations, untilProfile, readMarks } as InboxData;
  };

  return {
    collections: {
      accounts: collection('accounts'),
      notifications,
      subscription: collection('subscription'),
      symbols: collection('symbols'),
    },
    profiles,
    inbox: inboxOf(parsed.inbox),
  };
}

/** A DataSet as a data file's text. */
export function formatDataFile({ collections, profiles, inbox }: DataSet): string {
  const entries = profiles.map(({ owner, version, profile, avatar }) => ({
    owner,
    version,
    profile,
    avatar: avatar && { type: avatar.type, base64: Buffer.from(avatar.bytes).toString('base64'), version: avatar.version },
  }));
  return `${JSON.stringify({ ...collections, profiles: entries, inbox }, null, 2)}\n`;
}
