/**
 * The embedded mock (server/server.ts) on a free port, with the one asset the contract serves
 * (assets/ui-config.json), and three members signed in at its own provider: grace (the member verify
 * acts as), linus (the other member, who must be refused grace's profile) and ada (the admin, who
 * writes the shared collections; grace must be refused those writes).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../server/index.ts';
import { signInAs } from '../oidc/index.ts';

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
  close(): Promise<void>;
}

export async function startEmbeddedMock(): Promise<EmbeddedMock> {
  const dir = mkdtempSync(join(tmpdir(), 'circle-verify-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets/ui-config.json'), JSON.stringify(UI_CONFIG));
  const server = await startServer({ port: 0, delayMs: 0, distDir: null });
  server.deploy(dir);
  let members: Array<[string, string]>[];
  try {
    members = await Promise.all(
      ['grace', 'linus', 'ada'].map(
        async (user) => [['Authorization', (await signInAs(server.url, user)).authorization]] as Array<[string, string]>,
      ),
    );
  } catch (error) {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    baseUrl: `${server.url}/api`,
    headers: members[0]!,
    otherHeaders: members[1]!,
    adminHeaders: members[2]!,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
