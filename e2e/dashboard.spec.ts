import { test, expect } from './support/fixtures';
import { settled } from './support/pages';

/** The dashboard on the production build: the mock API's accounts, symbols and notifications. */

test.describe('dashboard', () => {
  test('accounts with their currency, the three symbols and the notifications', async ({ page, consoleErrors }) => {
    await page.goto('/dashboard');
    const accounts = page.getByRole('region', { name: 'Accounts' });
    await expect(accounts.getByRole('listitem')).toHaveCount(3);
    await expect(accounts.getByRole('listitem')).toHaveText([
      /Membership fees\s*€1,250\.50/,
      /Workshop fund\s*€430\.00/,
      /Travel grants\s*\$980\.25/,
    ]);

    const symbols = page.getByRole('region', { name: 'Symbols' });
    await expect(symbols.locator('.symbol-code')).toHaveText(['MSFT', 'AAPL', 'GOOG']);
    await expect(symbols.getByRole('listitem').first()).toContainText('Microsoft Corporation');

    const notifications = page.getByRole('region', { name: 'Notifications' });
    // Newest first.
    await expect(notifications.getByRole('heading', { level: 3 })).toHaveText([
      'Maintenance on Sunday',
      'New study group',
      'Welcome to Circle',
    ]);
    await expect(notifications.getByRole('listitem').first()).toContainText('Warning');
    await expect(notifications.getByRole('listitem').last()).toContainText('Unread');
    await settled(page);
    expect(consoleErrors).toEqual([]);
  });

  test('amounts follow the language', async ({ page, consoleErrors }) => {
    await page.addInitScript(() =>
      localStorage.setItem('preference', JSON.stringify({ language: 'de', activeThemeName: 'INDIGO_PINK', enableNotifications: false })),
    );
    await page.goto('/dashboard');
    const items = page.locator('section[aria-labelledby="dash-accounts"] li');
    await expect(items.first()).toContainText(/1\.250,50\s€/);
    expect(consoleErrors).toEqual([]);
  });
});
