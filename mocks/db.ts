import { Collection } from '@msw/data';
import type { Contract, ContractSchema } from './contract.ts';
import accounts from './data/accounts.json' with { type: 'json' };
import notifications from './data/notifications.json' with { type: 'json' };
import subscription from './data/subscription.json' with { type: 'json' };

/** A stored record: any object with a string id, checked against the contract's schema. */
export type Row = { id: string } & Record<string, unknown>;

const SYMBOLS: Row[] = [
  { id: '1', code: 'MSFT', entity: 'Microsoft Corporation' },
  { id: '2', code: 'AAPL', entity: 'Apple Inc.' },
  { id: '3', code: 'GOOG', entity: 'Alphabet Inc.' },
];

interface CollectionSpec {
  /** components.schemas name of a stored record. */
  record: string;
  /** components.schemas name of a record as sent by a client. */
  input: string;
  /** Most records the collection may hold. */
  limit: number;
  seed: readonly Row[];
}

/** The collections the mock holds, each named as in the URL. */
export const COLLECTIONS: Readonly<Record<string, CollectionSpec>> = {
  accounts: { record: 'Account', input: 'AccountInput', limit: 3, seed: accounts as Row[] },
  notifications: { record: 'Notification', input: 'NotificationInput', limit: 100, seed: notifications as Row[] },
  subscription: { record: 'Subscription', input: 'SubscriptionInput', limit: 100, seed: subscription as Row[] },
  symbols: { record: 'Symbol', input: 'SymbolInput', limit: 3, seed: SYMBOLS },
};

export interface Table {
  readonly name: string;
  readonly spec: CollectionSpec;
  readonly rows: Collection<ContractSchema<Row>>;
}

export interface Database {
  table(name: string): Table | undefined;
  /** Restores every collection to its seed data. */
  reset(): Promise<void>;
}

export async function createDatabase(contract: Contract): Promise<Database> {
  const tables = new Map<string, Table>();
  for (const [name, spec] of Object.entries(COLLECTIONS)) {
    tables.set(name, { name, spec, rows: new Collection({ schema: contract.schema<Row>(spec.record) }) });
  }
  const reset = async () => {
    for (const t of tables.values()) {
      t.rows.clear();
      for (const row of t.spec.seed) await t.rows.create(structuredClone(row));
    }
  };
  await reset();
  return { table: (name) => tables.get(name), reset };
}
