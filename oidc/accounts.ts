/**
 * The embedded provider's members. They exist so that a developer, a test or a demo can sign in
 * as different people; docs/accounts.md and docs/security.md list them. Every one has the password `circle`. ada is
 * the admin: she may write the shared collections and run commands; grace and linus are members.
 */
import { timingSafeEqual } from 'node:crypto';

export interface Account {
  /** The subject (`sub`) of this member's tokens, and the name typed at sign-in. */
  id: string;
  name: string;
  email: string;
  /** The `roles` claim of this member's ID and access tokens. */
  roles: readonly Role[];
}

/** `admin` writes the shared collections and runs commands (openapi.yaml, Roles); every member has `member`. */
export type Role = 'member' | 'admin';

export const ACCOUNTS: readonly Account[] = [
  { id: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org', roles: ['member', 'admin'] },
  { id: 'grace', name: 'Grace Hopper', email: 'grace@circle.example.org', roles: ['member'] },
  { id: 'linus', name: 'Linus Pauling', email: 'linus@circle.example.org', roles: ['member'] },
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
