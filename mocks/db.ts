/**
 * The mock's one database (@msw/data): the four collections, the member's profile and its avatar.
 * Every record is validated against openapi.yaml's own schema as it is stored, so there is no
 * second model of the data.
 */
import { Collection } from '@msw/data';
import type { components } from '../src/api/schema';
import { avatarRules, avatarSchema, type Avatar } from './avatar.ts';
import type { Contract, StandardSchema } from './contract.ts';
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

/** Everything the database holds, as plain data: the seed, a fixtures file, what --persist keeps. */
export interface DataSet {
  collections: { [N in CollectionName]: Records[N][] };
  profile: Profile | null;
  avatar: Avatar | null;
}

/** The data the mock starts with: mocks/data/*.json, and no profile yet. */
export const SEED: DataSet = {
  collections: {
    accounts,
    // JSON imports type an enum field as a string; the collection's schema checks each record as it is stored.
    notifications: notifications as Records['notifications'][],
    subscription: subscription as Records['subscription'][],
    symbols,
  },
  profile: null,
  avatar: null,
};

export type Table<N extends CollectionName> = Collection<StandardSchema<Records[N]>>;

export interface Database {
  readonly collections: { readonly [N in CollectionName]: Table<N> };
  /** The member's profile: none or one record. */
  readonly profile: Collection<StandardSchema<Profile>>;
  /** The profile's avatar image, keyed by the profile's id. */
  readonly avatars: Collection<StandardSchema<Avatar>>;
  /** Grows with every change: a caller compares it before and after to tell whether anything changed. */
  readonly revision: number;
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
  const profile = new Collection({ schema: contract.schema<Profile>('Profile') });
  const avatars = new Collection({ schema: avatarSchema(avatarRules(contract.spec)) });

  let revision = 0;
  const changed = () => {
    revision++;
  };
  for (const collection of [...Object.values(collections), profile, avatars]) {
    collection.hooks.on('create', changed);
    collection.hooks.on('update', changed);
    collection.hooks.on('delete', changed);
  }

  async function load(data: DataSet) {
    const fill = async <N extends CollectionName>(name: N) => {
      collections[name].clear();
      for (const record of data.collections[name]) await collections[name].create(structuredClone(record));
    };
    for (const name of COLLECTION_NAMES) await fill(name);
    profile.clear();
    avatars.clear();
    if (data.profile) await profile.create(structuredClone(data.profile));
    if (data.avatar) await avatars.create({ ...data.avatar, bytes: data.avatar.bytes.slice() });
    changed();
  }

  await load(initial);
  return {
    collections,
    profile,
    avatars,
    get revision() {
      return revision;
    },
    reset: () => load(initial),
    load,
    snapshot() {
      const [member] = profile.all();
      const [image] = avatars.all();
      return {
        collections: {
          accounts: collections.accounts.all().map(plain),
          notifications: collections.notifications.all().map(plain),
          subscription: collections.subscription.all().map(plain),
          symbols: collections.symbols.all().map(plain),
        },
        profile: member ? plain(member) : null,
        avatar: image ? plain(image) : null,
      };
    },
  };
}
