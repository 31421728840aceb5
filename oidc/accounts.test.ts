// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';

/** The members are a table made when the module loads: each test loads it afresh so it sees the module as it is now. */
async function load() {
  vi.resetModules();
  return import('./accounts.ts');
}

describe('the demo members', () => {
  it('are the three the docs list, each with the password circle; ada is the one admin', async () => {
    const { ACCOUNTS, DEMO_PASSWORD } = await load();
    expect(ACCOUNTS).toEqual([
      { id: 'ada', name: 'Ada Lovelace', email: 'ada@circle.example.org', roles: ['member', 'admin'] },
      { id: 'grace', name: 'Grace Hopper', email: 'grace@circle.example.org', roles: ['member'] },
      { id: 'linus', name: 'Linus Pauling', email: 'linus@circle.example.org', roles: ['member'] },
    ]);
    expect(DEMO_PASSWORD).toBe('circle');
  });

  it('are found by their id, and no one else is', async () => {
    const { findAccount } = await load();
    expect(findAccount('grace')?.name).toBe('Grace Hopper');
    expect(findAccount('Grace')).toBeUndefined();
    expect(findAccount('')).toBeUndefined();
  });
});

describe('signing in with a username and password', () => {
  it('each member signs in with circle; the username may differ in case and have spaces around it', async () => {
    const { checkCredentials } = await load();
    expect(checkCredentials('ada', 'circle')?.email).toBe('ada@circle.example.org');
    expect(checkCredentials('linus', 'circle')?.id).toBe('linus');
    expect(checkCredentials('  Grace ', 'circle')?.id).toBe('grace');
    expect(checkCredentials('ADA\t', 'circle')?.id).toBe('ada');
  });

  it('a wrong password, one of another length or case, or an unknown name signs no one in', async () => {
    const { checkCredentials } = await load();
    expect(checkCredentials('ada', 'circlf')).toBeUndefined();
    expect(checkCredentials('ada', 'Circle')).toBeUndefined();
    expect(checkCredentials('ada', 'circle ')).toBeUndefined();
    expect(checkCredentials('ada', '')).toBeUndefined();
    expect(checkCredentials('alan', 'circle')).toBeUndefined();
    expect(checkCredentials('', 'circle')).toBeUndefined();
  });
});
