/**
 * The mock's data as a JSON file: the fixtures given with `--data` and the file `--persist` keeps.
 *
 *   { "accounts": [...], "notifications": [...], "subscription": [...], "symbols": [...],
 *     "profile": { ...a Profile } | null,
 *     "avatar": { "type": "image/png", "base64": "iVBORw0…", "version": 1 } | null }
 *
 * Every key is optional: one left out keeps the seed's records. Each record must satisfy its
 * schema in openapi.yaml, ids are unique, a collection holds at most its `x-max-records`; the
 * first problem is a ConfigError of one line naming the file, the record and the schema path.
 */
import { Buffer } from 'node:buffer';
import { avatarRules, avatarSchema, type Avatar } from './avatar.ts';
import type { Contract } from './contract.ts';
import { COLLECTION_NAMES, COLLECTIONS, type CollectionName, type DataSet, type Profile, type Records } from './db.ts';
import { ConfigError } from './errors.ts';
import { isRecord, SchemaValidator } from './openapi/index.ts';

const KEYS = [...COLLECTION_NAMES, 'profile', 'avatar'];

/** Where a record breaks its schema, worded with the place in the document: only computed for a file that fails. */
function schemaProblem(contract: Contract, schema: string, value: unknown): string {
  const detailed = new SchemaValidator(contract.spec.doc, { detailed: true });
  const [p] = detailed.schema(schema, value);
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
  if (!isRecord(parsed)) return fail('a data file is a JSON object keyed by collection (and profile, avatar)');
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

  let profile: Profile | null = base.profile;
  if (parsed.profile !== undefined) {
    if (parsed.profile !== null && contract.check('Profile', parsed.profile) !== null) {
      fail(`profile: ${schemaProblem(contract, 'Profile', parsed.profile)}`);
    }
    profile = parsed.profile as Profile | null;
  }

  let avatar: Avatar | null = parsed.profile === undefined ? base.avatar : null;
  if (parsed.avatar !== undefined && parsed.avatar !== null) {
    const raw = parsed.avatar;
    if (!isRecord(raw) || typeof raw.base64 !== 'string')
      return fail('avatar must be { "type": "image/png", "base64": "…", "version": 1 }');
    if (!profile) fail('avatar: there is no profile for it to belong to');
    const candidate = {
      id: profile!.id,
      type: raw.type,
      bytes: new Uint8Array(Buffer.from(raw.base64, 'base64')),
      version: raw.version ?? 1,
    };
    const checked = avatarSchema(avatarRules(contract.spec))['~standard'].validate(candidate);
    if (checked.issues) fail(`avatar: ${checked.issues[0]?.message}`);
    avatar = candidate as Avatar;
  }

  return {
    collections: {
      accounts: collection('accounts'),
      notifications: collection('notifications'),
      subscription: collection('subscription'),
      symbols: collection('symbols'),
    },
    profile,
    avatar,
  };
}

/** A DataSet as a data file's text. */
export function formatDataFile({ collections, profile, avatar }: DataSet): string {
  const image = avatar && { type: avatar.type, base64: Buffer.from(avatar.bytes).toString('base64'), version: avatar.version };
  return `${JSON.stringify({ ...collections, profile, avatar: image }, null, 2)}\n`;
}
