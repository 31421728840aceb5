/**
 * The embedded mock (server/server.ts) on a free port, with the one asset the contract serves
 * (assets/ui-config.json), and three members signed in at its own provider: grace (the member verify
 * acts as), linus (the other member, who must be refused grace's profile) and ada (the admin, who
 * writes the shared collections; grace must be refused those writes). And the credentials the API
 * must refuse that its provider can make over HTTP: grace's ID token as a bearer token (a token for
 * the app, not the API), and an access token of hers revoked at the provider.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../server/index.ts';
import { revokeToken, signInAs, type Tokens } from '../oidc/index.ts';

/** What the embedded mock's build ships as its remote UI configuration (a valid UiConfig). */
const UI_CONFIG = { appTitle: 'Circle', logLevel: 3, defaultLanguage: 'en', defaultTheme: 'INDIGO_PINK' };

export interface EmbeddedMock {
  /** The API base URL, e.g. `http://127.0.0.1:PORT/api`. */
  baseUrl: string;
  /** grace's `Authorization` header. */
  headers: Array<[string, string]>;
  /** linus's `Authorization` header. */
  otherHeaders: Array<[string, string]>;
  /** ada's (the admin's) `Authorization` header. */
  adminHeaders: Array<[string, string]>;
  /** `Authorization` headers the API must refuse: grace's ID token, and a revoked access token of hers. */
  refusedHeaders: Array<[string, string]>;
  close(): Promise<void>;
}

export async function startEmbeddedMock(): Promise<EmbeddedMock> {
  const dir = mkdtempSync(join(tmpdir(), 'circle-verify-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets/ui-config.json'), JSON.stringify(UI_CONFIG));
  const server = await startServer({ port: 0, delayMs: 0, distDir: null });
  server.deploy(dir);
  let members: Tokens[];
  let revoked: Tokens;
  try {
    [members, revoked] = await Promise.all([
      Promise.all(['grace', 'linus', 'ada'].map((user) => signInAs(server.url, user))),
      signInAs(server.url, 'grace'),
    ]);
    await revokeToken(server.url, revoked.accessToken);
  } catch (error) {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl: `${server.url}/api`,
    headers: [['Authorization', members[0]!.authorization]],
    otherHeaders: [['Authorization', members[1]!.authorization]],
    adminHeaders: [['Authorization', members[2]!.authorization]],
    refusedHeaders: [
      ['Authorization', `Bearer ${members[0]!.idToken}`],
      ['Authorization', revoked.authorization],
    ],
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
