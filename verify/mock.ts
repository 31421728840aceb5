/**
 * The embedded mock (server/server.ts) on a free port, with the one asset the contract serves
 * (assets/ui-config.json), and three members signed in at its own provider: grace (the member verify
 * acts as), linus (the other member, who must be refused grace's profile) and ada (the admin, who
 * writes the shared collections; grace must be refused those writes). And the credentials of
 * grace's the API must refuse (refusedAuthorizations), which its provider makes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startServer, type RunningServer } from '../server/index.ts';
import { revokeToken, signInAs, type ClaimChanges, type Tokens } from '../oidc/index.ts';

/** What the embedded mock's build ships as its remote UI configuration (a valid UiConfig). */
const UI_CONFIG = { appTitle: 'Circle', logLevel: 3, defaultLanguage: 'en', defaultTheme: 'INDIGO_PINK' };

/** The audience of an access token for another API than the mock's. */
const ANOTHER_API = 'https://another-api.invalid';

export interface EmbeddedMock {
  /** The API base URL, e.g. `http://127.0.0.1:PORT/api`. */
  baseUrl: string;
  /** grace's `Authorization` header. */
  headers: Array<[string, string]>;
  /** linus's `Authorization` header. */
  otherHeaders: Array<[string, string]>;
  /** ada's (the admin's) `Authorization` header. */
  adminHeaders: Array<[string, string]>;
  /** `Authorization` headers the API must refuse: grace's, as refusedAuthorizations lists them. */
  refusedHeaders: Array<[string, string]>;
  close(): Promise<void>;
}

/**
 * An access token of `member`'s that the API on `server` takes once (its check then remembers it)
 * and that has expired when this returns: within a second, at the turn of the second its `exp`
 * names (a token's times are whole seconds).
 */
async function takenThenExpired(server: RunningServer, member: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const exp = Math.floor(Date.now() / 1000) + 1;
    const token = await server.identityProvider.craftAccessToken(server.url, member, { iat: exp - 1, exp });
    const check = new Request(`${server.url}/api`, { headers: { authorization: `Bearer ${token}` } });
    const taken = await server.authenticate(check).then(
      () => true,
      async (refusal: unknown) => {
        // The second turned between the signing and the check: the next one is whole.
        if (attempt === 1 && refusal instanceof Response) return false;
        throw refusal instanceof Response ? new Error(`The API refused a fresh access token: ${await refusal.text()}`) : refusal;
      },
    );
    if (!taken) continue;
    // A few milliseconds past the turn: a timer's clock and Date's may differ by one.
    await delay(Math.max(0, exp * 1000 - Date.now()) + 5);
    return token;
  }
}

/**
 * The `Authorization` values of `member`'s that the API on `server` must refuse, all made by its own
 * provider: from one sign-in, the ID token as a bearer token (a token for the app, not the API) and
 * the access token revoked at the provider (RFC 7009); and access tokens the provider never issues,
 * signed with its key: one expired, one the API took once and then expired (a check that remembers
 * the tokens it took must still see them expire), one for another API, one without `sub` and one
 * with an empty `sub`.
 */
export async function refusedAuthorizations(server: RunningServer, member: string): Promise<string[]> {
  const craft = (changes: ClaimChanges) => server.identityProvider.craftAccessToken(server.url, member, changes);
  const now = Math.floor(Date.now() / 1000);
  const signIn = async () => {
    const tokens = await signInAs(server.url, member);
    await revokeToken(server.url, tokens.accessToken);
    return tokens;
  };
  const [signedIn, ...crafted] = await Promise.all([
    signIn(),
    craft({ iat: now - 600, exp: now - 300 }),
    takenThenExpired(server, member),
    craft({ aud: ANOTHER_API }),
    craft({ sub: undefined }),
    craft({ sub: '' }),
  ]);
  return [signedIn.idToken, signedIn.accessToken, ...crafted].map((token) => `Bearer ${token}`);
}

export async function startEmbeddedMock(): Promise<EmbeddedMock> {
  const dir = mkdtempSync(join(tmpdir(), 'circle-verify-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets/ui-config.json'), JSON.stringify(UI_CONFIG));
  const server = await startServer({ port: 0, delayMs: 0, distDir: null });
  server.deploy(dir);
  let members: Tokens[];
  let refused: string[];
  try {
    [members, refused] = await Promise.all([
      Promise.all(['grace', 'linus', 'ada'].map((user) => signInAs(server.url, user))),
      refusedAuthorizations(server, 'grace'),
    ]);
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
    refusedHeaders: refused.map((value) => ['Authorization', value]),
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
