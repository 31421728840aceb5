/**
 * `npm run contact-sheet`: a contact sheet for review. Serves the build with the mock API, opens
 * every screen at phone and desktop width, in a light and a dark theme, in every language (set
 * before the load as the app keeps them, localStorage `preference`), signed in where the screen
 * needs it, and writes each whole page as WebP with one index.html (./page.ts) into contact-sheet/.
 * What is shot: ./plan.ts. `--help` lists the options.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { type Language, loadCatalogues, type Messages, PREFERENCE_KEY, type ProfileInput } from '../../src/index.ts';
import { sheetHtml, type ShotResult } from './page.ts';
import { OVERVIEW, writeOverview } from './overview.ts';
import {
  type Member,
  MEMBERS,
  parseArgs,
  preferenceOf,
  type ProfileConflictSetup,
  type Shot,
  type SheetOptions,
  shotsFor,
  usage,
  UsageError,
} from './plan.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** Shots taken at once: the machine's two cores share them with the server. */
const CONCURRENCY = 2;

function fail(message: string): never {
  console.error(`contact-sheet: ${message}`);
  process.exit(1);
}

function readOptions(): SheetOptions {
  try {
    const parsed = parseArgs(process.argv.slice(2));
    if (parsed.help) {
      console.log(usage());
      process.exit(0);
    }
    return parsed.options;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`contact-sheet: ${error.message}`);
    process.exit(2);
  }
}

const hasCjkFont = () => {
  const found = spawnSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '';
};

/** Chinese in boxes is no review: installs Debian's fonts-noto-cjk as .ci/run installs chromium, or stops. */
function ensureCjkFont(): void {
  if (hasCjkFont()) return;
  const sudo = process.getuid?.() !== 0 && spawnSync('sudo', ['--version']).status === 0;
  const commands = [
    ['apt-get', 'update'],
    ['apt-get', 'install', '-y', 'fonts-noto-cjk'],
  ];
  const shown = commands.map((c) => `${sudo ? 'sudo ' : ''}${c.join(' ')}`).join(' && ');
  console.log(`contact-sheet: no Chinese font (fc-list :lang=zh lists none): installing Debian's fonts-noto-cjk: ${shown}`);
  for (const command of commands) {
    const [file, ...args] = sudo ? ['sudo', 'DEBIAN_FRONTEND=noninteractive', ...command] : command;
    const ran = spawnSync(file!, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (ran.status !== 0) break;
  }
  if (!hasCjkFont()) {
    fail(
      `no Chinese font, and installing one failed: run \`sudo ${commands.map((c) => c.join(' ')).join(' && sudo ')}\`, or leave Chinese out (--languages en,es,de,fr)`,
    );
  }
}

/** A build to serve: the one in `dist`, or a fresh one there when it has none (as `npm start` builds). */
function ensureBuild(dist: string): void {
  if (existsSync(join(dist, 'index.html'))) return;
  console.log(`contact-sheet: no build in ${relative(ROOT, dist) || '.'}: building it`);
  const vite = resolve(ROOT, 'node_modules/vite/bin/vite.js');
  const built = spawnSync(process.execPath, [vite, 'build', '--outDir', dist, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) fail(`the build into ${dist} failed`);
}

/** A picture for a member's profile: a few circles, no text (no font needed). */
function avatarSvg(): Buffer {
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="#3F51B5"/>' +
      '<circle cx="128" cy="104" r="52" fill="#FFC107"/><circle cx="128" cy="256" r="96" fill="#E91E63"/></svg>',
  );
}

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

/**
 * `member`'s session as a finished sign-in leaves it on the device (src/api/session-store.ts: the
 * tokens in IndexedDB, and the `auth.isLoggedIn` flag), taken as a storage state every shot starts
 * from. Tokens from the embedded provider (testkit's sessionOf), without its pages.
 */
async function signedInState(browser: Browser, origin: string, member: Member): Promise<StorageState> {
  const { sessionOf, storeSession } = await import('../../testkit/index.ts');
  const session = await sessionOf(origin, member);
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    // A same-origin document that starts no app: its storage is the app's.
    await page.goto(`${origin}/manifest.webmanifest`);
    await storeSession(page, session);
    return await context.storageState({ indexedDB: true });
  } finally {
    await context.close();
  }
}

/** The member's authorization header, from the embedded provider. */
async function authorizationOf(origin: string, member: Member): Promise<string> {
  const { signInAs } = await import('../../testkit/index.ts');
  return (await signInAs(origin, member)).authorization;
}

/** A profile for `member`, created through the API as the app sends it (multipart, with an avatar). */
async function createProfile(origin: string, member: Member, profile: ProfileInput, avatar: Buffer): Promise<void> {
  const form = new FormData();
  for (const [name, value] of Object.entries(profile)) form.set(name, Array.isArray(value) ? value.join(',') : String(value));
  form.set('avatar', new Blob([new Uint8Array(avatar)], { type: 'image/png' }), 'avatar.png');
  const answer = await fetch(`${origin}/api/user/profile`, {
    method: 'POST',
    headers: { authorization: await authorizationOf(origin, member) },
    body: form,
  });
  if (answer.status !== 201) throw new Error(`creating ${member}'s profile answered ${answer.status}: ${await answer.text()}`);
}

/**
 * The conflict as a member meets it: on `state`'s device the profile's edit form is opened and
 * `conflict.mine` typed, the other device saves `conflict.theirs` (the API, If-Match: *), and the
 * save is refused (412). The app keeps the refused save on the device until the member chooses, so
 * the storage state returned brings the same conflict back on every load, with nothing sent again.
 */
async function conflictState(
  browser: Browser,
  origin: string,
  member: Member,
  state: StorageState,
  conflict: ProfileConflictSetup,
  m: Messages,
): Promise<StorageState> {
  const authorization = await authorizationOf(origin, member);
  const context = await browser.newContext({ serviceWorkers: 'block', storageState: state });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${origin}/profile`);
    await page.getByRole('main').getByRole('button', { name: m['common.edit'], exact: true }).click();
    const form = page.getByRole('form', { name: m['profile.editTitle'] });
    for (const field of Object.keys(conflict.mine) as (keyof ProfileConflictSetup['mine'])[]) {
      await form.getByLabel(m[`field.${field}`], { exact: true }).fill(conflict.mine[field]!);
    }
    const profile = (await (await fetch(`${origin}/api/user/profile/myprofile`, { headers: { authorization } })).json()) as { id: string };
    const elsewhere = await fetch(`${origin}/api/user/profile/${profile.id}`, {
      method: 'PATCH',
      headers: { authorization, 'if-match': '*', 'content-type': 'application/json' },
      body: JSON.stringify(conflict.theirs),
    });
    if (elsewhere.status !== 200) throw new Error(`the other device's save answered ${elsewhere.status}: ${await elsewhere.text()}`);
    await form.getByRole('button', { name: m['profile.save'], exact: true }).click();
    await page.locator('#profile-conflict').waitFor();
    return await context.storageState({ indexedDB: true });
  } finally {
    await context.close();
  }
}

/** Each member's device as the shots start from it: profiles made, signed in, a conflict left where the plan has one. */
async function memberStates(
  browser: Browser,
  origin: string,
  members: ReadonlySet<Member>,
  avatar: Buffer,
  english: Messages,
): Promise<Map<Member, StorageState>> {
  const states = new Map<Member, StorageState>();
  for (const member of members) {
    const { profile, conflict } = MEMBERS[member];
    const made = profile === 'sample' ? (await import('../../testkit/index.ts')).SAMPLE_PROFILE : profile;
    if (made) await createProfile(origin, member, made, avatar);
    const signedIn = await signedInState(browser, origin, member);
    states.set(member, conflict ? await conflictState(browser, origin, member, signedIn, conflict, english) : signedIn);
  }
  return states;
}

/** `state` with the shot's preference stored for `origin`, before the first load. */
function withPreference(state: StorageState | undefined, origin: string, shot: Shot): StorageState {
  const origins = state?.origins ?? [];
  const own = origins.find((o) => o.origin === origin) ?? { origin, localStorage: [] };
  const localStorage = [
    ...own.localStorage.filter((item) => item.name !== PREFERENCE_KEY),
    { name: PREFERENCE_KEY, value: preferenceOf(shot) },
  ];
  return { cookies: state?.cookies ?? [], origins: [...origins.filter((o) => o !== own), { ...own, localStorage }] };
}

/** The page has settled: the app runs (the top bar keeps the variant that fits), nothing is loading, the heading is there, and the fonts. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('.only-wide, .only-narrow, main [aria-busy="true"], main .state--loading, .screen-loading') === null &&
      document.querySelector('main h1') !== null,
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForLoadState('networkidle');
}

/**
 * Opens the shot's screen in a fresh context, waits until it has settled (and, for a state one press
 * away, presses and waits again), and returns the whole page and the first screenful (for the
 * overview), as PNG.
 */
async function screenshot(
  browser: Browser,
  origin: string,
  shot: Shot,
  state: StorageState | undefined,
  messages: Readonly<Record<Language, Messages>>,
): Promise<{ whole: Buffer; first: Buffer }> {
  const context = await browser.newContext({
    viewport: { width: shot.viewport.width, height: shot.viewport.height },
    deviceScaleFactor: 1,
    colorScheme: shot.theme.mode,
    locale: shot.language,
    reducedMotion: 'reduce',
    // The first install would only add work; the app goes on without a worker.
    serviceWorkers: 'block',
    storageState: withPreference(state, origin, shot),
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${origin}${shot.screen.path}`, { waitUntil: 'networkidle' });
    await settled(page);
    const { press, shows } = shot.screen;
    if (press) await page.getByRole('main').getByRole('button', { name: messages[shot.language][press], exact: true }).click();
    if (shows) await page.locator(shows).first().waitFor();
    if (press || shows) await settled(page);
    const first = await page.screenshot({ animations: 'disabled', caret: 'hide' });
    // The whole page in one frame: the viewport made as tall as the page, so what is fixed to its
    // foot (the phone's tab bar) is drawn there, as a member who scrolled down sees it; a full-page
    // capture would leave it across the page, where the first screen ends.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    if (height > shot.viewport.height) {
      await page.setViewportSize({ width: shot.viewport.width, height });
      await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    }
    return { whole: await page.screenshot({ animations: 'disabled', caret: 'hide' }), first };
  } finally {
    await context.close();
  }
}

async function main(): Promise<number> {
  const options = readOptions();
  const out = resolve(options.out);
  const dist = resolve(options.dist);
  if (options.languages.includes('zh-Hans')) ensureCjkFont();
  ensureBuild(dist);

  const started = performance.now();
  const { default: sharp } = await import('sharp');
  const { chromium } = await import('@playwright/test');
  const { startServer } = await import('../../server/index.ts');
  const { CHROMIUM_ARGS, CHROMIUM_PATH } = await import('../../playwright.config.ts');

  const shots = shotsFor(options.screens, options.languages);
  mkdirSync(out, { recursive: true });
  // Only what an earlier sheet wrote: the directory may hold anything else.
  for (const file of readdirSync(out)) if (file.endsWith('.webp') || file === 'index.html') rmSync(join(out, file));

  const server = await startServer({ port: 0, delayMs: 0, distDir: dist, accessTokenTtl: 3600 });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results: ShotResult[] = [];
  // The first language's first screens make the overview.
  const firstScreens = new Map<Shot, Buffer>();
  try {
    const members = new Set(options.screens.flatMap((s) => (s.as ? [s.as] : [])));
    const messages = await loadCatalogues();
    const states = await memberStates(browser, server.url, members, await sharp(avatarSvg()).png().toBuffer(), messages.en);

    let next = 0;
    const worker = async () => {
      while (next < shots.length) {
        const index = next++;
        const shot = shots[index]!;
        try {
          const { whole, first } = await screenshot(
            browser,
            server.url,
            shot,
            shot.screen.as ? states.get(shot.screen.as) : undefined,
            messages,
          );
          const info = await sharp(whole).webp({ quality: 80 }).toFile(join(out, shot.file));
          if (shot.language === options.languages[0]) firstScreens.set(shot, first);
          results[index] = { shot, width: info.width, height: info.height };
          console.log(`[${index + 1}/${shots.length}] ${shot.file}`);
        } catch (error) {
          const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
          results[index] = { shot, error: message };
          console.error(`[${index + 1}/${shots.length}] ${shot.file}: not taken: ${message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    await browser.close();
    await server.close();
  }

  const seconds = (performance.now() - started) / 1000;
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() || null;
  // In the shots' order, whatever order the two workers took them in.
  await writeOverview(
    sharp,
    new Map(shots.flatMap((shot) => (firstScreens.has(shot) ? [[shot, firstScreens.get(shot)!]] : []))),
    join(out, OVERVIEW),
  );
  writeFileSync(join(out, 'index.html'), sheetHtml(results, { date: new Date().toISOString(), commit, seconds }));
  const failed = results.filter((r) => 'error' in r).length;
  console.log(
    `contact-sheet: ${results.length - failed} of ${shots.length} shots in ${seconds.toFixed(0)} s: ${relative(process.cwd(), join(out, 'index.html'))}`,
  );
  return failed === 0 ? 0 : 1;
}

process.exit(await main());
