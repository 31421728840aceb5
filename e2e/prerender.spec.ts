import { createHash } from 'node:crypto';
import { test, expect } from './support/fixtures';
import { appRunning, holdScripts, settled } from './support/pages';
import { PAGE_FILES, SHELL_PATHS } from '../src/index.ts';

/**
 * Each public route's first screen comes in its HTML (React's static rendering at build time), is
 * painted before any script runs, and is hydrated in place: the nodes stay, nothing mismatches.
 */
const HYDRATED = [
  { path: '/home', title: 'Home | Circle', heading: 'Welcome to Circle' },
  { path: '/settings', title: 'Settings | Circle', heading: 'Settings' },
  { path: '/dashboard', title: 'Dashboard | Circle', heading: 'Dashboard' },
  { path: '/404', title: 'Page not found | Circle', heading: 'Page not found' },
];

test.describe('prerendered pages', () => {
  test("each page's inline script is allowed by its hash in the served CSP, and inline code as such is not", async ({ request }) => {
    const paths = [...Object.values(PAGE_FILES).map((p) => p[0]!.replace('/*', '/x')), ...SHELL_PATHS];
    for (const path of paths) {
      const answer = await request.get(path);
      const scriptSrc = answer
        .headers()
        ['content-security-policy']?.split('; ')
        .find((d) => d.startsWith('script-src '));
      const inline = [...(await answer.text()).matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
      expect(inline, path).toHaveLength(1);
      const hash = `'sha256-${createHash('sha256').update(inline[0]!, 'utf8').digest('base64')}'`;
      // The origin's files and that code, byte for byte: any other inline code is refused.
      expect(scriptSrc, path).toBe(`script-src 'self' ${hash}`);
      expect(answer.headers()['content-security-policy'], path).not.toContain('unsafe-inline');
    }
  });

  for (const { path, title, heading } of HYDRATED) {
    test(`${path}: the HTML has the screen, the app hydrates it without replacing a node`, async ({ page, request, consoleErrors }) => {
      const html = await (await request.get(path)).text();
      expect(html).toContain(`<title>${title}</title>`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
      // One script of the app's in the HTML: the pre-paint script, inline (the CSP test below).
      expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script>']);

      const release = await holdScripts(page);
      await page.goto(path, { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await page.evaluate(() => {
        (window as unknown as { prerenderedHeading: Element | null }).prerenderedHeading = document.querySelector('h1');
      });
      release();
      // Hydrated: the app's code runs, and the heading is still the node the HTML made.
      await expect.poll(() => page.evaluate(() => document.querySelector('.topbar__menu, .drawer--side') !== null)).toBe(true);
      await expect(page).toHaveTitle(title);
      await expect
        .poll(() => page.evaluate(() => document.querySelectorAll('.only-wide, .only-narrow').length), {
          message: 'live render kept one variant',
        })
        .toBe(0);
      expect(
        await page.evaluate(
          () => document.querySelector('h1') === (window as unknown as { prerenderedHeading: Element }).prerenderedHeading,
        ),
      ).toBe(true);
      expect(consoleErrors).toEqual([]);
    });
  }

  test('on a phone the HTML already shows the phone top bar, and hydrating it moves nothing', async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const release = await holdScripts(page);
    await page.goto('/home', { waitUntil: 'commit' });
    const menu = page.getByRole('button', { name: 'Open menu' });
    await expect(menu).toBeVisible();
    await expect(page.locator('.drawer--side')).toBeHidden();
    const before = await menu.boundingBox();
    release();
    await expect.poll(() => page.evaluate(() => document.querySelectorAll('.only-wide, .only-narrow').length)).toBe(0);
    await expect(page.locator('.drawer--side')).toHaveCount(0);
    expect(await menu.boundingBox()).toEqual(before);
    expect(consoleErrors).toEqual([]);
  });

  test("the member's theme and language apply before the app's code runs, and the app renders in that language", async ({
    page,
    consoleErrors,
  }) => {
    await page.addInitScript(() => {
      if (!localStorage.getItem('preference'))
        localStorage.setItem(
          'preference',
          JSON.stringify({ language: 'de', activeThemeName: 'PINK_BLUEGREY', enableNotifications: false }),
        );
    });
    const release = await holdScripts(page);
    await page.goto('/settings', { waitUntil: 'commit' });
    const html = page.locator('html');
    // Before any of the app's code (the pre-paint script is what loads it): its marks are set.
    await expect(html).toHaveAttribute('data-theme', 'PINK_BLUEGREY');
    await expect(html).toHaveAttribute('lang', 'de');
    await expect(page.locator('.topbar')).toHaveCSS('background-color', 'rgb(233, 30, 99)');
    // Stored without a colour scheme, as the seed stores it: the theme's own, dark, whatever the device's.
    await expect(html).toHaveAttribute('data-color-scheme', 'dark');
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 18, 18)');
    // The English text of the HTML is not shown to a German reader.
    await expect(html).toHaveAttribute('data-l10n-pending', '');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('color', 'rgba(0, 0, 0, 0)');
    release();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Einstellungen');
    await expect(html).not.toHaveAttribute('data-l10n-pending');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveCSS('color', 'rgba(0, 0, 0, 0)');
    expect(consoleErrors).toEqual([]);
  });

  test("a first visit is painted in the device's light or dark before the app's code runs", async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const release = await holdScripts(page);
    await page.goto('/settings', { waitUntil: 'commit' });
    await expect(page.locator('html')).toHaveAttribute('data-color-scheme', 'system');
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 18, 18)');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(250, 250, 250)');
    release();
  });

  test('a signed-in flag hides the prerendered Sign in link until the app shows the member', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('auth.isLoggedIn', 'true'));
    const release = await holdScripts(page);
    await page.goto('/home', { waitUntil: 'commit' });
    await expect(page.locator('html')).toHaveAttribute('data-account-pending', '');
    await expect(page.locator('.topbar__account')).toBeHidden();
    release();
    await expect(page.locator('html')).not.toHaveAttribute('data-account-pending');
  });

  test('without JavaScript, each page still shows its screen', async ({ browser, server }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL: server.url });
    try {
      const page = await context.newPage();
      for (const { path, heading } of HYDRATED) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      }
    } finally {
      await context.close();
    }
  });

  // Lighthouse's phone: the screen's largest element is painted from the HTML in the page's first
  // contentful frame (the whole screen at once), and nothing the app or its data paints later,
  // hydrated in place, is larger.
  const LARGEST = [
    { path: '/home', largest: 'p.hero__intro' },
    // The language's hint, which ties the app's language to the profile's, is the screen's longest text.
    { path: '/settings', largest: 'p#language-hint' },
    { path: '/dashboard', largest: 'p.screen__intro' },
    { path: '/404', largest: 'main p' },
  ];
  for (const { path, largest } of LARGEST) {
    test(`${path}: the largest paint is the first one, of an element of the HTML that hydration keeps`, async ({ page, consoleErrors }) => {
      await page.setViewportSize({ width: 412, height: 823 });
      await page.addInitScript(`window.__largest = [];
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__largest.push(e); })
          .observe({ type: 'largest-contentful-paint', buffered: true });`);
      const release = await holdScripts(page);
      await page.goto(path, { waitUntil: 'commit' });
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.evaluate((selector) => {
        (window as unknown as { prerendered: Element | null }).prerendered = document.querySelector(selector);
      }, largest);
      release();
      await appRunning(page);
      await settled(page);
      // Two frames after the last change, so that any later paint has been reported.
      await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
      const seen = await page.evaluate(() => {
        const w = window as unknown as { __largest: LargestContentfulPaint[]; prerendered: Element | null };
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]!.startTime;
        const last = w.__largest.at(-1)!;
        return {
          allAtFirstPaint: w.__largest.every((e) => e.startTime === fcp),
          isPrerendered: last.element !== null && last.element === w.prerendered,
          connected: last.element?.isConnected ?? false,
        };
      });
      expect(seen).toEqual({ allAtFirstPaint: true, isPrerendered: true, connected: true });
      expect(consoleErrors).toEqual([]);
    });
  }

  // A phone (Lighthouse's mobile width), where the panels stack: a short loading state would push the
  // ones below down as each list came in.
  for (const width of [412]) {
    test(`at ${width} px the dashboard's data takes the room its loading state kept: nothing moves`, async ({ page }) => {
      await page.setViewportSize({ width, height: 823 });
      await page.addInitScript(`window.__shifts = [];
        new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push(e.value); })
          .observe({ type: 'layout-shift', buffered: true });`);
      // The data comes only after the loading state is painted, as on a slow network.
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/api/**', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto('/dashboard');
      await expect(page.locator('.panel .skeleton')).toHaveCount(3);
      await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
      release();
      await expect(page.locator('.panel .data-list li')).toHaveCount(6);
      await expect(page.locator('.panel .notification')).toHaveCount(3);
      const shifts = (await page.evaluate('window.__shifts')) as number[];
      expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThan(0.01);
    });
  }
});
