import { test, expect } from './support/fixtures';
import { appRunning, DESKTOP, MOBILE, presetSignedIn, screenHeading } from './support/pages';

/**
 * Getting around on the production build: the side menu, the phone's tab bar and drawer, the skip
 * link, and the scroll kept on the way back.
 */

test.describe('navigation', () => {
  test('desktop: the sidenav layout has a persistent navigation drawer', async ({ page, consoleErrors }) => {
    await page.setViewportSize(DESKTOP);
    await presetSignedIn(page);
    await page.goto('/settings');
    // The app's own drawer: the prerendered page has one in the same place, which the app's first
    // render replaces (a box measured on it in between is of a node no longer in the page).
    await appRunning(page);
    const drawer = page.locator('aside.drawer--side');
    const nav = drawer.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    const box = (await drawer.boundingBox())!;
    expect(box.x).toBe(0);
    expect(box.width).toBeGreaterThanOrEqual(200);
    await nav.getByRole('link', { name: 'Profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
    await expect(screenHeading(page)).toBeFocused();
    expect(consoleErrors).toEqual([]);
  });

  test("desktop, 1440x900: the side menu's column reaches the foot of a long page, and its links stay in view as it scrolls", async ({
    page,
    consoleErrors,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/settings');
    await appRunning(page);
    const side = page.locator('aside.drawer--side');
    const measure = () =>
      side.evaluate((aside) => {
        const box = aside.getBoundingClientRect();
        return { bottom: Math.round(box.bottom + window.scrollY), page: document.documentElement.scrollHeight };
      });
    const { bottom, page: height } = await measure();
    // A page longer than the window, or this proves nothing.
    expect(height).toBeGreaterThan(900);
    expect(bottom).toBe(height);
    await expect(side).toHaveCSS('background-color', 'rgb(255, 255, 255)');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const home = side.getByRole('link', { name: 'Home' });
    const box = (await home.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(56);
    expect(box.y + box.height).toBeLessThanOrEqual(900);
    expect((await measure()).bottom).toBe(height);
    expect(consoleErrors).toEqual([]);
  });

  test('mobile: a tab bar at the foot of the screen holds the main places, marks the current one and goes there', async ({
    page,
    consoleErrors,
  }) => {
    await page.setViewportSize(MOBILE);
    await presetSignedIn(page);
    await page.goto('/settings');
    await appRunning(page);
    const bar = page.locator('nav.tabbar');
    await expect(bar).toBeVisible();
    await expect(bar).toHaveAttribute('aria-label', 'Main');
    await expect(bar.getByRole('link')).toHaveText(['Home', 'Profile', 'Settings', 'Dashboard', 'Admin']);
    await expect(bar.getByRole('link', { name: 'Settings' })).toHaveAttribute('aria-current', 'page');
    const box = (await bar.boundingBox())!;
    expect(box.y + box.height).toBe(MOBILE.height);
    expect(box.width).toBe(MOBILE.width);
    // Each place is a finger's width and height at least.
    for (const link of await bar.getByRole('link').all()) {
      const target = (await link.boundingBox())!;
      expect(target.height).toBeGreaterThanOrEqual(44);
      expect(target.width).toBeGreaterThanOrEqual(44);
    }
    // Nothing of the page stays under it: scrolled to the end, the content's last line is above it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const last = (await page.getByRole('switch', { name: 'Push notifications' }).boundingBox())!;
    expect(last.y + last.height).toBeLessThanOrEqual(box.y);

    await bar.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(screenHeading(page)).toBeFocused();
    await expect(bar.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await expect(bar.getByRole('link', { name: 'Settings' })).not.toHaveAttribute('aria-current');

    // On a wide window the side menu has these places: the tab bar is not shown.
    await page.setViewportSize(DESKTOP);
    await expect(bar).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(1);
    expect(consoleErrors).toEqual([]);
  });

  test('mobile: the menu button opens a modal drawer; Escape closes it and gives focus back', async ({ page, consoleErrors }) => {
    await page.setViewportSize(MOBILE);
    await page.goto('/settings');
    await expect(page.locator('aside.drawer--side')).toHaveCount(0);
    const menu = page.getByRole('button', { name: 'Open menu' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    const drawer = page.getByRole('dialog', { name: 'Main' });
    await expect(drawer).toBeVisible();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    // Modal: the page behind is inert, focus is inside the drawer.
    await expect.poll(() => drawer.evaluate((d) => d.matches(':modal') && d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();

    // The close button closes it too.
    await menu.click();
    await drawer.getByRole('button', { name: 'Close menu' }).click();
    await expect(drawer).toBeHidden();
    expect(consoleErrors).toEqual([]);
  });

  test('mobile: following a link in the drawer closes it', async ({ page, consoleErrors }) => {
    await page.setViewportSize(MOBILE);
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Main' });
    await drawer.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(drawer).toBeHidden();
    await expect(screenHeading(page)).toHaveText('Dashboard');
    await expect(screenHeading(page)).toBeFocused();
    expect(consoleErrors).toEqual([]);
  });

  test('mobile admin: the drawer also lists the collections', async ({ page, consoleErrors }) => {
    await page.setViewportSize(MOBILE);
    await presetSignedIn(page);
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Main' });
    await drawer.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: 'accounts' }).click();
    await expect(page).toHaveURL(/\/admin\/accounts$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Collection: accounts' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test("keyboard: the first Tab reaches 'Skip to content', Enter moves focus to main", async ({ page, consoleErrors }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/settings');
    await expect(screenHeading(page)).toBeVisible();
    // Prerendered, the screen's fields are disabled until the app runs: a Tab from main would find none.
    await appRunning(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // The next Tab continues inside main, not back in the top bar or drawer.
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('scroll', () => {
  test('back to the dashboard restores where it was scrolled to', async ({ page, consoleErrors }) => {
    await page.setViewportSize({ width: MOBILE.width, height: 480 });
    await page.goto('/dashboard');
    await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('heading', { level: 3 })).toHaveCount(3);
    const maxScroll = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
    expect(maxScroll).toBeGreaterThan(600);
    const target = 600;
    await page.evaluate((y) => scrollTo(0, y), target);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(target);

    await page.getByRole('link', { name: 'Circle', exact: true }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);

    await page.goBack();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(target - 20);
    expect(await page.evaluate(() => scrollY)).toBeLessThan(target + 20);
    expect(consoleErrors).toEqual([]);
  });

  for (const id of ['dash-symbols', 'dash-notifications']) {
    test(`/dashboard#${id} scrolls that panel into view, clear of the top bar`, async ({ page, consoleErrors }) => {
      await page.setViewportSize({ width: MOBILE.width, height: 400 });
      await page.goto(`/dashboard#${id}`);
      await expect(page.getByRole('region', { name: 'Notifications' }).getByRole('heading', { level: 3 })).toHaveCount(3);
      const heading = page.locator(`#${id}`);
      await expect(heading).toBeInViewport();
      await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(100);
      const topbar = (await page.locator('.topbar').boundingBox())!;
      const box = (await heading.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(topbar.y + topbar.height - 1);
      expect(consoleErrors).toEqual([]);
    });
  }
});
