// @vitest-environment node
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createContract } from '../mock-api/index.ts';
import { formatDataFile, OLD_FORMAT_OWNER, parseDataFile } from './data-file.ts';
import { createDatabase, SEED } from '../mock-api/index.ts';
import { loadSpec } from '../openapi-kit/node.ts';

const contract = createContract(loadSpec());
const parse = (value: unknown) => parseDataFile(typeof value === 'string' ? value : JSON.stringify(value), contract, 'fixtures.json', SEED);
const refusal = (value: unknown) => {
  try {
    parse(value);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the file was accepted');
};
// The smallest PNG signature the avatar check recognises.
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const PROFILE = {
  id: 'p-1',
  displayName: 'Ada Lovelace',
  username: 'ada_l',
  email: 'ada@example.org',
  interests: [],
  avatar: '/api/user/profile/p-1/avatar?v=1',
  createdAt: '2026-11-20T10:00:00Z',
  updatedAt: '2026-11-20T10:00:00Z',
};

describe('a data file (--data, --persist)', () => {
  it('replaces the collections it names and keeps the seed of the others', () => {
    const data = parse({ accounts: [{ id: 'a', name: 'Only one', currency: 'EUR', balance: 1 }], notifications: [] });
    expect(data.collections.accounts).toEqual([{ id: 'a', name: 'Only one', currency: 'EUR', balance: 1 }]);
    expect(data.collections.notifications).toEqual([]);
    expect(data.collections.symbols).toEqual(SEED.collections.symbols);
    expect(data.profiles).toEqual([]);
  });

  it("holds members' profiles with their owners, versions and avatars, which come back from formatDataFile as they went in", () => {
    const grace = { ...PROFILE, id: 'p-2', username: 'grace_h', avatar: null };
    const data = parse({
      profiles: [
        { owner: 'ada', version: 3, profile: PROFILE, avatar: { type: 'image/png', base64: PNG.toString('base64'), version: 1 } },
        { owner: 'grace', profile: grace },
      ],
    });
    expect(data.profiles.map(({ owner, version, profile }) => ({ owner, version, profile }))).toEqual([
      { owner: 'ada', version: 3, profile: PROFILE },
      { owner: 'grace', version: 1, profile: grace },
    ]);
    expect(Buffer.from(data.profiles[0]!.avatar!.bytes)).toEqual(PNG);
    expect(data.profiles[1]!.avatar).toBeNull();
    expect(parse(formatDataFile(data))).toEqual(data);
  });

  it("reads the single-member file of before accounts: its profile and avatar are ada's", () => {
    const data = parse({ profile: PROFILE, avatar: { type: 'image/png', base64: PNG.toString('base64'), version: 1 } });
    expect(data.profiles).toHaveLength(1);
    expect(data.profiles[0]).toMatchObject({ owner: OLD_FORMAT_OWNER, version: 1, profile: PROFILE });
    expect(OLD_FORMAT_OWNER).toBe('ada');
    expect(Buffer.from(data.profiles[0]!.avatar!.bytes)).toEqual(PNG);
    expect(parse({ profile: null }).profiles).toEqual([]);
  });

  it('refuses two profiles of one member, an id used twice, an entry without owner, and both formats at once', () => {
    const other = { ...PROFILE, id: 'p-2' };
    expect(
      refusal({
        profiles: [
          { owner: 'ada', profile: PROFILE },
          { owner: 'ada', profile: other },
        ],
      }),
    ).toBe("fixtures.json: profiles[1]: 'ada' already owns profiles[0] (a member has one profile)");
    expect(
      refusal({
        profiles: [
          { owner: 'ada', profile: PROFILE },
          { owner: 'grace', profile: PROFILE },
        ],
      }),
    ).toBe("fixtures.json: profiles[1] (id 'p-1'): the id is already the one of profiles[0]");
    expect(refusal({ profiles: [{ profile: PROFILE }] })).toMatch(/^fixtures\.json: profiles\[0\]\.owner must be the member's id/);
    expect(refusal({ profiles: [{ owner: 'ada', version: 0, profile: PROFILE }] })).toBe(
      'fixtures.json: profiles[0].version must be a positive integer',
    );
    expect(refusal({ profiles: [{ owner: 'ada', profile: { ...PROFILE, username: 'Ada Lovelace' } }] })).toMatch(
      /^fixtures\.json: profiles\[0\]\.profile: username must match pattern/,
    );
    expect(refusal({ profiles: [], profile: PROFILE })).toBe('fixtures.json: give profiles, or the older profile and avatar, not both');
  });

  it('names the file, the record (collection, index and id) and the schema path of a record that breaks its schema', () => {
    const message = refusal({
      accounts: [
        { id: '1', name: 'Fees', currency: 'EUR', balance: 1 },
        { id: '2', name: 'Fund', currency: 'eur', balance: 2 },
      ],
    });
    expect(message).toBe(
      `fixtures.json: accounts[1] (id '2'): currency must match pattern "^[A-Z]{3}$" (schema path #/components/schemas/AccountInput/properties/currency/pattern)`,
    );
    expect(message).not.toContain('\n');
  });

  it('refuses a missing field, an unknown field and a profile that breaks its schema, each in one line', () => {
    expect(refusal({ symbols: [{ id: '9', code: 'X' }] })).toMatch(
      /^fixtures\.json: symbols\[0\] \(id '9'\): the record must have required property 'entity' \(schema path #\/components\/schemas\/SymbolInput\/required\)$/,
    );
    expect(refusal({ symbols: [{ id: '9', code: 'X', entity: 'Y', colour: 'red' }] })).toMatch(
      /symbols\[0\] \(id '9'\): the record has an unknown field 'colour'/,
    );
    expect(refusal({ profile: { ...PROFILE, username: 'Ada Lovelace' } })).toMatch(
      /^fixtures\.json: profile: username must match pattern .*\(schema path #\/components\/schemas\/Username\/pattern\)$/,
    );
  });

  it('refuses ids used twice, more records than x-max-records, unknown keys, and text that is no JSON', () => {
    const symbol = (id: string) => ({ id, code: 'ABC', entity: 'An entity' });
    expect(refusal({ symbols: [symbol('1'), symbol('1')] })).toBe(
      "fixtures.json: symbols[1] (id '1'): the id is already the one of symbols[0]",
    );
    expect(refusal({ symbols: [symbol('1'), symbol('2'), symbol('3'), symbol('4')] })).toBe(
      'fixtures.json: symbols has 4 records, more than its x-max-records 3',
    );
    expect(refusal({ acounts: [] })).toMatch(/^fixtures\.json: unknown key 'acounts' \(a data file has accounts, notifications/);
    expect(refusal('{"accounts": [')).toMatch(/^fixtures\.json: not valid JSON \(/);
    expect(refusal([])).toMatch(/^fixtures\.json: a data file is a JSON object/);
  });

  it('refuses an avatar without a profile, of a type the document does not accept, or whose bytes are not that image', () => {
    const png = PNG.toString('base64');
    expect(refusal({ avatar: { type: 'image/png', base64: png } })).toBe('fixtures.json: avatar: there is no profile for it to belong to');
    expect(refusal({ profile: PROFILE, avatar: { type: 'image/gif', base64: png } })).toBe(
      'fixtures.json: avatar: avatar.type must be one of image/png, image/jpeg, image/webp',
    );
    expect(refusal({ profile: PROFILE, avatar: { type: 'image/jpeg', base64: png } })).toBe(
      "fixtures.json: avatar: the avatar's content is not a JPEG image",
    );
  });

  it('names the collection that is no array, and labels a record that is no object, or whose id is no string, by its index alone', () => {
    expect(refusal({ accounts: {} })).toBe('fixtures.json: accounts must be an array of records');
    expect(refusal({ symbols: [null] })).toBe(
      'fixtures.json: symbols[0]: the record must be object (schema path #/components/schemas/SymbolInput/type)',
    );
    expect(refusal({ symbols: [{ id: 5, code: 'ABC', entity: 'An entity' }] })).toBe(
      'fixtures.json: symbols[0]: id must be string (schema path #/components/schemas/Id/type)',
    );
    expect(refusal({ symbols: [{ code: 'ABC', entity: 'An entity' }] })).toBe(
      "fixtures.json: symbols[0]: the record must have required property 'id' (schema path #/components/schemas/Symbol/allOf/1/required)",
    );
  });

  it('holds each collection to its own x-max-records', () => {
    const [seeded] = SEED.collections.notifications;
    const notifications = (n: number) => Array.from({ length: n }, (_, i) => ({ ...seeded, id: `n${i}` }));
    expect(parse({ notifications: notifications(4) }).collections.notifications).toHaveLength(4);
    expect(parse({ notifications: notifications(100) }).collections.notifications).toHaveLength(100);
    expect(refusal({ notifications: notifications(101) })).toBe(
      'fixtures.json: notifications has 101 records, more than its x-max-records 100',
    );
    expect(refusal({ accounts: [1, 2, 3, 4].map((i) => ({ id: `a${i}`, name: 'N', currency: 'EUR', balance: i })) })).toBe(
      'fixtures.json: accounts has 4 records, more than its x-max-records 3',
    );
  });

  it('takes any number of records in a collection whose document states no x-max-records, or does not declare it', () => {
    const symbols = ['1', '2', '3', '4'].map((id) => ({ id, code: 'ABC', entity: 'An entity' }));
    const text = JSON.stringify({ symbols });
    const unlimited = structuredClone(loadSpec());
    delete unlimited.paths['/symbols']!['x-max-records'];
    expect(parseDataFile(text, createContract(unlimited), 'fixtures.json', SEED).collections.symbols).toEqual(symbols);
    const undeclared = structuredClone(loadSpec());
    delete undeclared.paths['/symbols'];
    delete undeclared.paths['/symbols/{id}'];
    expect(parseDataFile(text, createContract(undeclared), 'fixtures.json', SEED).collections.symbols).toEqual(symbols);
  });

  it('names a field inside a list or an object by its path with dots', () => {
    expect(refusal({ profile: { ...PROFILE, interests: ['chess', 5] } })).toBe(
      'fixtures.json: profile: interests.1 must be string (schema path #/components/schemas/Interest/type)',
    );
  });

  it('refuses profiles that are no array, an entry that is no object, an unknown key in one, and an owner that is no id', () => {
    expect(refusal({ profiles: {} })).toBe('fixtures.json: profiles must be an array of { "owner", "version", "profile", "avatar" }');
    expect(refusal({ profiles: [5] })).toBe('fixtures.json: profiles[0] must be { "owner", "version", "profile", "avatar" }');
    expect(refusal({ profiles: [{ owner: 'ada', profile: PROFILE, colour: 'red' }] })).toBe(
      "fixtures.json: profiles[0] has an unknown key 'colour' (an entry has owner, version, profile, avatar)",
    );
    for (const owner of ['', 5]) {
      expect(refusal({ profiles: [{ owner, profile: PROFILE }] })).toBe(
        `fixtures.json: profiles[0].owner must be the member's id (the token's subject), e.g. "ada"`,
      );
    }
    expect(refusal({ profiles: [], avatar: null })).toBe('fixtures.json: give profiles, or the older profile and avatar, not both');
  });

  it('names the entry of an avatar that is refused, and refuses an avatar that is no object or has no base64', () => {
    const png = PNG.toString('base64');
    expect(refusal({ profiles: [{ owner: 'ada', profile: PROFILE, avatar: { type: 'image/gif', base64: png } }] })).toBe(
      'fixtures.json: profiles[0].avatar: avatar.type must be one of image/png, image/jpeg, image/webp',
    );
    for (const avatar of ['iVBORw0', { type: 'image/png' }, { type: 'image/png', base64: 5 }]) {
      expect(refusal({ profile: PROFILE, avatar })).toBe(
        'fixtures.json: avatar must be { "type": "image/png", "base64": "…", "version": 1 }',
      );
    }
  });

  it("keeps the base's profiles when the file names none", () => {
    const base = parse({ profiles: [{ owner: 'grace', profile: PROFILE }] });
    const data = parseDataFile(JSON.stringify({ accounts: [] }), contract, 'fixtures.json', base);
    expect(data.profiles).toEqual(base.profiles);
    expect(data.profiles).toHaveLength(1);
    expect(data.collections.symbols).toEqual(base.collections.symbols);
  });

  it('gives a profile entry and an avatar without a version the version 1', () => {
    const data = parse({ profiles: [{ owner: 'ada', profile: PROFILE, avatar: { type: 'image/png', base64: PNG.toString('base64') } }] });
    expect(data.profiles[0]).toMatchObject({ owner: 'ada', version: 1, avatar: { id: 'p-1', type: 'image/png', version: 1 } });
    expect(Buffer.from(data.profiles[0]!.avatar!.bytes)).toEqual(PNG);
  });

  it('is what a database holds: loaded, snapshotted and written, it reads back the same', async () => {
    const db = await createDatabase(
      contract,
      parse({
        accounts: [],
        profiles: [{ owner: 'grace', version: 2, profile: PROFILE, avatar: { type: 'image/png', base64: PNG.toString('base64') } }],
      }),
    );
    expect(db.collections.accounts.count()).toBe(0);
    expect(db.profileOf('grace')?.username).toBe('ada_l');
    expect(db.profileOf('ada')).toBeUndefined();
    expect(db.owners.get('p-1')).toEqual({ owner: 'grace', version: 2 });
    const again = parse(formatDataFile(db.snapshot()));
    expect(again).toEqual(db.snapshot());
  });
});

describe("a data file's inbox", () => {
  const NOTE = { id: 'n', title: 'Hello', body: '', level: 'info', read: false, createdAt: '2026-01-01T00:00:00Z' };
  const INBOX = {
    translations: { n: { fr: { title: 'Bonjour', body: '' }, 'zh-Hans': { title: '你好', body: '' } } },
    untilProfile: ['n'],
    readMarks: { grace: { n: true }, linus: { n: false } },
  };

  it("keeps the seed's with the seed's notifications, has none with other notifications, and comes back from formatDataFile", () => {
    expect(parse({ accounts: [] }).inbox).toEqual(SEED.inbox);
    expect(parse({ notifications: [NOTE] }).inbox).toEqual({ translations: {}, untilProfile: [], readMarks: {} });
    const data = parse({ notifications: [NOTE], inbox: INBOX });
    expect(data.inbox).toEqual(INBOX);
    expect(parse({ inbox: { untilProfile: [] } }).inbox).toEqual({ translations: {}, untilProfile: [], readMarks: {} });
    expect(parse(formatDataFile(data))).toEqual(data);
  });

  it('refuses an id of no notification, a translation into English or of another shape, a text past its limits, a mark that is no boolean', () => {
    const refused = (inbox: unknown) => refusal({ notifications: [NOTE], inbox });
    expect(refused({ colour: 1 })).toBe("fixtures.json: inbox has an unknown key 'colour' (it has translations, untilProfile, readMarks)");
    expect(refused({ untilProfile: ['m'] })).toBe("fixtures.json: inbox.untilProfile: 'm' is the id of no notification");
    expect(refused({ untilProfile: 'n' })).toBe('fixtures.json: inbox.untilProfile must be an array of notification ids');
    expect(refused({ translations: { m: {} } })).toBe("fixtures.json: inbox.translations: 'm' is the id of no notification");
    expect(refused({ translations: { n: { en: { title: 'Hi', body: '' } } } })).toBe(
      'fixtures.json: inbox.translations.n.en: a translation is in a language other than English',
    );
    expect(refused({ translations: { n: { 'fr!': { title: 'Hi', body: '' } } } })).toBe(
      'fixtures.json: inbox.translations.n.fr!: a translation is in a language other than English',
    );
    expect(refused({ translations: { n: { fr: { title: 'Salut' } } } })).toBe(
      'fixtures.json: inbox.translations.n.fr must be { "title", "body" }',
    );
    expect(refused({ translations: { n: { fr: { title: '', body: '' } } } })).toBe(
      'fixtures.json: inbox.translations.n.fr: title must NOT have fewer than 1 characters',
    );
    expect(refused({ readMarks: { grace: { m: true } } })).toBe("fixtures.json: inbox.readMarks.grace: 'm' is the id of no notification");
    expect(refused({ readMarks: { grace: { n: 'yes' } } })).toBe(
      'fixtures.json: inbox.readMarks.grace.n must be true (read) or false (unread)',
    );
    expect(refused({ readMarks: [] })).toBe('fixtures.json: inbox.readMarks must be { "<member>": { "<notification id>": true | false } }');
    expect(refused([])).toBe('fixtures.json: inbox must be { "translations", "untilProfile", "readMarks" }');
  });
});

describe('a data file, read by the module as it loads', () => {
  // The keys a file may have and the old format's owner are made when the module loads: a change to
  // them is only seen by a test that loads it. What it imports is loaded afresh here, outside the
  // test, so that the test evaluates data-file.ts alone and no other module's load counts as its.
  beforeAll(async () => {
    vi.resetModules();
    await Promise.all([import('../mock-api/index.ts'), import('../openapi-kit/index.ts')]);
  });

  it('has the keys it names when it refuses an unknown one, and gives the profile of the old format to ada', async () => {
    const { parseDataFile: parseFresh } = await import('./data-file.ts');
    const read = (value: unknown) => parseFresh(JSON.stringify(value), contract, 'fixtures.json', SEED);
    expect(() => read({ acounts: [] })).toThrow(
      "fixtures.json: unknown key 'acounts' (a data file has accounts, notifications, subscription, symbols, profiles, profile, avatar, inbox)",
    );
    expect(read({ accounts: [] }).collections.accounts).toEqual([]);
    expect(read({ profiles: [{ owner: 'grace', profile: PROFILE }] }).profiles).toMatchObject([{ owner: 'grace', profile: PROFILE }]);
    const old = read({ profile: PROFILE, avatar: { type: 'image/png', base64: PNG.toString('base64') } });
    expect(old.profiles).toMatchObject([{ owner: 'ada', version: 1, profile: PROFILE, avatar: { type: 'image/png' } }]);
  });
});
