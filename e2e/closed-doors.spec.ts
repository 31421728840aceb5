/**
 * Who may do what, in the built app: Admin is an admin's, a member who opens it is told why not,
 * and signing out in one tab signs every other tab out at once.
 */
import { test, expect } from './support/fixtures';
import { signIn } from './support/sign-in';
import { localStorageItem, presetSignedIn, screenHeading } from './support/pages';

test.describe('roles', () => {
  test('a member sees no Admin; opening /admin says it is for admins and asks the backend nothing', async ({ page, consoleErrors }) => {
    const collectionReads: string[] = [];
    page.on('request', (r) => {
      if (/\/api\/(accounts|notifications|subscription|symbols)(\/|$)/.test(new URL(r.url()).pathname)) collectionReads.push(r.url());
    });
    await presetSignedIn(page, 'grace');
    await page.goto('/settings');
    await expect(page.getByRole('button', { name: 'Account: Grace Hopper' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);

    await page.goto('/admin/symbols');
    await expect(screenHeading(page)).toHaveText('This page is for admins');
    await expect(page.getByRole('main')).toContainText('You are signed in as Grace Hopper, a member');
    await expect(page.getByRole('button', { name: 'Put back the sample data' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/home$/);
    expect(collectionReads.filter((url) => url.includes('/api/symbols'))).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  test('an admin sees Admin and its collections', async ({ page, consoleErrors }) => {
    await presetSignedIn(page, 'ada');
    await page.goto('/admin/symbols');
    await expect(screenHeading(page)).toHaveText('Admin');
    await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
    await expect(page.getByRole('row', { name: /MSFT/ })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('signing out', () => {
  test('in one tab signs the other tab out at once, without the provider asking again', async ({ page, context, consoleErrors }) => {
    await signIn(page, 'ada', '/profile');
    const other = await context.newPage();
    await other.goto('/settings');
    await expect(other.getByRole('button', { name: 'Account: Ada Lovelace' })).toBeVisible();
    await expect(other.getByRole('link', { name: 'Admin' })).toBeVisible();

    await page.getByRole('button', { name: 'Account: Ada Lovelace' }).click();
    await page.locator('#account-menu').getByRole('button', { name: 'Sign out', exact: true }).click();
    // The other tab is signed out without a reload: the way in is offered, the member's name and Admin are gone.
    await expect(other.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
    await expect(other.getByText('Ada Lovelace')).toHaveCount(0);
    await expect(other.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    expect(await localStorageItem(other, 'auth.isLoggedIn')).toBe('false');
    // The tab that signed out went through the provider, which asked nothing, and came back home.
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('heading', { name: 'Sign out of Circle?' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
    // A screen of the member's in the other tab now asks to sign in.
    await other.getByRole('link', { name: 'Profile' }).first().click();
    await expect(other).toHaveURL(/\/sign-in\?next=%2Fprofile$/);
    expect(consoleErrors).toEqual([]);
  });
});
