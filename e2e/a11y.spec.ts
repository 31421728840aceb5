import type { Page } from '@playwright/test';
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
  settled,
} from './support/pages';
import { AXE_TAGS, axeViolations } from './support/axe';
import { MAIN_SCREENS, MORE_SCREENS } from './support/main-screens';
import { type Language, LANGUAGES, loadCatalogues } from '../src/index.ts';

/** The words the pages must show, in each language's catalogue. */
const CATALOGUES = await loadCatalogues();

/**
 * axe-core on every screen, in every language, light and dark (LOOKS: an accent in a colour
 * scheme), at phone and desktop widths: no violation of WCAG 2.0/2.1 A and AA, nor of axe's best
 * practices (AXE_TAGS). No rule is disabled.
 */

// Animations off, so that colours are measured at rest (the spinner, the switch's thumb).
test.use({ reducedMotion: 'reduce' });

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

const [LIGHT, DARK, PINK_DARK] = LOOKS as [Look, Look, Look];
/**
 * The looks each language is checked in, at each width. English: every look at both. Each other
 * language: one look a width, light at one and dark at the other, swapped from one language to the
 * next. So every language sees every screen light and dark, and at each width every screen is seen
 * in every look, for a quarter of the checks (a check costs little; opening the screen, most).
 */
const LANGUAGE_LOOKS: Record<Language, Record<Width, readonly Look[]>> = {
  en: { mobile: LOOKS, desktop: LOOKS },
  es: { mobile: [LIGHT], desktop: [DARK] },
  de: { mobile: [PINK_DARK], desktop: [LIGHT] },
  fr: { mobile: [DARK], desktop: [LIGHT] },
  'zh-Hans': { mobile: [LIGHT], desktop: [PINK_DARK] },
};

/*
 * Each screen is opened once per language, in its first look at its first width, the way a member
 * gets there (the language and the look stored in the preference before the first load); the other
 * widths and looks are then checked on that same page, and so is its second state if it has one.
 * The result names each state and look, so a failure says where.
 */
for (const lang of LANGUAGES) {
  const m = CATALOGUES[lang];
  for (const scenario of [...MAIN_SCREENS, ...MORE_SCREENS]) {
    const widths = WIDTHS.filter((w) => !scenario.only || scenario.only === w);
    const looks = (width: Width) => LANGUAGE_LOOKS[lang][width];
    // The provider's pages have no theme of the app's: they follow the device's light or dark.
    const schemes = (width: Width) => [...new Set(looks(width).map((look) => look.colorScheme))];
    const named = widths.map((w) => `${w}: ${scenario.external ? schemes(w).join(', ') : looks(w).map(lookName).join(', ')}`);
    const next = scenario.next ? `, then ${scenario.next.name}` : '';
    test(`${scenario.name}${next} · ${lang} · ${named.join(' · ')}`, async ({ page, request }) => {
      const found: Record<string, string[]> = {};
      /** The state on screen, checked at every width in each of its looks; `state` names it in the result. */
      const check = async (state: string) => {
        await settled(page);
        for (const width of widths) {
          await resize(page, width, scenario.external ? null : m['nav.openMenu']);
          if (scenario.external) {
            for (const colorScheme of schemes(width)) {
              await page.emulateMedia({ colorScheme });
              found[`${state} · device ${colorScheme} · ${width}`] = await violationsOn(page);
            }
            continue;
          }
          for (const look of looks(width)) {
            await showLook(page, look);
            found[`${state} · ${lookName(look)} · ${width}`] = await violationsOn(page);
          }
        }
      };
      const first = looks(widths[0]!)[0]!;
      await page.setViewportSize(VIEWPORTS[widths[0]!]);
      await presetPreference(page, { language: lang, activeThemeName: first.theme, colorScheme: first.colorScheme });
      if (scenario.signedIn) await presetSignedIn(page);
      await scenario.open(page, m, request, lang);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      if (!scenario.external) await expect(page.locator('html')).toHaveAttribute('data-theme', first.theme);
      await check(scenario.name);
      if (scenario.next) {
        await scenario.next.reach(page, m);
        await check(scenario.next.name);
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
