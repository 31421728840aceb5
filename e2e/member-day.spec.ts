import { test, expect, waitForServiceWorker } from './support/fixtures';
import { axeViolations } from './support/axe';
import type { Locator } from '@playwright/test';
import type { RunningServer } from '../server/index.ts';
import { ADA, appRunning, DESKTOP, MOBILE, presetSignedIn, seedProfile, snackbar, solidPng } from './support/pages';

/**
 * A member's day, as a new member meets it on a phone and on a desktop: who is signed in and the
 * way out at every width.
 */

test.describe('the account menu', () => {
  test('on a phone: the avatar names the member, opens with the keyboard, leads to the profile and back out', async ({
    page,
    request,
    consoleErrors,
  }) => {
    await page.setViewportSize(MOBILE);
    // The provider calls her "Ada Lovelace"; her profile says "Countess Ada".
    await seedProfile(request, { ...ADA, displayName: 'Countess Ada' });
    await presetSignedIn(page);
    await page.goto('/dashboard');
    await appRunning(page);
    // One name for one person: the profile's.
    const account = page.getByRole('banner').getByRole('button', { name: 'Account: Countess Ada' });
    await expect(account).toBeVisible();
    await expect(page.getByRole('banner')).not.toContainText('Ada Lovelace');
    const menu = page.locator('#account-menu');
    await expect(menu).toBeHidden();

    await account.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await expect(menu).toContainText('Countess Ada');
    expect(await axeViolations(page, { include: '#account-menu' })).toEqual([]);
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(account).toBeFocused();

    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(menu.getByRole('link', { name: 'Your profile' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(menu).toBeHidden();
    await expect(page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('data screens', () => {
  test.use({ serviceWorkers: 'allow' });
  test('the dashboard shows what it showed last at once, offline too, with one notice and no error per panel', async ({
    page,
    context,
  }) => {
    await page.goto('/dashboard');
    await waitForServiceWorker(page);
    const symbols = page.getByRole('region', { name: 'Symbols' });
    await expect(symbols.locator('.symbol-code')).toHaveText(['MSFT', 'AAPL', 'GOOG']);
    // The network gone, the page and the lists come from the device.
    await context.setOffline(true);
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await page.reload();
    await expect(symbols.locator('.symbol-code')).toHaveText(['MSFT', 'AAPL', 'GOOG']);
    await expect(page.getByRole('region', { name: 'Accounts' })).toContainText('Membership fees');
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  });
});

test.describe('one way to navigate per width', () => {
  test('on a desktop every screen has the side drawer, none the top-bar tabs; on a phone every screen the menu button', async ({
    page,
  }) => {
    for (const [size, drawer, menu] of [
      [DESKTOP, 1, 0],
      [MOBILE, 0, 1],
    ] as const) {
      await page.setViewportSize(size);
      for (const path of ['/home', '/settings', '/sign-in', '/404', '/nowhere']) {
        await page.goto(path);
        await appRunning(page);
        await expect(page.locator('aside.drawer--side'), `${path} at ${size.width}`).toHaveCount(drawer);
        await expect(page.getByRole('banner').getByRole('navigation'), path).toHaveCount(0);
        await expect(page.getByRole('banner').getByRole('button', { name: 'Open menu' }), path).toHaveCount(menu);
      }
    }
  });

  test('the dashboard’s cards keep their own height, not their row’s tallest', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/dashboard');
    await expect(page.locator('.symbol-code')).toHaveCount(3);
    await expect(page.locator('.notification')).toHaveCount(3);
    const height = async (name: string) => (await page.getByRole('region', { name }).boundingBox())!.height;
    expect(await height('Symbols')).toBeLessThan((await height('Notifications')) - 50);
  });
});

test.describe('home on a phone', () => {
  test('signed out, the call to sign in is followed by the notifications with no empty band between', async ({ page, consoleErrors }) => {
    await page.setViewportSize(MOBILE);
    await page.goto('/home');
    await appRunning(page);
    const cta = page.locator('.home__profile .cta');
    const notifications = page.getByRole('heading', { name: 'Latest notifications' });
    await expect(cta).toBeVisible();
    const gap = await page.evaluate(() => {
      const card = document.querySelector('.home__profile .cta')!.getBoundingClientRect();
      const heading = document.querySelector('#home-notifications')!.getBoundingClientRect();
      return heading.top - card.bottom;
    });
    await expect(notifications).toBeVisible();
    // The section's margin and the heading's own: no room kept for a profile card that will not come.
    expect(gap).toBeLessThan(64);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('home signed in without a profile', () => {
  for (const [width, size] of [
    ['a phone', MOBILE],
    ['a desktop', DESKTOP],
  ] as const)
    test(`on ${width}, the call to create one is followed by the notifications with no empty band between`, async ({ page }) => {
      await page.setViewportSize(size);
      await presetSignedIn(page);
      await page.goto('/home');
      await appRunning(page);
      const cta = page.locator('.home__profile .cta');
      await expect(cta.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Latest notifications' })).toBeVisible();
      const gap = await page.evaluate(() => {
        const card = document.querySelector('.home__profile .cta')!.getBoundingClientRect();
        const heading = document.querySelector('#home-notifications')!.getBoundingClientRect();
        return heading.top - card.bottom;
      });
      // The card's and the section's margins and the heading's own: the room kept for a profile card is the call's.
      expect(gap).toBeLessThan(64);
    });
});

test.describe('the profile on a desktop', () => {
  test('the card is as wide as the form that edits it, not the whole content column', async ({ page, request }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await seedProfile(request);
    await presetSignedIn(page);
    await page.goto('/profile');
    await appRunning(page);
    const card = (await page.getByRole('article', { name: ADA.displayName }).boundingBox())!;
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = (await page.getByRole('form', { name: 'Edit your profile' }).boundingBox())!;
    expect(Math.round(card.width)).toBe(Math.round(form.width));
    expect(Math.round(card.x)).toBe(Math.round(form.x));
  });
});

test.describe('admin on a phone', () => {
  test('each row offers Edit and Delete side by side, and the reset says what it does in plain words', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await presetSignedIn(page);
    await page.goto('/admin/accounts');
    await appRunning(page);
    const row = page.getByRole('table').getByRole('row').nth(1);
    const edit = (await row.getByRole('button', { name: /^Edit / }).boundingBox())!;
    const remove = (await row.getByRole('button', { name: /^Delete / }).boundingBox())!;
    expect(Math.round(remove.y)).toBe(Math.round(edit.y));
    expect(remove.x).toBeGreaterThan(edit.x);
    await expect(page.getByRole('button', { name: 'Put back the sample data' })).toBeVisible();
  });
});

test.describe('text buttons', () => {
  /** Where a button's label starts on screen, and where its box does. */
  const starts = (button: Locator) =>
    button.evaluate((b) => {
      const range = document.createRange();
      range.selectNodeContents(b);
      return { label: Math.round(range.getBoundingClientRect().left), box: Math.round(b.getBoundingClientRect().left) };
    });

  test('on a phone, a text button starting a line has its label where the buttons above start, not indented', async ({ page, request }) => {
    await page.setViewportSize(MOBILE);
    await seedProfile(request);
    await presetSignedIn(page);
    await page.goto('/profile');
    await appRunning(page);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('About you').fill('Changed.');
    await page.getByLabel('Avatar', { exact: true }).setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: solidPng(3, 3) });
    const form = page.getByRole('form', { name: 'Edit your profile' });
    const save = await starts(form.getByRole('button', { name: 'Save changes' }));
    const discard = await starts(form.getByRole('button', { name: 'Discard changes' }));
    const choose = await starts(form.getByText('Choose an image'));
    const remove = await starts(form.getByRole('button', { name: 'Remove the chosen image' }));
    // Each pair stacks on a phone: the text button's label lines up with the edge of the one above.
    expect(discard.label).toBe(save.box);
    expect(remove.label).toBe(choose.box);
  });
});

test.describe('the avatar', () => {
  // Kept by the worker for later visits.
  test.use({ serviceWorkers: 'allow' });
  /**
   * The avatar images the server is asked for from now on, by the page or its worker: counted as
   * they arrive (the mock's log of exchanges keeps the last hundred only, and a busy page's other
   * requests push older ones out of it).
   */
  function avatarReads(server: RunningServer): { readonly count: number } {
    let count = 0;
    server.server.on('request', (req) => {
      if (req.method === 'GET' && /\/avatar(\?|$)/.test(req.url ?? '')) count++;
    });
    return {
      get count() {
        return count;
      },
    };
  }

  test('shows on the card and in the bar, fetched once, and is there at once on every later visit, a reload included', async ({
    page,
    request,
    server,
    consoleErrors,
  }) => {
    const { avatar } = await seedProfile(request, ADA, solidPng(4, 4));
    await presetSignedIn(page);
    // The page's own requests for the image (through its worker or not); the worker's own reads are not the page's.
    const asked: string[] = [];
    page.on('request', (r) => {
      if (/\/avatar(\?|$)/.test(new URL(r.url()).pathname + new URL(r.url()).search)) asked.push(r.url());
    });
    await page.goto('/profile');
    await appRunning(page);
    const card = page.getByRole('article', { name: 'Ada Lovelace' }).locator('.avatar');
    const bar = page.getByRole('banner').locator('.avatar').first();
    // Never an empty disc: the initials, then the image.
    await expect(card).toHaveJSProperty('tagName', 'IMG');
    await expect(bar).toHaveJSProperty('tagName', 'IMG');
    expect(await card.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(4);
    // The bar's avatar and the card's are one image: asked for once.
    expect(asked).toHaveLength(1);

    // Another screen and back, inside the app: the image kept in the page, not asked for again.
    await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await page.goBack();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(card).toHaveJSProperty('tagName', 'IMG');
    expect(asked).toHaveLength(1);

    // Reloads: once the worker holds the image (the first visit under its control stores it), the
    // device's copy is shown, the URL changing with the image; the server is not asked again.
    await waitForServiceWorker(page);
    await page.reload();
    await appRunning(page);
    await expect(card).toHaveJSProperty('tagName', 'IMG');
    const url = new URL(avatar!, page.url()).href;
    await expect.poll(() => page.evaluate((u) => caches.match(u).then(Boolean), url)).toBe(true);
    const reads = avatarReads(server);
    await page.reload();
    await appRunning(page);
    await expect(card).toHaveJSProperty('tagName', 'IMG');
    expect(await card.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(4);
    expect(reads.count).toBe(0);
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('offline on a phone', () => {
  test.use({ serviceWorkers: 'allow' });
  test('the snackbar and the page say the same of a save, and the field the member moves to is never under the snackbar', async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize(MOBILE);
    await seedProfile(request);
    await presetSignedIn(page);
    await page.goto('/profile');
    await appRunning(page);
    await waitForServiceWorker(page);
    await page.getByRole('button', { name: 'Edit' }).click();
    await context.setOffline(true);
    // The snackbar promises what the page will say once saved: kept on this device, sent later.
    await expect(snackbar(page)).toHaveText(
      'You are offline. What you saw last is shown; your profile changes are saved on this device and sent when you are back online.',
    );
    // Moving on through the form with the keyboard while the snackbar shows: each field it reaches
    // scrolls clear of the snackbar, none stays under it.
    const bar = (await snackbar(page).boundingBox())!;
    await page.getByLabel('About you').click();
    for (const field of [page.getByLabel('Preferred language'), page.getByLabel('Interests')]) {
      await page.keyboard.press('Tab');
      await expect(field).toBeFocused();
      const box = (await field.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(bar.y);
    }
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByTestId('pending-save')).toHaveText('Saved on this device. It will be sent when you are back online.');
  });
});
