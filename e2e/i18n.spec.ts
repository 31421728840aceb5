import type { Page } from '@playwright/test';
import { test, expect, waitForServiceWorker } from './support/fixtures';
import { MOBILE, localStorageItem, presetSignedIn, screenHeading, seedProfile, settled, solidPng } from './support/pages';
import { DRAWER_OPEN, FULL_COLLECTION, type LanguageScreen, MAIN_SCREENS } from './support/main-screens';
import { loadCatalogues } from '../src/index.ts';

/** The words the pages must show, in each language's catalogue. */
const { en, de, fr, 'zh-Hans': zhHans } = await loadCatalogues();

/** Stores the language before the first load, as a member's earlier choice; a later choice is kept. */
async function presetLanguage(page: Page, language: string): Promise<void> {
  await page.addInitScript((lang) => {
    if (localStorage.getItem('preference') === null) {
      localStorage.setItem('preference', JSON.stringify({ language: lang, activeThemeName: 'INDIGO_PINK', enableNotifications: false }));
    }
  }, language);
}

/**
 * What sticks out at the current width: a page wider than the viewport, any visible element
 * outside it, and any box whose content is wider than the box (text cut or spilling over) unless
 * the box scrolls on purpose.
 */
async function overflows(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    const width = root.clientWidth;
    if (root.scrollWidth > width) found.push(`the page is ${root.scrollWidth}px wide in a ${width}px viewport`);
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      // Words for screen readers only hold their text in one pixel by design.
      if (el.closest('dialog:not([open]), [hidden], [aria-hidden="true"], svg, .skip-link, .visually-hidden')) continue;
      // Inside a box that scrolls sideways on purpose (a wide table), only the box itself counts.
      let scroller = el.parentElement;
      while (scroller && !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (scroller && scroller !== document.body && scroller !== root) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || style.position === 'fixed') continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 1 || box.left < -1) found.push(`${name(el)} reaches ${Math.round(box.left)}…${Math.round(box.right)}px`);
      const scrolls = ['auto', 'scroll'].includes(style.overflowX);
      if (!scrolls && style.display !== 'inline' && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${name(el)} holds ${el.scrollWidth}px in ${el.clientWidth}px`);
      }
    }
    return found;
  });
}

const SCREENS: LanguageScreen[] = [
  ...MAIN_SCREENS,
  {
    name: 'profile-card',
    signedIn: true,
    async open(page, m, request) {
      await seedProfile(
        request,
        {
          displayName: 'Marie-Amélie de La Rochefoucauld-Liancourt',
          username: 'marie_amelie_rochefo',
          email: 'marie-amelie.delarochefoucauld-liancourt@universite-exemple.fr',
          bio: 'Passionnée d’informatique théorique et d’histoire des sciences.',
          language: 'fr',
          interests: ['informatique-théorique', 'épistémologie', 'calligraphie'],
        },
        solidPng(8, 8),
      );
      await page.goto('/profile');
      await expect(page.getByRole('button', { name: m['profile.delete'] })).toBeVisible();
    },
  },
  FULL_COLLECTION,
  DRAWER_OPEN,
];

test.describe('long texts at 390px', () => {
  for (const [lang, m] of [
    ['fr', fr],
    ['zh-Hans', zhHans],
  ] as const) {
    for (const screen of SCREENS) {
      test(`${lang} · ${screen.name}: nothing overflows the phone's width`, async ({ page, request }, testInfo) => {
        await page.setViewportSize(MOBILE);
        await presetLanguage(page, lang);
        if (screen.signedIn) await presetSignedIn(page);
        await screen.open(page, m, request, lang);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await settled(page);
        await page.screenshot({ path: testInfo.outputPath(`${lang}-${screen.name}.png`), fullPage: true });
        expect(await overflows(page)).toEqual([]);
      });
    }
  }
});

test.describe("a first visit speaks the browser's language", () => {
  for (const [locale, lang, heading] of [
    ['fr-CA', 'fr', fr['home.title']],
    ['zh-CN', 'zh-Hans', zhHans['home.title']],
    ['zh-SG', 'zh-Hans', zhHans['home.title']],
    ['zh-TW', 'en', en['home.title']],
  ] as const) {
    test.describe(locale, () => {
      test.use({ locale });

      test(`${locale} gets ${lang}`, async ({ page, consoleErrors }) => {
        await page.goto('/home');
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        await expect(screenHeading(page)).toHaveText(heading);
        if (lang !== 'en') {
          await expect
            .poll(async () => JSON.parse((await localStorageItem(page, 'preference')) ?? 'null'))
            .toMatchObject({ language: lang });
        }
        expect(consoleErrors).toEqual([]);
      });
    });
  }

  test.describe('with a language set by the deployment', () => {
    test.use({ locale: 'fr-CA' });

    test("the deployment's defaultLanguage wins over the browser's", async ({ page, consoleErrors }) => {
      await page.route('**/assets/ui-config.json', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ appTitle: 'Circle', defaultLanguage: 'de' }),
        }),
      );
      await page.goto('/home');
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      await expect(screenHeading(page)).toHaveText('Willkommen bei Circle');
      expect(consoleErrors).toEqual([]);
    });
  });

  test.describe('a member who chose a language', () => {
    test.use({ locale: 'zh-CN' });

    test('keeps it, whatever the browser says', async ({ page }) => {
      await presetLanguage(page, 'fr');
      await page.goto('/settings');
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
      await expect(screenHeading(page)).toHaveText(fr['settings.title']);
    });
  });
});

test.describe('languages offline', () => {
  test.use({ serviceWorkers: 'allow' });

  test('a language used once switches offline; one never used leaves the screen in the language it shows', async ({ page, server }) => {
    // French is the first visit's language: its catalogue is fetched before the worker controls the page.
    await presetLanguage(page, 'fr');
    await page.goto('/settings');
    await expect(screenHeading(page)).toHaveText(fr['settings.title']);
    await waitForServiceWorker(page);
    // Chinese is used once with the worker in control.
    const picker = () => page.getByRole('combobox', { name: /^(Language of the app|Langue de l’application|应用语言)$/ });
    await picker().selectOption('zh-Hans');
    await expect(screenHeading(page)).toHaveText(zhHans['settings.title']);
    await picker().selectOption('en');
    await expect(screenHeading(page)).toHaveText(en['settings.title']);
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('assets')).keys()).map((r) => new URL(r.url).pathname)))
      .toEqual(
        expect.arrayContaining([expect.stringMatching(/^\/assets\/fr-.+\.js$/), expect.stringMatching(/^\/assets\/zh-Hans-.+\.js$/)]),
      );

    server.setReachable(false);
    await page.reload();
    await expect(screenHeading(page)).toHaveText(en['settings.title']);
    await picker().selectOption('fr');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(screenHeading(page)).toHaveText(fr['settings.title']);
    await picker().selectOption('zh-Hans');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
    await expect(screenHeading(page)).toHaveText(zhHans['settings.title']);
    // German was never used: it cannot load offline, and the screen stays in Chinese, whole.
    await picker().selectOption('de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
    await expect(screenHeading(page)).toHaveText(zhHans['settings.title']);
    server.setReachable(true);
  });

  test('once the worker is in control, an idle page caches every language: each one switches offline, even one never chosen', async ({
    page,
    server,
  }) => {
    await page.goto('/settings');
    await waitForServiceWorker(page);
    // The next start, with the worker in control, fetches the catalogues once the page is idle.
    await page.reload();
    await expect(screenHeading(page)).toHaveText(en['settings.title']);
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('assets')).keys()).map((r) => new URL(r.url).pathname)), {
        timeout: 15_000,
      })
      .toEqual(
        expect.arrayContaining(['es', 'de', 'fr', 'zh-Hans'].map((lang) => expect.stringMatching(new RegExp(`^/assets/${lang}-.+\\.js$`)))),
      );

    server.setReachable(false);
    await page.reload();
    const picker = page.getByRole('combobox', { name: 'Language of the app' });
    await picker.selectOption('de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(screenHeading(page)).toHaveText(de['settings.title']);
    server.setReachable(true);
  });
});
