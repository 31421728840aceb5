import { deflateSync } from 'node:zlib';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './fixtures';
import { bearerOf, seedSession } from './sign-in';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const MOBILE = { width: 390, height: 844 } as const;

export const LIGHT_THEME = 'INDIGO_PINK';
export const DARK_THEME = 'PINK_BLUEGREY';

/** An accent in a colour scheme, as the settings choose them (the seed's themes are four of these). */
export interface Look {
  theme: string;
  colorScheme: 'light' | 'dark';
}
/** The default accent in light and in dark (what a first visit gets from the device), and the seed's pink dark theme. */
export const LOOKS: readonly Look[] = [
  { theme: LIGHT_THEME, colorScheme: 'light' },
  { theme: LIGHT_THEME, colorScheme: 'dark' },
  { theme: DARK_THEME, colorScheme: 'dark' },
];

/* ------------------------------------------------------------------ PNG from bytes */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid RGB PNG of one colour, built from its bytes (signature, IHDR, IDAT, IEND). */
export function solidPng(width = 2, height = 2, rgb: [number, number, number] = [63, 81, 181]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/* ------------------------------------------------------------------ state set up before load */

export interface ProfileSeed {
  displayName: string;
  username: string;
  email: string;
  bio?: string;
  language?: 'en' | 'es' | 'de' | 'fr' | 'zh-Hans';
  interests?: string[];
}

export const ADA: ProfileSeed = {
  displayName: 'Ada Lovelace',
  username: 'ada_l',
  email: 'ada@example.org',
  bio: 'Notes on the analytical engine.',
  language: 'en',
  interests: ['maths', 'poetry'],
};

/**
 * Creates the member's profile through the mock API, as an earlier session would have: as JSON,
 * or as the app sends it (multipart, with an avatar image) when an avatar is given.
 */
export async function seedProfile(
  request: APIRequestContext,
  profile: ProfileSeed = ADA,
  avatar?: Buffer,
  user = 'ada',
): Promise<{ id: string; avatar: string | null }> {
  const headers = { authorization: await bearerOf(request, user) };
  const response = avatar
    ? await request.post('/api/user/profile', {
        headers,
        multipart: {
          ...Object.fromEntries(Object.entries(profile).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)])),
          avatar: { name: 'avatar.png', mimeType: 'image/png', buffer: avatar },
        },
      })
    : await request.post('/api/user/profile', { headers, data: profile });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; avatar: string | null };
}

/** Stores preferences before the app starts (on every load of this page). */
export async function presetPreference(
  page: Page,
  preference: { language?: string; activeThemeName?: string; enableNotifications?: boolean; colorScheme?: string },
): Promise<void> {
  const value = JSON.stringify({ language: 'en', activeThemeName: LIGHT_THEME, enableNotifications: false, ...preference });
  await page.addInitScript((v) => localStorage.setItem('preference', v), value);
}

/** Starts ada's session on the device before the test opens its screen (see `seedSession`). */
export async function presetSignedIn(page: Page, user = 'ada'): Promise<void> {
  await seedSession(page, user);
}

/* ------------------------------------------------------------------ screen helpers */

/**
 * The app's code runs over the prerendered page: the top bar keeps only the variant that fits
 * (the HTML carries both). Until then a prerendered button or field is inert, so a test that acts on
 * one right after loading a prerendered route waits for this first.
 */
export async function appRunning(page: Page): Promise<void> {
  await expect(page.locator('.only-wide, .only-narrow')).toHaveCount(0);
}

/** The current screen's level-1 heading, inside main. */
export function screenHeading(page: Page): Locator {
  return page.getByRole('main').getByRole('heading', { level: 1 });
}

export function snackbar(page: Page): Locator {
  return page.getByTestId('snackbar');
}

/** Resolves once no panel of the screen is loading any more. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator('main [aria-busy="true"], main .state--loading, .screen-loading')).toHaveCount(0);
}

/**
 * Console errors other than the expected ones. A refused API call logs two lines that the app
 * means to log: the browser's "Failed to load resource … status of N" and the app's
 * "Backend Error ! N, …" line (the seed's error interceptor).
 */
export function unexpectedErrors(errors: readonly string[], expectedStatuses: readonly number[] = []): string[] {
  return errors.filter(
    (line) => !expectedStatuses.some((status) => line.includes(`status of ${status}`) || line.startsWith(`Backend Error ! ${status},`)),
  );
}

export async function localStorageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

/**
 * Interface texts on the page that are still the English message although the page is in another
 * language: headings, labels, buttons, links, options, hints and badges, and the aria-label, title,
 * alt and placeholder attributes. Content from the API (notification titles and bodies) is left out,
 * and so are the messages that are rightly the same in both catalogues.
 */
export async function untranslatedTexts(
  page: Page,
  english: Record<string, string>,
  translated: Record<string, string>,
): Promise<string[]> {
  const same = new Set(Object.keys(english).filter((key) => english[key] === translated[key]));
  const englishOnly = Object.entries(english)
    .filter(([key, value]) => !same.has(key) && !value.includes('{'))
    .map(([, value]) => value);
  const seen = await page.evaluate(() => {
    const texts: string[] = [];
    const selector = 'h1, h2, h3, label, legend, button, a, option, p, li, .badge, .field__hint, th, [role="alert"], [role="status"]';
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (el.closest('.notification__title, .notification__body')) continue;
      texts.push((el.textContent ?? '').replace(/\s+/g, ' ').trim());
    }
    for (const el of document.querySelectorAll<HTMLElement>('[aria-label], [title], [alt], [placeholder]')) {
      for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
        const value = el.getAttribute(name);
        if (value) texts.push(value.trim());
      }
    }
    texts.push(document.title);
    return texts;
  });
  const leftovers = new Set(englishOnly);
  return [...new Set(seen.filter((text) => leftovers.has(text)))];
}

/** Holds the app's code back until `release()`: what shows meanwhile is the HTML alone. */
export async function holdScripts(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/(index|core)-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
