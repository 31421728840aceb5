import type { components, paths } from './schema';
import { type ApiClient, unwrap } from './client';
import { checkItem, checkList } from './guards';
import type { CollectionName } from './collection-names';

type Schemas = components['schemas'];

/** Each collection's stored record and the body a client sends for it. */
export interface CollectionTypes extends Record<CollectionName, { record: unknown; input: unknown }> {
  accounts: { record: Schemas['Account']; input: Schemas['AccountInput'] };
  notifications: { record: Schemas['Notification']; input: Schemas['NotificationInput'] };
  subscription: { record: Schemas['Subscription']; input: Schemas['SubscriptionInput'] };
  symbols: { record: Schemas['Symbol']; input: Schemas['SymbolInput'] };
}
export { COLLECTION_NAMES, type CollectionName } from './collection-names';

export type ListQuery<N extends CollectionName> = NonNullable<paths[`/${N}`]['get']['parameters']['query']>;

/**
 * One typed surface over the four collections. openapi-fetch checks each path literal; the
 * generic name is narrowed back to those literals here, in one place.
 */
export function collectionsApi(client: ApiClient) {
  type Item<N extends CollectionName> = CollectionTypes[N]['record'];
  type Input<N extends CollectionName> = CollectionTypes[N]['input'];
  // Each literal below is a real path of the contract; only the name variable widens it.
  const listPath = (name: CollectionName) => `/${name}` as '/symbols';
  const itemPath = (name: CollectionName) => `/${name}/{id}` as '/symbols/{id}';
  return {
    async list<N extends CollectionName>(name: N, query?: ListQuery<N>, signal?: AbortSignal): Promise<Item<N>[]> {
      return checkList<Item<N>>(name, await unwrap(client.GET(listPath(name), { params: { query: query as never }, signal })));
    },
    async read<N extends CollectionName>(name: N, id: string, signal?: AbortSignal): Promise<Item<N>> {
      return checkItem<Item<N>>(name, await unwrap(client.GET(itemPath(name), { params: { path: { id } }, signal })));
    },
    async create<N extends CollectionName>(name: N, body: Input<N>): Promise<Item<N>> {
      return checkItem<Item<N>>(name, await unwrap(client.POST(listPath(name), { body: body as never })));
    },
    async replace<N extends CollectionName>(name: N, id: string, body: Input<N>): Promise<Item<N>> {
      return checkItem<Item<N>>(name, await unwrap(client.PUT(itemPath(name), { params: { path: { id } }, body: body as never })));
    },
    async remove(name: CollectionName, id: string): Promise<void> {
      await unwrap(client.DELETE(itemPath(name), { params: { path: { id } } }));
    },
  };
}
