import { test, expect } from './support/fixtures';
import { bearerOf } from './support/sign-in';
import { DESKTOP, MOBILE, presetSignedIn, snackbar, unexpectedErrors } from './support/pages';

/** Where the snackbar sits on the production build, on a wide window and on a phone. */

test.describe('snackbar', () => {
  /** Deletes a record behind the admin's back, so that the admin's own delete fails with a long message. */
  async function failedDelete(page: import('@playwright/test').Page, request: import('@playwright/test').APIRequestContext) {
    await presetSignedIn(page);
    await page.goto('/admin/symbols');
    await page.getByRole('button', { name: 'Delete 2' }).click();
    expect((await request.delete('/api/symbols/2', { headers: { authorization: await bearerOf(request, 'ada') } })).status()).toBe(204);
    await page.getByRole('dialog', { name: 'Delete record 2?' }).getByRole('button', { name: 'Delete' }).click();
    const bar = snackbar(page);
    await expect(bar).toHaveText(/The backend answered: 404 Record '2' not found in collection 'symbols'/);
    return bar;
  }

  test('desktop: bottom centre, at least 344px and at most 33vw wide', async ({ page, request, consoleErrors }) => {
    await page.setViewportSize(DESKTOP);
    const bar = await failedDelete(page, request);
    const box = (await bar.boundingBox())!;
    const { width, height } = DESKTOP;
    expect(box.width).toBeGreaterThanOrEqual(344);
    expect(box.width).toBeLessThanOrEqual(width * 0.33 + 0.5);
    // The long message wraps rather than widening it beyond 33vw.
    expect(box.width).toBeGreaterThan(width * 0.33 - 2);
    expect(Math.abs(box.x + box.width / 2 - width / 2)).toBeLessThanOrEqual(1);
    expect(height - (box.y + box.height)).toBeGreaterThanOrEqual(0);
    expect(height - (box.y + box.height)).toBeLessThanOrEqual(32);
    // A short one is still 344px.
    await bar.getByRole('button', { name: 'Dismiss' }).click();
    await expect(bar).toHaveCount(0);
    await page.getByRole('button', { name: 'Delete 1' }).click();
    await page.getByRole('dialog', { name: 'Delete record 1?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(bar).toHaveText(/Record 1 deleted\./);
    expect((await bar.boundingBox())!.width).toBeCloseTo(344, 0);
    expect(unexpectedErrors(consoleErrors, [404])).toEqual([]);
  });

  test('mobile: full width at the bottom, just above the tab bar', async ({ page, request, consoleErrors }) => {
    await page.setViewportSize(MOBILE);
    const bar = await failedDelete(page, request);
    const box = (await bar.boundingBox())!;
    const { width } = MOBILE;
    expect(box.width).toBeGreaterThanOrEqual(width - 32);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    expect(Math.abs(box.x + box.width / 2 - width / 2)).toBeLessThanOrEqual(1);
    const tabs = (await page.locator('nav.tabbar').boundingBox())!;
    expect(tabs.y - (box.y + box.height)).toBeGreaterThanOrEqual(0);
    expect(tabs.y - (box.y + box.height)).toBeLessThanOrEqual(16);
    expect(unexpectedErrors(consoleErrors, [404])).toEqual([]);
  });
});
