import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import {
  appRunning,
  DARK_THEME,
  DESKTOP,
  LIGHT_THEME,
  type Look,
  LOOKS,
  MOBILE,
  presetPreference,
  presetSignedIn,
  seedProfile,
  settled,
  snackbar,
  solidPng,
} from './support/pages';
import { AXE_TAGS, axeViolations } from './support/axe';
import { MAIN_SCREENS, MORE_SCREENS } from './support/main-screens';
import { loadCatalogues } from '../src/index.ts';

/** The words the pages must show, in each language's catalogue. */
const { es, de, fr, 'zh-Hans': zhHans } = await loadCatalogues();

/**
 * axe-core on every screen, light and dark (LOOKS: an accent in a colour scheme), at phone and
 * desktop widths, in every language: no violation of WCAG 2.0/2.1 A and AA, nor of axe's best
 * practices (AXE_TAGS). No rule is disabled.
 */

// Animations off, so that colours are measured at rest (the spinner, the switch's thumb).
test.use({ reducedMotion: 'reduce' });

interface Scenario {
  name: string;
  signedIn?: boolean;
  /** A page of the identity provider, not the app's: it has no theme of the app's. */
  external?: boolean;
  /** Only at this width (the modal drawer exists on phones only). */
  only?: 'mobile' | 'desktop';
  /** Brings the screen to the state to audit, and waits until it is there. */
  open(page: Page, request: APIRequestContext): Promise<void>;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'home',
    async open(page) {
      await page.goto('/home');
      await expect(page.locator('.notification')).toHaveCount(3);
      await expect(page.getByRole('main').getByRole('link', { name: 'Sign in' })).toBeVisible();
    },
  },
  {
    name: 'home, signed in',
    signedIn: true,
    async open(page) {
      await page.goto('/home');
      await expect(page.locator('.notification')).toHaveCount(3);
      await expect(page.getByRole('link', { name: 'Create your profile' })).toBeVisible();
    },
  },
  {
    name: 'the provider’s sign-in page, after a wrong password',
    external: true,
    async open(page) {
      await page.goto('/sign-in');
      await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/oidc\/interaction\//);
      await page.getByLabel('Username').fill('ada');
      await page.getByLabel('Password').fill('wrong');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('alert')).toContainText('do not match');
    },
  },
  {
    name: 'profile: create form (no profile yet)',
    signedIn: true,
    async open(page) {
      await page.goto('/profile');
      await expect(page.getByRole('form', { name: 'Create your profile' })).toBeVisible();
    },
  },
  {
    name: 'profile: card',
    signedIn: true,
    async open(page, request) {
      await seedProfile(request, undefined, solidPng(8, 8));
      await page.goto('/profile');
      const avatar = page.getByRole('img', { name: 'Avatar of Ada Lovelace' });
      await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    },
  },
  {
    name: 'profile: edit form with errors shown',
    signedIn: true,
    async open(page, request) {
      await seedProfile(request);
      await page.goto('/profile');
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Display name').fill('');
      await page.getByLabel('Username').fill('AB');
      await page.getByLabel('Email').fill('not-an-address');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect(page.getByRole('alert')).toHaveText('Please correct 3 fields before saving.');
      await expect(page.getByLabel('Display name')).toBeFocused();
    },
  },
  {
    name: 'settings',
    async open(page) {
      await page.goto('/settings');
      await expect(page.getByRole('switch', { name: 'Push notifications' })).toBeVisible();
    },
  },
  {
    name: 'dashboard',
    async open(page) {
      await page.goto('/dashboard');
      await expect(page.locator('.symbol-code')).toHaveCount(3);
      await expect(page.locator('.notification')).toHaveCount(3);
    },
  },
  {
    name: 'admin: collections',
    signedIn: true,
    async open(page) {
      await page.goto('/admin');
      await expect(page.getByRole('main').getByRole('link', { name: 'symbols' })).toBeVisible();
    },
  },
  {
    name: 'admin: a member is told the page is for admins',
    async open(page) {
      await presetSignedIn(page, 'grace');
      await page.goto('/admin/symbols');
      await expect(page.getByRole('main').getByRole('heading', { name: 'This page is for admins' })).toBeVisible();
    },
  },
  {
    name: 'admin: symbols table, with a snackbar',
    signedIn: true,
    async open(page) {
      await page.goto('/admin/symbols');
      await page.getByRole('button', { name: 'Delete 3' }).click();
      await page.getByRole('dialog', { name: 'Delete record 3?' }).getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
      await expect(snackbar(page)).toHaveText('Record 3 deleted.');
    },
  },
  {
    name: 'admin: a full collection, its New record explained',
    signedIn: true,
    async open(page) {
      await page.goto('/admin/symbols');
      await expect(page.getByRole('button', { name: 'New record' })).toHaveAttribute('aria-disabled', 'true');
    },
  },
  {
    name: 'admin: record form open, with errors on its fields',
    signedIn: true,
    async open(page) {
      await page.goto('/admin/notifications');
      await page.getByRole('button', { name: 'New record' }).click();
      const editor = page.getByRole('dialog', { name: 'New record in notifications' });
      await editor.getByRole('button', { name: 'Save' }).click();
      await expect(editor.getByRole('alert')).toHaveText('Please correct 1 field before saving.');
    },
  },
  {
    name: 'sign-in',
    async open(page) {
      await page.goto('/sign-in?next=%2Fadmin');
      await expect(page.getByText('Sign in to open the admin screens.')).toBeVisible();
    },
  },
  {
    name: '404',
    async open(page) {
      await page.goto('/404');
      await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
    },
  },
  {
    name: 'account menu open',
    signedIn: true,
    async open(page, request) {
      await seedProfile(request);
      await page.goto('/settings');
      await appRunning(page);
      await page.getByRole('banner').getByRole('button', { name: 'Account: Ada Lovelace' }).click();
      await expect(page.locator('#account-menu').getByRole('link', { name: 'Your profile' })).toBeVisible();
    },
  },
  {
    name: 'modal drawer open',
    only: 'mobile',
    async open(page) {
      await page.goto('/settings');
      await appRunning(page);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.getByRole('dialog', { name: 'Main' })).toBeVisible();
    },
  },
];

const VIEWPORTS = { mobile: MOBILE, desktop: DESKTOP } as const;
type Width = keyof typeof VIEWPORTS;
const WIDTHS = Object.keys(VIEWPORTS) as Width[];
const lookName = (look: Look) => `${look.theme} ${look.colorScheme}`;

/**
 * Brings an open screen to another width without reloading it, so that a state reached by clicks
 * (an open dialog, errors shown) is audited at every width. The app follows the width live: its
 * menu button (named `menuButton`; null on a page not the app's) exists below the mobile breakpoint only.
 */
async function resize(page: Page, width: Width, menuButton: string | null): Promise<void> {
  await page.setViewportSize(VIEWPORTS[width]);
  if (menuButton) await expect(page.getByRole('banner').getByRole('button', { name: menuButton })).toHaveCount(width === 'mobile' ? 1 : 0);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * Another look on an open screen, as the app applies one (ui/theme.ts): every theme's colours in
 * both modes are stylesheet rules selected by <html data-theme> and data-color-scheme, so naming
 * them is the whole switch.
 */
async function showLook(page: Page, look: Look): Promise<void> {
  await page.evaluate(({ theme, colorScheme }) => {
    Object.assign(document.documentElement.dataset, { theme, colorScheme });
  }, look);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

const violationsOn = (page: Page): Promise<string[]> => axeViolations(page, { tags: AXE_TAGS });

/*
 * Each screen is opened once, in the first theme at the first width, the way a member gets there;
 * the other widths and themes are then audited on that same page. The result names each look, so
 * a failure says where.
 */
for (const scenario of SCENARIOS) {
  const widths = WIDTHS.filter((w) => !scenario.only || scenario.only === w);
  test(`${scenario.name} · ${LOOKS.map(lookName).join(', ')} · ${widths.join(', ')}`, async ({ page, request }) => {
    await page.setViewportSize(VIEWPORTS[widths[0]!]);
    await presetPreference(page, { activeThemeName: LOOKS[0]!.theme, colorScheme: LOOKS[0]!.colorScheme });
    if (scenario.signedIn) await presetSignedIn(page);
    await scenario.open(page, request);
    if (!scenario.external) await expect(page.locator('html')).toHaveAttribute('data-theme', LOOKS[0]!.theme);
    await settled(page);
    const found: Record<string, string[]> = {};
    for (const width of widths) {
      await resize(page, width, scenario.external ? null : 'Open menu');
      // The provider's pages have no theme of the app's: they follow the device's light or dark.
      if (scenario.external) {
        for (const colorScheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme });
          found[`device ${colorScheme} · ${width}`] = await violationsOn(page);
        }
        continue;
      }
      for (const look of LOOKS) {
        await showLook(page, look);
        found[`${lookName(look)} · ${width}`] = await violationsOn(page);
      }
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((look) => [look, []])));
  });
}

/**
 * Every screen in the other four languages: longer or denser words, another <html lang>, the same
 * rules, light and dark. The language is stored in the preference before the first load.
 */
const LANGUAGE_LOOKS = [LOOKS[0]!, LOOKS.at(-1)!];
for (const [lang, m] of [
  ['es', es],
  ['de', de],
  ['fr', fr],
  ['zh-Hans', zhHans],
] as const) {
  for (const scenario of [...MAIN_SCREENS, ...MORE_SCREENS]) {
    test(`${scenario.name} · ${lang} · ${LANGUAGE_LOOKS.map(lookName).join(', ')} · ${WIDTHS.join(', ')}`, async ({ page }) => {
      await page.setViewportSize(VIEWPORTS[WIDTHS[0]!]);
      await presetPreference(page, { language: lang, activeThemeName: LIGHT_THEME, colorScheme: 'light' });
      if (scenario.signedIn) await presetSignedIn(page);
      await scenario.open(page, m, page.request);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await settled(page);
      const found: Record<string, string[]> = {};
      for (const width of WIDTHS) {
        await resize(page, width, m['nav.openMenu']);
        for (const look of LANGUAGE_LOOKS) {
          await showLook(page, look);
          found[`${lookName(look)} · ${width}`] = await violationsOn(page);
        }
      }
      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((look) => [look, []])));
    });
  }
}

/*
 * A member who asks for less motion gets none: no transition at all, not a very short one. A short
 * one would still animate every property that changes (a transition's initial property is `all`),
 * so a theme switch would paint the old colours for a frame, and a check of the colours made in
 * that frame (axe's, above) would read them.
 */
test('with reduced motion, a theme switch starts no transition: the new colours are there at once', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await presetPreference(page, { activeThemeName: LIGHT_THEME, colorScheme: 'light' });
  await page.goto('/home');
  await appRunning(page);
  await settled(page);
  const after = await page.evaluate((theme) => {
    Object.assign(document.documentElement.dataset, { theme, colorScheme: 'dark' });
    const link = document.querySelector('.topbar__brand > span');
    return {
      transitions: document.getAnimations().filter((a) => a instanceof CSSTransition).length,
      linkColour: link ? getComputedStyle(link).color : null,
    };
  }, DARK_THEME);
  // The dark theme's bar is pink, with black text on it (white would read at 4.34:1 only).
  expect(after).toEqual({ transitions: 0, linkColour: 'rgb(0, 0, 0)' });
});

/* The check itself: a page with three known faults gets each of them reported, and `include` narrows it. */
test('the axe check reports what is wrong, and only inside what it is given', async ({ page }) => {
  await page.setContent(
    '<html lang="en"><title>Faults</title><main><h1>Faults</h1><img src="data:,"><p style="color:#777;background:#888">faint</p><button></button></main></html>',
  );
  const rules = (lines: string[]) => lines.map((line) => line.split(' ')[0]);
  expect(rules(await axeViolations(page, { tags: AXE_TAGS }))).toEqual(['button-name', 'color-contrast', 'image-alt']);
  expect(rules(await axeViolations(page, { include: 'main button' }))).toEqual(['button-name']);
});
