// @vitest-environment node
/** What the mock backend starts with when its options leave things out, and that what they give is used. */
import { describe, expect, it } from 'vitest';
import { createContract } from './contract.ts';
import { type DataSet, SEED } from './db.ts';
import { EMPTY_INBOX } from './inbox.ts';
import { createMockBackend, DEFAULT_JOURNAL_SIZE } from './mock.ts';
import { loadSpec } from '../openapi-kit/node.ts';

describe('createMockBackend', () => {
  it('serves the API under /api, starts from the seed and keeps the last 100 exchanges by default', async () => {
    const contract = createContract(loadSpec());
    const backend = await createMockBackend({ contract, delayMs: 0 });
    expect(backend.contract).toBe(contract);
    expect(backend.basePath).toBe('/api');
    expect(DEFAULT_JOURNAL_SIZE).toBe(100);
    expect(backend.journal.size).toBe(100);
    expect(backend.db.snapshot()).toEqual(SEED);
    expect(backend.handlers.length).toBeGreaterThan(0);
  });

  it('uses the base path, journal size and data given', async () => {
    const initial: DataSet = {
      collections: { accounts: [{ id: '9', name: 'Only', currency: 'EUR', balance: 0 }], notifications: [], subscription: [], symbols: [] },
      profiles: [],
      inbox: EMPTY_INBOX,
    };
    const backend = await createMockBackend({ contract: createContract(loadSpec()), delayMs: 0, basePath: '/v2', journalSize: 3, initial });
    expect(backend.basePath).toBe('/v2');
    expect(backend.journal.size).toBe(3);
    expect(backend.db.snapshot()).toEqual(initial);
  });
});
