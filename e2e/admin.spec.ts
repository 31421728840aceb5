import { test, expect } from './support/fixtures';
import { signIn } from './support/sign-in';
import { localStorageItem, presetSignedIn, screenHeading, snackbar, unexpectedErrors } from './support/pages';

/**
 * The admin's collections on the production build: the way in for a visitor signed out, and a
 * record's lifecycle through the forms.
 */

test.describe('admin', () => {
  test('signed out, /admin asks to sign in, then lands on /admin', async ({ page, consoleErrors }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fadmin$/);
    await expect(screenHeading(page)).toHaveText('Sign in');
    await expect(page.getByText('Sign in to open the admin screens.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    expect(await localStorageItem(page, 'auth.isLoggedIn')).not.toBe('true');

    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    // The provider's own page, then back to where the member was going.
    await page.waitForURL(/\/oidc\/interaction\//);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Circle');
    await page.getByLabel('Username').fill('ada');
    await page.getByLabel('Password').fill('circle');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expect(screenHeading(page)).toHaveText('Admin');
    expect(await localStorageItem(page, 'auth.isLoggedIn')).toBe('true');
    await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
    for (const name of ['accounts', 'notifications', 'subscription', 'symbols']) {
      await expect(page.getByRole('main').getByRole('link', { name })).toBeVisible();
    }
    expect(consoleErrors).toEqual([]);
  });

  test('a sign-in link never sends the member to another site', async ({ page, consoleErrors }) => {
    await page.goto('/sign-in?next=%2F%2Fevil.example');
    await page.getByRole('main').getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oidc\/interaction\//);
    await page.getByLabel('Username').fill('ada');
    await page.getByLabel('Password').fill('circle');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/home$/);
    expect(consoleErrors).toEqual([]);
  });

  test('symbols: a full collection says so on New record; delete AAPL, then AMZN is created through the form', async ({
    page,
    consoleErrors,
  }) => {
    await presetSignedIn(page);
    const creates: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/symbols') && r.method() === 'POST') creates.push(r.method());
    });
    await page.goto('/admin/symbols');
    const table = page.getByRole('table');
    await expect(table.getByRole('row')).toHaveCount(4);

    // Three symbols are as many as the contract allows (x-max-records): no 422 to meet.
    const add = page.getByRole('button', { name: 'New record' });
    await expect(add).toHaveAttribute('aria-disabled', 'true');
    await expect(add).toHaveAccessibleDescription('This collection is full: it holds at most 3 records. Delete one to add another.');

    await table.getByRole('row', { name: /AAPL/ }).getByRole('button', { name: 'Delete 2' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete record 2?' });
    await expect(confirm).toContainText('Apple Inc.');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(table.getByRole('row', { name: /AAPL/ })).toHaveCount(0);
    await expect(snackbar(page)).toContainText('Record 2 deleted.');

    await expect(add).not.toHaveAttribute('aria-disabled');
    await add.click();
    const editor = page.getByRole('dialog', { name: 'New record in symbols' });
    await editor.getByLabel('code').fill('amzn');
    await editor.getByRole('button', { name: 'Save' }).click();
    // Checked as the contract says before anything is sent, each field in words.
    await expect(editor.getByRole('alert')).toHaveText('Please correct 2 fields before saving.');
    await expect(editor.getByLabel('code')).toBeFocused();
    // The contract's words (openapi.yaml): the field's description, then its pattern's message as the error.
    await expect(editor.getByLabel('Code')).toHaveAccessibleDescription('The ticker code. One to five capital letters, such as AAPL.');
    expect(creates).toEqual([]);
    await editor.getByLabel('code').fill('AMZN');
    await editor.getByLabel('Company').fill('Amazon');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(editor).toHaveCount(0);
    await expect(table.getByRole('row', { name: /AMZN/ })).toContainText('Amazon');
    await expect(table.locator('tbody tr td:first-child')).toHaveText(['1', '3', '4']);
    await expect(snackbar(page)).toContainText('Record 4 saved.');

    // The dashboard reads the same collection.
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await expect(page.getByRole('region', { name: 'Symbols' }).locator('.symbol-code')).toHaveText(['MSFT', 'GOOG', 'AMZN']);
    expect(consoleErrors).toEqual([]);
  });

  test("a field the backend refuses is marked on the form in words, not as the backend's text", async ({ page, consoleErrors }) => {
    await presetSignedIn(page);
    await page.goto('/admin/accounts');
    await page.getByRole('button', { name: 'Edit 1' }).click();
    const editor = page.getByRole('dialog', { name: 'Edit record 1' });
    await expect(editor.getByLabel('name')).not.toHaveValue('');
    // The backend refuses what the form let through (as the mock does for a blank name): its verdict goes on the field.
    await page.route('**/api/accounts/1', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ status: 400, error: 'Bad Request', message: 'body.name must NOT have fewer than 1 characters' }),
          })
        : route.continue(),
    );
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(editor.getByLabel('name')).toHaveAttribute('aria-invalid', 'true');
    await expect(editor.getByLabel('name')).toHaveAccessibleDescription('At most 80 characters. This field is required.');
    await expect(editor).not.toContainText('must NOT have');
    await expect(editor.getByLabel('name')).toBeFocused();
    expect(unexpectedErrors(consoleErrors, [400])).toEqual([]);
  });

  test('sign out from /sign-in removes the Admin link and /admin redirects again', async ({ page, consoleErrors }) => {
    // Through the provider's pages: signing out ends the provider's session too.
    await signIn(page);
    await page.goto('/admin');
    await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
    await page.goto('/sign-in');
    await expect(screenHeading(page)).toHaveText('Sign out');
    await expect(page.getByRole('main')).toContainText('Signed in as Ada Lovelace.');
    const providerPages: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().includes('/oidc/')) providerPages.push(new URL(frame.url()).pathname);
    });
    await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    // The app has signed out: the provider ends its session without asking again, and comes back home.
    await expect(page).toHaveURL(/\/home$/);
    expect(providerPages.length).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: 'Sign out of Circle?' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
    expect(await localStorageItem(page, 'auth.isLoggedIn')).toBe('false');

    await page.goto('/admin/symbols');
    await expect(page).toHaveURL(/\/sign-in\?next=%2Fadmin%2Fsymbols$/);
    expect(consoleErrors).toEqual([]);
  });
});
