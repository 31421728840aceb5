import type { CollectionName, CollectionTypes, ProfileInput } from '../src/index.ts';

/** One valid body per collection, as a client sends it (no id). */
export const SAMPLE_INPUT: { [N in CollectionName]: CollectionTypes[N]['input'] } = {
  accounts: { name: 'Event budget', currency: 'EUR', balance: 300 },
  notifications: {
    title: 'Meet-up moved',
    body: "Thursday's meet-up starts at 19:00.",
    level: 'info',
    read: false,
    createdAt: '2026-11-21T10:00:00Z',
  },
  subscription: {
    endpoint: 'https://push.example.org/send/xyz',
    expirationTime: null,
    keys: {
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    },
  },
  symbols: { code: 'AMZN', entity: 'Amazon.com, Inc.' },
};

/** A second valid body per collection, for replacing a record. */
export const REPLACEMENT: { [N in CollectionName]: CollectionTypes[N]['input'] } = {
  accounts: { name: 'Renamed fund', currency: 'USD', balance: -12.5 },
  notifications: { title: 'Read me', body: '', level: 'error', read: true, createdAt: '2026-11-21T11:30:00Z' },
  subscription: {
    endpoint: 'https://push.example.org/send/replaced',
    expirationTime: 1798761600000,
    keys: { p256dh: 'BOther_key-123', auth: 'auth_456' },
  },
  symbols: { code: 'NVDA', entity: 'NVIDIA Corporation' },
};

export const SAMPLE_PROFILE: ProfileInput = {
  displayName: 'Ada Lovelace',
  username: 'ada_l',
  email: 'ada@example.org',
  bio: 'Mathematician. Likes engines.',
  language: 'en',
  interests: ['math', 'poetry'],
};
