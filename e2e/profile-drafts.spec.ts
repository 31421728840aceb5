import { test, expect } from './support/fixtures';
import { ADA, localStorageItem, presetSignedIn, seedProfile, snackbar, solidPng } from './support/pages';

/**
 * The profile form's draft on the production build: what was typed, and a chosen avatar, survive a
 * reload until saved or started over.
 */

test.describe('drafts', () => {
  test.beforeEach(async ({ page }) => {
    await presetSignedIn(page);
  });

  test('what was typed survives a reload, with a snackbar; Start over clears it', async ({ page, consoleErrors }) => {
    await page.goto('/profile');
    await page.getByLabel('Display name').fill('Half typed');
    await page.getByLabel('Username').fill('half_t');
    await page.getByLabel('About you').fill('Line one\nline two');
    await expect.poll(() => localStorageItem(page, 'draft.profile.new')).toContain('half_t');

    await page.reload();
    await expect(page.getByLabel('Display name')).toHaveValue('Half typed');
    await expect(page.getByLabel('Username')).toHaveValue('half_t');
    await expect(page.getByLabel('About you')).toHaveValue('Line one\nline two');
    await expect(page.getByLabel('Email')).toHaveValue('ada@circle.example.org');
    await expect(snackbar(page)).toContainText('Your unsaved changes were restored.');

    // Started over, the form is as it began: the provider's name, nothing typed.
    await page.getByRole('button', { name: 'Start over' }).click();
    await expect(page.getByLabel('Display name')).toHaveValue('Ada Lovelace');
    await expect(page.getByLabel('Username')).toHaveValue('');
    await expect(page.getByLabel('About you')).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Start over' })).toHaveCount(0);
    expect(await localStorageItem(page, 'draft.profile.new')).toBeNull();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
    await expect(page.getByLabel('Display name')).toHaveValue('Ada Lovelace');
    await expect(snackbar(page)).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('a chosen avatar survives a reload with the typed fields, and is uploaded with the save', async ({ page, consoleErrors }) => {
    await page.goto('/profile');
    await page.getByLabel('Display name').fill('Ada Avatar');
    await page.getByLabel('Username').fill('ada_avatar');
    await page.getByLabel('Email').fill('ada@example.org');
    await page.getByLabel('Avatar').setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: solidPng(3, 3) });
    await expect(page.locator('.avatar--preview')).toBeVisible();
    await expect.poll(() => localStorageItem(page, 'draft.profile.new')).toContain('ada_avatar');

    await page.reload();
    await expect(page.getByLabel('Username')).toHaveValue('ada_avatar');
    const preview = page.locator('.avatar--preview');
    await expect(preview).toBeVisible();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(3);

    await page.getByRole('button', { name: 'Create profile' }).click();
    const avatar = page.getByRole('article', { name: 'Ada Avatar' }).getByRole('img', { name: 'Avatar of Ada Avatar' });
    await expect(avatar).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(3);
    expect(consoleErrors).toEqual([]);
  });

  test('Start over drops a chosen avatar too, also after a reload', async ({ page, consoleErrors }) => {
    await page.goto('/profile');
    // How many chosen avatars wait on the device.
    const draftAvatarKeys = () =>
      page.evaluate(async () => {
        // Opening a database that is not there would create it empty, under the app's feet.
        if (!(await indexedDB.databases()).some((db) => db.name === 'circle-drafts')) return 0;
        return new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('circle-drafts');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('avatars')) {
              db.close();
              return resolve(0);
            }
            const count = db.transaction('avatars').objectStore('avatars').count();
            count.onsuccess = () => {
              db.close();
              resolve(count.result);
            };
            count.onerror = () => reject(count.error);
          };
        });
      });
    await page.getByLabel('Avatar').setInputFiles({ name: 'ada.png', mimeType: 'image/png', buffer: solidPng(3, 3) });
    await expect(page.locator('.avatar--preview')).toBeVisible();
    await expect.poll(draftAvatarKeys).toBe(1);
    await page.reload();
    await expect(page.locator('.avatar--preview')).toBeVisible();
    await page.getByRole('button', { name: 'Start over' }).click();
    await expect(page.locator('.avatar--preview')).toHaveCount(0);
    // The file is gone from the device, not only from the screen.
    await expect.poll(draftAvatarKeys).toBe(0);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
    await expect(page.locator('.avatar--preview')).toHaveCount(0);
    expect(consoleErrors).toEqual([]);
  });

  test('an unsaved edit reopens the edit form after a reload', async ({ page, request, consoleErrors }) => {
    await seedProfile(request);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Display name').fill('Ada, Countess of Lovelace');
    await page.reload();
    const form = page.getByRole('form', { name: 'Edit your profile' });
    await expect(form.getByLabel('Display name')).toHaveValue('Ada, Countess of Lovelace');
    await expect(form.getByLabel('Username')).toHaveValue(ADA.username);
    await expect(snackbar(page)).toContainText('Your unsaved changes were restored.');
    expect(consoleErrors).toEqual([]);
  });
});
