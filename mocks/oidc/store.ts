/**
 * Where the provider keeps its sessions, codes and tokens: memory, shared by the providers of
 * every origin of one server and gone when it stops (a member then signs in again). Records
 * expire as the provider asks; a record is removed when it is read after its time.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Held {
  payload: AdapterPayload;
  expiresAt: number;
}

/** The adapter factory, and a way to remove at once every record of one member (sign-out everywhere). */
export type MemoryStore = AdapterFactory & {
  /** Removes every record (session, grant, code, token) whose `accountId` is this one; the grants' ids removed. */
  removeAccount(accountId: string): string[];
};

export function memoryStore(): MemoryStore {
  const records = new Map<string, Held>();
  const live = (key: string): AdapterPayload | undefined => {
    const held = records.get(key);
    if (!held) return undefined;
    if (held.expiresAt <= Date.now()) {
      records.delete(key);
      return undefined;
    }
    return held.payload;
  };
  const factory = (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    const firstWhere = (test: (payload: AdapterPayload) => boolean) => {
      for (const [k, held] of records) if (k.startsWith(`${model}:`) && test(held.payload)) return live(k);
      return undefined;
    };
    return {
      async upsert(id, payload, expiresIn) {
        records.set(key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : Number.POSITIVE_INFINITY });
      },
      async find(id) {
        return live(key(id));
      },
      async findByUid(uid) {
        return firstWhere((payload) => payload.uid === uid);
      },
      async findByUserCode(userCode) {
        return firstWhere((payload) => payload.userCode === userCode);
      },
      async consume(id) {
        const payload = live(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        records.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const [k, held] of records) if (held.payload.grantId === grantId) records.delete(k);
      },
    };
  };
  return Object.assign(factory, {
    removeAccount(accountId: string): string[] {
      const grants: string[] = [];
      for (const [k, held] of records) {
        if (held.payload.accountId !== accountId) continue;
        if (k.startsWith('Grant:')) grants.push(k.slice('Grant:'.length));
        records.delete(k);
      }
      return grants;
    },
  });
}
