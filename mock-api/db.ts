/**
 * The mock's one database (@msw/data): the four collections, the members' profiles with their
 * avatars, and what the inbox keeps beside the notifications (./inbox.ts). Every record is validated against openapi.yaml's own schema as it is stored, so there
 * is no second model of the data. Whose each profile is, and its version (of which its ETag is
 * made), is kept beside the Profile records (`owners`): neither is a field of the contract's Profile.
 */
import { Collection } from '@msw/data';
import type { components } from '../src/index.ts';
import { avatarRules, avatarSchema, type Avatar } from './avatar.ts';
import type { Contract, StandardSchema } from './contract.ts';
import { Inbox, INBOX_SEED, type InboxData } from './inbox.ts';
import accounts from './data/accounts.json' with { type: 'json' };
import notifications from './data/notifications.json' with { type: 'json' };
import subscription from './data/subscription.json' with { type: 'json' };
import symbols from './data/symbols.json' with { type: 'json' };

type Schemas = components['schemas'];

/** A stored record of each collection, as openapi.yaml types it. */
export interface Records {
  accounts: Schemas['Account'];
  notifications: Schemas['Notification'];
  subscription: Schemas['Subscription'];
  symbols: Schemas['Symbol'];
}
export type CollectionName = keyof Records;
export type Profile = Schemas['Profile'];
export type { Avatar } from './avatar.ts';

/** Any stored record, as tests that handle every collection alike see one. */
export type Row = { id: string } & Record<string, unknown>;

/**
 * The collections, each named as in the URL: the schema of its records and its seed data.
 * `limit` is the collection's `x-max-records` for tests that fill one; the mock reads the limit
 * from openapi.yaml, and limits.test.ts holds the two equal.
 */
export const COLLECTIONS: Readonly<Record<string, { record: string; seed: readonly Row[]; limit: number }>> = {
  accounts: { record: 'Account', seed: accounts, limit: 3 },
  notifications: { record: 'Notification', seed: notifications, limit: 100 },
  subscription: { record: 'Subscription', seed: subscription as Row[], limit: 100 },
  symbols: { record: 'Symbol', seed: symbols, limit: 3 },
};
export const COLLECTION_NAMES: readonly CollectionName[] = ['accounts', 'notifications', 'subscription', 'symbols'];

/** Whose a profile is (the access token's subject) and how many times it was written. */
export interface ProfileMeta {
  owner: string;
  /** 1 when created, one more at every update: the profile's ETag is made of it (see etagOf). */
  version: number;
}

/** One member's profile as plain data, with its avatar. */
export interface OwnedProfile extends ProfileMeta {
  profile: Profile;
  avatar: Avatar | null;
}

/** Everything the database holds, as plain data: the seed, a fixtures file, what --persist keeps. */
export interface DataSet {
  collections: { [N in CollectionName]: Records[N][] };
  /** At most one per owner. */
  profiles: OwnedProfile[];
  /** The notifications' translations, the welcome, the members' read marks. */
  inbox: InboxData;
}

/**
 * A profile's strong ETag: its id's first characters and its version. The id keeps a profile
 * made after a delete (a new id) from matching a tag of the one before at the same version.
 */
export const etagOf = (id: string, version: number): string => `"${id.slice(0, 8)}.${version}"`;

/** The data the mock starts with: mock-api/data/*.json, no profile yet, and no read mark. */
export const SEED: DataSet = {
  collections: {
    accounts,
    // JSON imports type an enum field as a string; the collection's schema checks each record as it is stored.
    notifications: notifications as Records['notifications'][],
    subscription: subscription as Records['subscription'][],
    symbols,
  },
  profiles: [],
  inbox: INBOX_SEED,
};

export type Table<N extends CollectionName> = Collection<StandardSchema<Records[N]>>;

export interface Database {
  readonly collections: { readonly [N in CollectionName]: Table<N> };
  /** The members' profiles, at most one per owner. */
  readonly profiles: Collection<StandardSchema<Profile>>;
  /** Each profile's avatar image, keyed by the profile's id. */
  readonly avatars: Collection<StandardSchema<Avatar>>;
  /** Each profile's owner and version, by profile id; written with the profile it describes. */
  readonly owners: Map<string, ProfileMeta>;
  /** What the backend keeps beside the notifications: their other languages, the welcome, the read marks. */
  readonly inbox: Inbox;
  /** The profile `subject` owns, if any. */
  profileOf(subject: string): Profile | undefined;
  /** Grows with every change: a caller compares it before and after to tell whether anything changed. */
  readonly revision: number;
  /** Grows with every load and reset: what was noted of a record before one is not of the record now under its id. */
  readonly loads: number;
  /** Replaces every record with the data the mock started with (the seed, or the fixtures given). */
  reset(): Promise<void>;
  /** Replaces every record with `data`. */
  load(data: DataSet): Promise<void>;
  /** A copy of everything held. */
  snapshot(): DataSet;
}

const plain = <T extends object>(record: T): T => ({ ...record });

export async function createDatabase(contract: Contract, initial: DataSet = SEED): Promise<Database> {
  const table = <N extends CollectionName>(name: N): Table<N> =>
    new Collection({ schema: contract.schema<Records[N]>(COLLECTIONS[name]!.record) });
  const collections: { [N in CollectionName]: Table<N> } = {
    accounts: table('accounts'),
    notifications: table('notifications'),
    subscription: table('subscription'),
    symbols: table('symbols'),
  };
  const profiles = new Collection({ schema: contract.schema<Profile>('Profile') });
  const avatars = new Collection({ schema: avatarSchema(avatarRules(contract.spec)) });
  const owners = new Map<string, ProfileMeta>();

  let revision = 0;
  let loads = 0;
  const changed = () => {
    revision++;
  };
  const inbox = new Inbox(changed);
  for (const collection of [...Object.values(collections), profiles, avatars]) {
    collection.hooks.on('create', changed);
    collection.hooks.on('update', changed);
    collection.hooks.on('delete', changed);
  }

  async function load(data: DataSet) {
    loads++;
    const fill = async <N extends CollectionName>(name: N) => {
      collections[name].clear();
      for (const record of data.collections[name]) await collections[name].create(structuredClone(record));
    };
    for (const name of COLLECTION_NAMES) await fill(name);
    profiles.clear();
    avatars.clear();
    owners.clear();
    for (const { owner, version, profile, avatar } of data.profiles) {
      await profiles.create(structuredClone(profile));
      owners.set(profile.id, { owner, version });
      if (avatar) await avatars.create({ ...avatar, bytes: avatar.bytes.slice() });
    }
    inbox.load(data.inbox);
    changed();
  }

  await load(initial);
  return {
    collections,
    profiles,
    avatars,
    owners,
    inbox,
    profileOf(subject) {
      return profiles.findFirst((q) => q.where((profile) => owners.get(profile.id)?.owner === subject));
    },
    get revision() {
      return revision;
    },
    get loads() {
      return loads;
    },
    reset: () => load(initial),
    load,
    snapshot() {
      return {
        collections: {
          accounts: collections.accounts.all().map(plain),
          notifications: collections.notifications.all().map(plain),
          subscription: collections.subscription.all().map(plain),
          symbols: collections.symbols.all().map(plain),
        },
        profiles: profiles.all().flatMap((profile) => {
          const meta = owners.get(profile.id);
          if (!meta) return [];
          const image = avatars.findFirst((q) => q.where({ id: profile.id }));
          return [{ ...meta, profile: plain(profile), avatar: image ? plain(image) : null }];
        }),
        inbox: inbox.snapshot(),
      };
    },
  };
}
