// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createContract } from './contract.ts';
import { createDatabase, type DataSet, etagOf, type Profile, SEED } from './db.ts';
import { EMPTY_INBOX } from './inbox.ts';
import { loadSpecCached } from '../openapi-kit/node.ts';

const contract = createContract(loadSpecCached());
// The smallest PNG signature the avatar check recognises.
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const profile = (id: string, username: string): Profile => ({
  id,
  displayName: 'Ada Lovelace',
  username,
  email: `${username}@example.org`,
  interests: [],
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
});
const withProfiles = (profiles: DataSet['profiles']): DataSet => ({ ...SEED, profiles });

describe('etagOf', () => {
  it("is a strong tag of the id's first eight characters and the version", () => {
    expect(etagOf('3f6c1a52-8a77-4c5e', 3)).toBe('"3f6c1a52.3"');
    expect(etagOf('p-1', 12)).toBe('"p-1.12"');
  });
});

describe('a database loaded with profiles', () => {
  const bytes = PNG.slice();
  const data = withProfiles([
    { owner: 'ada', version: 3, profile: profile('p-1', 'ada_l'), avatar: { id: 'p-1', type: 'image/png', bytes, version: 2 } },
    { owner: 'grace', version: 1, profile: profile('p-2', 'grace_h'), avatar: null },
  ]);

  it('holds each profile with its owner, version and avatar, and gives them back in a snapshot', async () => {
    const db = await createDatabase(contract, data);
    expect(db.profileOf('ada')).toEqual(profile('p-1', 'ada_l'));
    expect(db.profileOf('grace')).toEqual(profile('p-2', 'grace_h'));
    expect(db.profileOf('nobody')).toBeUndefined();
    expect(db.snapshot().profiles).toEqual([
      { owner: 'ada', version: 3, profile: profile('p-1', 'ada_l'), avatar: { id: 'p-1', type: 'image/png', bytes: PNG, version: 2 } },
      { owner: 'grace', version: 1, profile: profile('p-2', 'grace_h'), avatar: null },
    ]);
  });

  it('keeps its own copy of the avatar bytes: changing the data it was loaded from changes nothing held', async () => {
    const db = await createDatabase(contract, data);
    bytes[8] = 0xff;
    try {
      expect(db.snapshot().profiles[0]?.avatar?.bytes).toEqual(PNG);
    } finally {
      bytes[8] = 0;
    }
  });

  it('returns to the data it was made with on reset, and holds no profile loaded with the seed', async () => {
    const db = await createDatabase(contract, data);
    await db.load(SEED);
    expect(db.snapshot().profiles).toEqual([]);
    expect([db.profiles.count(), db.avatars.count(), db.owners.size]).toEqual([0, 0, 0]);
    expect(db.profileOf('ada')).toBeUndefined();
    await db.reset();
    expect(db.snapshot().profiles.map((p) => p.owner)).toEqual(['ada', 'grace']);
  });

  it('leaves out of the snapshot, and gives to nobody, a profile stored without its owner', async () => {
    const db = await createDatabase(contract, data);
    await db.profiles.create(profile('p-3', 'orphan'));
    await db.avatars.create({ id: 'p-9', type: 'image/png', bytes: PNG.slice(), version: 1 });
    expect(db.profileOf('nobody')).toBeUndefined();
    expect(db.snapshot().profiles.map((p) => [p.profile.id, p.avatar?.id ?? null])).toEqual([
      ['p-1', 'p-1'],
      ['p-2', null],
    ]);
  });
});

describe('a database', () => {
  it('keeps its own copy of the records it is loaded with', async () => {
    const data = structuredClone(withProfiles([{ owner: 'ada', version: 1, profile: profile('p-1', 'ada_l'), avatar: null }]));
    const db = await createDatabase(contract, data);
    data.collections.symbols[0]!.code = 'ZZZ';
    data.profiles[0]!.profile.displayName = 'Someone else';
    expect(db.collections.symbols.findFirst((q) => q.where({ id: '1' }))?.code).toBe('MSFT');
    expect(db.profileOf('ada')?.displayName).toBe('Ada Lovelace');
  });

  it('counts a revision at every change of any record and at every load, and none at a read', async () => {
    const db = await createDatabase(contract);
    let last = db.revision;
    const grew = () => {
      const grown = db.revision > last;
      last = db.revision;
      return grown;
    };
    db.collections.accounts.all();
    db.snapshot();
    expect(grew()).toBe(false);
    await db.collections.symbols.create({ id: '9', code: 'IBM', entity: 'IBM' });
    expect(grew()).toBe(true);
    const nine = db.collections.symbols.findFirst((q) => q.where({ id: '9' }))!;
    await db.collections.symbols.update(nine, {
      data(draft) {
        draft.entity = 'International Business Machines';
      },
    });
    expect(grew()).toBe(true);
    db.collections.symbols.delete(db.collections.symbols.findFirst((q) => q.where({ id: '9' }))!);
    expect(grew()).toBe(true);
    await db.profiles.create(profile('p-1', 'ada_l'));
    expect(grew()).toBe(true);
    await db.avatars.create({ id: 'p-1', type: 'image/png', bytes: PNG.slice(), version: 1 });
    expect(grew()).toBe(true);
    await db.reset();
    expect(grew()).toBe(true);
    const empty: DataSet = {
      profiles: [],
      collections: { accounts: [], notifications: [], subscription: [], symbols: [] },
      inbox: EMPTY_INBOX,
    };
    await db.load(empty);
    expect(grew()).toBe(true);
    // Even a load that changes no record counts: whoever keeps a copy writes it again.
    await db.load(empty);
    expect(grew()).toBe(true);
  });
});
