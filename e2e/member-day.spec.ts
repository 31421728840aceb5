import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './support/fixtures';
import { ADA, appRunning, MOBILE, presetSignedIn, seedProfile } from './support/pages';

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
    expect((await new AxeBuilder({ page }).include('#account-menu').analyze()).violations).toEqual([]);
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
