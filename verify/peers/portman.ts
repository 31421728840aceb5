/**
 * Portman's part of the peer runs: the collection it makes of openapi.yaml with
 * ./portman-config.json, and the variables newman runs it with. Pure, tested without the tools.
 */
import type { PeerContext } from './dredd-hooks.ts';

interface Item {
  name?: string;
  item?: Item[];
  request?: { body?: { raw?: string } };
}

const parsed = (raw: string | undefined): unknown => {
  try {
    return raw === undefined ? undefined : JSON.parse(raw);
  } catch {
    return raw;
  }
};

const FUZZED = /^(.*)\[fuzzed\]\[[^\]]*(?:\[\d+\])?[^\]]*\]$/;

/**
 * The collection without the fuzz requests Portman could not fuzz, and their names. Portman
 * fuzzes a body field by changing its value in the request example; a field the example leaves
 * out (the optional `id` of every create and replace, the profile update's other fields) gets a
 * request whose body is the example unchanged: a valid request, named as if it broke a limit,
 * that must not answer 400. Those are dropped.
 */
export function pruneUnfuzzed<C extends Item>(collection: C): { collection: C; dropped: string[] } {
  const examples = new Map<string, string>();
  const collect = (items: Item[]) => {
    for (const item of items) {
      if (item.item) collect(item.item);
      else if (item.name !== undefined && !item.name.includes('['))
        examples.set(item.name, JSON.stringify(parsed(item.request?.body?.raw)));
    }
  };
  collect(collection.item ?? []);
  const dropped: string[] = [];
  const prune = (items: Item[]): Item[] =>
    items.flatMap((item) => {
      if (item.item) return [{ ...item, item: prune(item.item) }];
      const base = item.name === undefined ? undefined : FUZZED.exec(item.name)?.[1];
      if (base !== undefined && examples.get(base) === JSON.stringify(parsed(item.request?.body?.raw))) {
        dropped.push(item.name!);
        return [];
      }
      return [item];
    });
  return { collection: { ...collection, item: prune(collection.item ?? []) }, dropped };
}

/**
 * The variables the collection uses: the API base, the origin (for the UI configuration, served at
 * its root), and the tokens. A bearer-secured request gets Portman's `{{bearerToken}}`: the
 * member's; ./portman-config.json gives the admin's to operations that need the role.
 */
export function newmanVariables(context: PeerContext): Record<string, string> {
  const token = (authorization: string) => authorization.replace(/^Bearer /, '');
  return {
    baseUrl: context.baseUrl,
    origin: new URL(context.baseUrl).origin,
    bearerToken: token(context.authorization.member),
    otherToken: token(context.authorization.other),
    adminToken: token(context.authorization.admin),
  };
}
