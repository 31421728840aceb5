/**
 * The embedded provider's members. They exist so that a developer, a test or a demo can sign in
 * as two different people; docs/accounts.md lists them. Every one has the password `circle`.
 */
import { timingSafeEqual } from 'node:crypto';

export interface Account {
  /** The subject (`sub`) of this member's tokens, and the name typed at sign-in. */
  id: string;
  name: string;
  email: string;
}

export const ACCOUNTS: readonly Account[] = [
  { id: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org' },
  { id: 'grace', name: 'Grace Hopper', email: 'grace@circle.example.org' },
  { id: 'linus', name: 'Linus Pauling', email: 'linus@circle.example.org' },
];

export const DEMO_PASSWORD = 'circle';

export function findAccount(id: string): Account | undefined {
  return ACCOUNTS.find((account) => account.id === id);
}

/** The account these credentials name, or undefined; the comparison takes the same time for any wrong password. */
export function checkCredentials(username: string, password: string): Account | undefined {
  const account = findAccount(username.trim().toLowerCase());
  const given = Buffer.from(password);
  const expected = Buffer.from(DEMO_PASSWORD);
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  return account && same ? account : undefined;
}
