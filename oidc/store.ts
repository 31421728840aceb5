/**
 * Where the provider keeps its sessions, codes and tokens: memory, one store for the providers of
 * every origin of one server, each issuer's records apart (forIssuer), gone when it stops (a
 * member then signs in again). Records expire as the provider asks; a record is removed when it
 * is read after its time.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Held {
  payload: AdapterPayload;
  expiresAt: number;
}

/** The adapter factory, and a way to remove at once every record of one member (sign-out everywhere). */
export type MemoryStore = AdapterFactory & {
  /**
   * The records of one issuer only: a code or refresh token one origin's provider issued is not
   * found by another's, so it cannot be redeemed there (for tokens under that other issuer).
   */
  forIssuer(issuer: string): AdapterFactory;
  /** Removes every record (session, grant, code, token) whose `accountId` is this one, of every issuer; the grants' ids removed. */
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
  const scoped =
    (scope: string) =>
    (model: string): Adapter => {
      const key = (id: string) => `${scope}${model}:${id}`;
      const firstWhere = (test: (payload: AdapterPayload) => boolean) => {
        for (const [k, held] of records) if (k.startsWith(`${scope}${model}:`) && test(held.payload)) return live(k);
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
  return Object.assign(scoped(''), {
    // A scope ends with a character no model name has, so that one issuer's keys never start another's.
    forIssuer: (issuer: string) => scoped(`${issuer}|`),
    removeAccount(accountId: string): string[] {
      const grants: string[] = [];
      for (const [k, held] of records) {
        if (held.payload.accountId !== accountId) continue;
        const grant = /(?:^|\|)Grant:(.*)$/s.exec(k);
        if (grant) grants.push(grant[1]!);
        records.delete(k);
      }
      return grants;
    },
  });
}
