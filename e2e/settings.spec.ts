import { test, expect } from './support/fixtures';
import { appRunning, localStorageItem, screenHeading } from './support/pages';

/**
 * Settings on the production build: the appearance (a scheme and an accent), the language, and
 * their stored preference.
 */

test.describe('settings', () => {
  test('an accent and Dark apply at once, survive a reload and are persisted; Light keeps the accent', async ({ page, consoleErrors }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/settings');
    await appRunning(page);
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'INDIGO_PINK');
    await expect(html).toHaveAttribute('data-color-scheme', 'system');
    await page.getByRole('radio', { name: 'Pink and blue grey' }).check();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect(html).toHaveAttribute('data-theme', 'PINK_BLUEGREY');
    await expect(html).toHaveAttribute('data-color-scheme', 'dark');
    const primary = () =>
      page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim().toUpperCase());
    expect(await primary()).toBe('#E91E63');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
    // The top bar is painted in the new primary colour, the page in the dark background.
    await expect(page.locator('.topbar')).toHaveCSS('background-color', 'rgb(233, 30, 99)');
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 18, 18)');
    const stored = JSON.parse((await localStorageItem(page, 'preference')) ?? 'null') as Record<string, unknown>;
    expect(stored).toEqual({ language: 'en', activeThemeName: 'PINK_BLUEGREY', enableNotifications: false, colorScheme: 'dark' });

    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'PINK_BLUEGREY');
    expect(await primary()).toBe('#E91E63');
    await expect(page.getByRole('radio', { name: 'Pink and blue grey' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', /^#e91e63$/i);

    await appRunning(page);
    await page.getByRole('radio', { name: 'Light' }).check();
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(250, 250, 250)');
    await expect(page.locator('.topbar')).toHaveCSS('background-color', 'rgb(233, 30, 99)');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('light');
    expect(consoleErrors).toEqual([]);
  });

  test("System follows the device's light or dark as it changes", async ({ page, consoleErrors }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/settings');
    await appRunning(page);
    await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
    const body = page.locator('body');
    await expect(body).toHaveCSS('background-color', 'rgb(18, 18, 18)');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(body).toHaveCSS('background-color', 'rgb(250, 250, 250)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(body).toHaveCSS('background-color', 'rgb(18, 18, 18)');
    // A scheme chosen holds whatever the device says.
    await page.getByRole('radio', { name: 'Light' }).check();
    await expect(body).toHaveCSS('background-color', 'rgb(250, 250, 250)');
    expect(consoleErrors).toEqual([]);
  });

  test("a preference stored as the seed stores it shows its theme: {activeThemeName: 'PINK_BLUEGREY'} is pink in Dark", async ({
    page,
    consoleErrors,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.addInitScript(() => localStorage.setItem('preference', JSON.stringify({ activeThemeName: 'PINK_BLUEGREY' })));
    await page.goto('/settings');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'PINK_BLUEGREY');
    await expect(html).toHaveAttribute('data-color-scheme', 'dark');
    await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(18, 18, 18)');
    await appRunning(page);
    await expect(page.getByRole('radio', { name: 'Pink and blue grey' })).toBeChecked();
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
    expect(consoleErrors).toEqual([]);
  });

  test('Español applies at once to <html lang> and every string, and survives a reload', async ({ page, consoleErrors }) => {
    await page.goto('/settings');
    await expect(screenHeading(page)).toHaveText('Settings');
    await appRunning(page);
    await page.getByRole('combobox', { name: 'Language of the app', exact: true }).selectOption({ label: 'Español' });
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(screenHeading(page)).toHaveText('Ajustes');
    await expect(page).toHaveTitle('Ajustes | Circle');
    await expect(page.getByRole('radio', { name: 'Rosa y gris azulado' })).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Oscuro' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    const stored = JSON.parse((await localStorageItem(page, 'preference')) ?? 'null') as Record<string, unknown>;
    expect(stored).toMatchObject({ language: 'es' });

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(screenHeading(page)).toHaveText('Ajustes');
    await expect(page.getByRole('combobox', { name: 'Idioma de la aplicación', exact: true })).toHaveValue('es');

    // And back: English returns without a reload.
    await page.getByRole('combobox', { name: 'Idioma de la aplicación', exact: true }).selectOption('en');
    await expect(screenHeading(page)).toHaveText('Settings');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(consoleErrors).toEqual([]);
  });

  for (const [name, raw] of [
    ['unterminated JSON', '{"language":"fr","activeThemeName":42'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"PINK_BLUEGREY"'],
  ] as const) {
    test(`a corrupted 'preference' (${name}) falls back to the defaults without errors`, async ({ page, consoleErrors }) => {
      await page.addInitScript((value) => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem('preference', value);
          sessionStorage.setItem('seeded', '1');
        }
      }, raw);
      await page.goto('/settings');
      await expect(screenHeading(page)).toHaveText('Settings');
      await appRunning(page);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'INDIGO_PINK');
      await expect(page.locator('html')).toHaveAttribute('data-color-scheme', 'system');
      await expect(page.getByRole('radio', { name: 'Indigo and pink' })).toBeChecked();
      await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
      await expect(page.getByRole('combobox', { name: 'Language of the app', exact: true })).toHaveValue('en');
      // The next change writes a valid value over the broken one.
      await page.getByRole('radio', { name: 'Purple and green' }).check();
      await expect
        .poll(async () => JSON.parse((await localStorageItem(page, 'preference')) ?? 'null'))
        .toEqual({
          language: 'en',
          activeThemeName: 'PURPLE_GREEN',
          enableNotifications: false,
          colorScheme: 'system',
        });
      expect(consoleErrors).toEqual([]);
    });
  }

  test('a stored preference with one bad field keeps the good ones', async ({ page, consoleErrors }) => {
    await page.addInitScript(() =>
      localStorage.setItem('preference', '{"language":"es","activeThemeName":42,"enableNotifications":"yes","colorScheme":"sepia"}'),
    );
    await page.goto('/settings');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(screenHeading(page)).toHaveText('Ajustes');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'INDIGO_PINK');
    await expect(page.locator('html')).toHaveAttribute('data-color-scheme', 'system');
    await expect(page.getByRole('switch')).toHaveAttribute('aria-checked', 'false');
    expect(consoleErrors).toEqual([]);
  });
});
