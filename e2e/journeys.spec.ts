import { test, expect } from './support/fixtures';
import { bearerOf, signIn } from './support/sign-in';
import {
  ADA,
  appRunning,
  DESKTOP,
  MOBILE,
  localStorageItem,
  presetSignedIn,
  screenHeading,
  seedProfile,
  settled,
  snackbar,
  solidPng,
  unexpectedErrors,
  untranslatedTexts,
} from './support/pages';
import { CATALOGUES } from '../src/index.ts';

/** The words the pages must show, in each language's catalogue. */
const { en, fr, 'zh-Hans': zhHans } = CATALOGUES;

/** Every screen's journey on the production build, with the mock API (no delay) behind it. */

test.describe('routes and titles', () => {
  test("'/' redirects to /home with the title 'Home | Circle'", async ({ page, consoleErrors }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/home$/);
    await expect(page).toHaveTitle('Home | Circle');
    await expect(screenHeading(page)).toHaveText('Welcome to Circle');
    expect(consoleErrors).toEqual([]);
  });

  test('an unknown path answers 404 with the not-found page at that address, whose link goes home', async ({ page, consoleErrors }) => {
    const response = await page.goto('/nope/deeper');
    expect(response?.status()).toBe(404);
    await expect(page).toHaveURL(/\/nope\/deeper$/);
    await expect(page).toHaveTitle('Page not found | Circle');
    await expect(screenHeading(page)).toHaveText('Page not found');
    // The title, the heading and the link all come in the page's HTML: until the app has taken the
    // page over, the link is a plain one, and a click on it loads /home as a new document, where the
    // focus rightly stays at the start (the flaky failure: on a busy machine the click came first).
    // The navigation under test is the app's: it starts once the app runs, in this same document.
    await appRunning(page);
    await page.evaluate(() => Object.assign(window, { notFoundDocument: true }));
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page).toHaveTitle('Home | Circle');
    await expect(screenHeading(page)).toHaveText('Welcome to Circle');
    expect(await page.evaluate(() => 'notFoundDocument' in window), 'an in-app navigation, not a new document').toBe(true);
    // An in-app navigation puts focus on the new screen's heading.
    await expect(screenHeading(page)).toBeFocused();
    // The browser reports the page's own 404 status.
    expect(unexpectedErrors(consoleErrors, [404])).toEqual([]);
  });

  for (const [path, title, heading] of [
    ['/profile', 'Profile | Circle', 'Your profile'],
    ['/settings', 'Settings | Circle', 'Settings'],
    ['/dashboard', 'Dashboard | Circle', 'Dashboard'],
    ['/sign-in', 'Sign in | Circle', 'Sign in'],
  ] as const) {
    test(`${path} has the title '${title}'`, async ({ page, consoleErrors }) => {
      if (path === '/profile') await presetSignedIn(page);
      await page.goto(path);
      await expect(screenHeading(page)).toHaveText(heading);
      await expect(page).toHaveTitle(title);
      await settled(page);
      expect(consoleErrors).toEqual([]);
    });
  }

  test("/admin/symbols, signed in, has the title 'Admin | symbols | Circle'", async ({ page, consoleErrors }) => {
    await presetSignedIn(page);
    await page.goto('/admin/symbols');
    await expect(page).toHaveTitle('Admin | symbols | Circle');
    await expect(page.getByRole('heading', { name: 'Collection: symbols' })).toBeVisible();
    // The breadcrumb title follows in-app navigation too.
    await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: 'accounts' }).click();
    await expect(page).toHaveTitle('Admin | accounts | Circle');
    await expect(page.getByRole('cell', { name: 'Membership fees' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('an unknown admin collection goes to /404', async ({ page, consoleErrors }) => {
    await presetSignedIn(page);
    await page.goto('/admin/nothing-here');
    await expect(page).toHaveURL(/\/404$/);
    await expect(screenHeading(page)).toHaveText('Page not found');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('profile', () => {
  test.beforeEach(async ({ page }) => {
    await presetSignedIn(page);
  });

  test('create with every field and an avatar: progress shows, then the card with the avatar', async ({ page, context, consoleErrors }) => {
    // Hold the upload at the server door, so the progress region can be seen before it completes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const uploads: string[] = [];
    await context.route('**/api/user/profile', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      uploads.push(route.request().headers()['content-type'] ?? '');
      await held;
      await route.continue();
    });

    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
    await expect(page.getByText('You have no profile yet.')).toBeVisible();
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByLabel('Username').fill('grace_h');
    await page.getByLabel('Email').fill('grace@example.org');
    await page.getByLabel('About you').fill('Compilers, and nanoseconds on a string.');
    await page.getByLabel('Preferred language').selectOption('es');
    await page.getByLabel('Interests').fill('cobol, navy , , teaching');
    await page.getByLabel('Avatar').setInputFiles({ name: 'grace.png', mimeType: 'image/png', buffer: solidPng(2, 2) });
    // The chosen image is previewed before it is sent.
    await expect(page.locator('.avatar--preview')).toBeVisible();

    await page.getByRole('button', { name: 'Create profile' }).click();
    const progress = page.getByRole('progressbar');
    await expect(progress).toBeVisible();
    await expect(page.getByText('Upload progress')).toBeVisible();
    await expect(page.locator('#profile-progress-message')).toHaveText(/Uploading Files|Files are \d+% uploaded/);
    await expect(page.getByRole('button', { name: 'Create profile' })).toBeDisabled();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatch(/^multipart\/form-data; boundary=/);
    release();

    const card = page.getByRole('article', { name: 'Grace Hopper' });
    await expect(card).toBeVisible();
    await expect(progress).toHaveCount(0);
    await expect(card.getByText('@grace_h')).toBeVisible();
    await expect(card.getByText('grace@example.org')).toBeVisible();
    await expect(card.getByText('Compilers, and nanoseconds on a string.')).toBeVisible();
    await expect(card.getByRole('list', { name: 'Interests' }).getByRole('listitem')).toHaveText(['cobol', 'navy', 'teaching']);
    // Named in the language on screen.
    await expect(card.getByText('Preferred language: Spanish')).toBeVisible();
    const avatar = card.getByRole('img', { name: 'Avatar of Grace Hopper' });
    await expect(avatar).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    await expect(snackbar(page)).toHaveText(/Your profile was created\./);
    // The form is gone, so is its draft.
    expect(await localStorageItem(page, 'draft.profile.new')).toBeNull();
    expect(consoleErrors).toEqual([]);
  });

  test('errors show only after submit, each described by its message, and focus goes to the first invalid field', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/profile');
    const form = page.getByRole('form', { name: 'Create your profile' });
    await expect(form).toBeVisible();
    await expect(form.locator('[aria-invalid="true"]')).toHaveCount(0);
    await expect(form.locator('.field__error')).toHaveCount(0);
    // A new profile starts from the name and e-mail the provider gave: emptied here, to meet every
    // required field's error.
    await expect(page.getByLabel('Display name')).toHaveValue('Ada Lovelace');
    await expect(page.getByLabel('Email')).toHaveValue('ada@circle.example.org');
    await page.getByLabel('Display name').fill('');
    await page.getByLabel('Email').fill('');

    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please correct 3 fields before saving.');
    for (const label of ['Display name', 'Username', 'Email']) {
      const input = page.getByLabel(label);
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(/This field is required\./);
      // The message is in the page, and it is the element aria-describedby points at.
      const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/);
      const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
      expect(texts).toContain('This field is required.');
    }
    // Optional fields that are valid stay quiet.
    await expect(page.getByLabel('About you')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Display name')).toBeFocused();

    // Fixing one field updates its message at once, the summary counts the rest.
    await page.getByLabel('Display name').fill('Grace');
    await expect(page.getByLabel('Display name')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toHaveText('Please correct 2 fields before saving.');
    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page.getByLabel('Username')).toBeFocused();
    expect(consoleErrors).toEqual([]);
  });

  test('a touched invalid field shows its error on blur, untouched ones do not', async ({ page, consoleErrors }) => {
    await page.goto('/profile');
    const username = page.getByLabel('Username');
    await username.fill('AB');
    await expect(username).not.toHaveAttribute('aria-invalid', 'true');
    await username.press('Tab');
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(username).toHaveAttribute('aria-invalid', 'true');
    await expect(username).toHaveAccessibleDescription(/Use 3 to 20 lower-case letters, digits or _\./);
    // Email has focus but was not left yet; display name was never touched.
    await expect(page.getByLabel('Email')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Display name')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('.field__error')).toHaveCount(1);
    await expect(page.getByRole('alert')).toHaveCount(0);

    await username.fill('ab_c');
    await expect(username).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Use 3 to 20 lower-case letters, digits or _.')).toHaveCount(0);
    // Leaving the email was a touch too: it holds the provider's address, valid, and stays quiet.
    await expect(page.getByLabel('Email')).toHaveValue('ada@circle.example.org');
    await expect(page.getByLabel('Email')).not.toHaveAttribute('aria-invalid', 'true');
    expect(consoleErrors).toEqual([]);
  });

  test('Save pressed while the last field is invalid still submits: the errors show and focus goes to the first', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto('/profile');
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByLabel('Username').fill('grace_h');
    await page.getByLabel('Email').fill('grace@');
    // Focus is still in the email field: a mouse press on Save blurs it before the click lands.
    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please correct 1 field before saving.');
    await expect(page.getByLabel('Email')).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription('Enter an email address like name@example.org.');
    expect(consoleErrors).toEqual([]);
  });

  test('an SVG avatar is refused before anything is uploaded', async ({ page, consoleErrors }) => {
    const writes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/') && request.method() !== 'GET') writes.push(`${request.method()} ${request.url()}`);
    });
    await page.goto('/profile');
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByLabel('Username').fill('grace_h');
    await page.getByLabel('Email').fill('grace@example.org');
    const avatar = page.getByLabel('Avatar');
    await avatar.setInputFiles({
      name: 'logo.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'),
    });
    await expect(page.getByText('Choose a PNG, JPEG or WebP image.')).toBeVisible();
    await expect(avatar).toHaveAttribute('aria-invalid', 'true');
    await expect(avatar).toHaveAccessibleDescription(/Choose a PNG, JPEG or WebP image\./);
    await expect(page.locator('.avatar--preview')).toHaveCount(0);

    await page.getByRole('button', { name: 'Create profile' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please correct 1 field before saving.');
    await expect(avatar).toBeFocused();
    await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
    expect(writes).toEqual([]);

    // A PNG clears the refusal.
    await avatar.setInputFiles({ name: 'ok.png', mimeType: 'image/png', buffer: solidPng() });
    await expect(page.getByText('Choose a PNG, JPEG or WebP image.')).toHaveCount(0);
    await expect(avatar).not.toHaveAttribute('aria-invalid', 'true');
    expect(consoleErrors).toEqual([]);
  });

  test('edit the display name: the card shows it and a snackbar confirms', async ({ page, request, consoleErrors }) => {
    await seedProfile(request);
    await page.goto('/profile');
    await expect(page.getByRole('article', { name: ADA.displayName })).toBeVisible();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit your profile' });
    await expect(form.getByLabel('Display name')).toHaveValue(ADA.displayName);
    await expect(form.getByLabel('Interests')).toHaveValue('maths, poetry');
    await form.getByLabel('Display name').fill('Countess Ada');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();
    await expect(form).toHaveCount(0);
    await expect(snackbar(page)).toContainText('Your changes were saved.');
    // The server has it too.
    const headers = { authorization: await bearerOf(request) };
    const stored = (await (await request.get('/api/user/profile/myprofile', { headers })).json()) as {
      displayName: string;
      username: string;
    };
    expect(stored).toMatchObject({ displayName: 'Countess Ada', username: ADA.username });
    await page.reload();
    await expect(page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('cancel an edit: nothing changes and no draft is kept', async ({ page, request, consoleErrors }) => {
    const { id } = await seedProfile(request);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Display name').fill('Someone else');
    await expect.poll(() => localStorageItem(page, `draft.profile.${id}`)).toContain('Someone else');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('article', { name: ADA.displayName })).toBeVisible();
    expect(await localStorageItem(page, `draft.profile.${id}`)).toBeNull();
    expect(consoleErrors).toEqual([]);
  });

  test('delete asks first: Cancel keeps the profile, Delete removes it and the create form returns', async ({
    page,
    request,
    consoleErrors,
  }) => {
    await seedProfile(request);
    await page.goto('/profile');
    const card = page.getByRole('article', { name: ADA.displayName });
    await expect(card).toBeVisible();

    await page.getByRole('button', { name: 'Delete profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your profile?' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveAccessibleDescription('Your profile and avatar will be removed. This cannot be undone.');
    // The safe choice has focus.
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toBeVisible();
    const headers = { authorization: await bearerOf(request) };
    expect((await request.get('/api/user/profile/myprofile', { headers })).status()).toBe(200);

    // Escape cancels too.
    await page.getByRole('button', { name: 'Delete profile' }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(card).toBeVisible();

    await page.getByRole('button', { name: 'Delete profile' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(dialog).toBeHidden();
    await expect(card).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
    // A new one would start from the provider's name again.
    await expect(page.getByLabel('Display name')).toHaveValue('Ada Lovelace');
    await expect(snackbar(page)).toContainText('Your profile was deleted.');
    expect((await request.get('/api/user/profile/myprofile', { headers })).status()).toBe(204);
    expect(consoleErrors).toEqual([]);
  });

  test('the home screen greets the member and shows the compact card', async ({ page, request, consoleErrors }) => {
    await seedProfile(request);
    await page.goto('/home');
    await expect(screenHeading(page)).toHaveText(`Welcome back, ${ADA.displayName}!`);
    await expect(page.getByRole('article', { name: ADA.displayName })).toBeVisible();
    await page.getByRole('link', { name: 'View your profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('button', { name: 'Delete profile' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });
});

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

/**
 * The main journeys in French and in Simplified Chinese, the language set in the stored preference
 * before the first load: every interface text comes from that catalogue, numbers, amounts, dates
 * and times follow the language, and nothing English is left on the screen.
 */
const LANGUAGE_RUNS = [
  {
    lang: 'fr',
    name: 'Français',
    m: fr,
    // Only the username is left to give: the name and e-mail are the provider's.
    summary: 'Corrigez 1 champ avant d’enregistrer.',
    // A language named in text, in the language on screen.
    language: 'français',
    ago: /^(il y a \d+ (jours?|semaines?|mois|ans?|heures?|minutes?)|hier|avant-hier|la semaine dernière|le mois dernier|l’année dernière)$/,
    fee: /1\u202f250,50\u00a0€/,
    since: /^Membre depuis le \d{1,2} [a-zéû]+\.? \d{4}$/,
  },
  {
    lang: 'zh-Hans',
    name: '简体中文',
    m: zhHans,
    summary: '保存前请更正 1 个字段。',
    language: '简体中文',
    ago: /^(\d+(天|周|个月|年|小时|分钟)前|昨天|前天|上周|上个月|去年)$/,
    fee: /€1,250\.50/,
    since: /^加入时间：\d{4}年\d{1,2}月\d{1,2}日$/,
  },
] as const;

for (const run of LANGUAGE_RUNS) {
  const { lang, m } = run;
  test.describe(`in ${run.name} (${lang})`, () => {
    test.beforeEach(async ({ page }) => {
      // As a member who chose it earlier: stored before the first load, a later choice is kept.
      await page.addInitScript((language) => {
        if (localStorage.getItem('preference') === null) {
          localStorage.setItem('preference', JSON.stringify({ language, activeThemeName: 'INDIGO_PINK', enableNotifications: false }));
        }
      }, lang);
    });

    test('home: the welcome, the call to create a profile and the notifications with their relative times', async ({
      page,
      consoleErrors,
    }) => {
      await page.goto('/home');
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(screenHeading(page)).toHaveText(m['home.title']);
      await expect(page).toHaveTitle(`${m['nav.home']} | Circle`);
      await expect(page.getByRole('main').getByRole('link', { name: m['nav.signIn'] })).toBeVisible();
      await expect(page.getByRole('heading', { name: m['home.latestNotifications'] })).toBeVisible();
      const times = page.locator('.notification__time');
      await expect(times).toHaveCount(3);
      for (const time of await times.all()) {
        await expect(time).toHaveText(run.ago);
        // The exact date and time stay one hover away.
        await expect(time).toHaveAttribute('title', /\d{4}/);
      }
      await settled(page);
      expect(await untranslatedTexts(page, en, m)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });

    test('profile: the form checks in the language, then creates the profile and shows the card', async ({ page, consoleErrors }) => {
      await presetSignedIn(page);
      await page.goto('/profile');
      const form = page.getByRole('form', { name: m['profile.createTitle'] });
      await expect(form).toBeVisible();
      await expect(page.getByText(m['profile.none'])).toBeVisible();
      // A new profile's preferred language is the one on screen.
      await expect(form.getByLabel(m['field.language'])).toHaveValue(lang);
      await form.getByRole('button', { name: m['profile.create'] }).click();
      await expect(form.getByRole('alert').first()).toHaveText(run.summary);
      await expect(form.getByLabel(m['field.username'])).toBeFocused();
      await expect(form.getByText(m['validation.required']).first()).toBeVisible();
      expect(await untranslatedTexts(page, en, m)).toEqual([]);

      await form.getByLabel(m['field.displayName']).fill('Ada Lovelace');
      await form.getByLabel(m['field.username']).fill('ada_l');
      await form.getByLabel(m['field.email']).fill('ada@example.org');
      await form.getByLabel(m['field.interests']).fill(lang === 'zh-Hans' ? '数学，诗歌' : 'maths, poésie');
      await form.getByRole('button', { name: m['profile.create'] }).click();

      const card = page.getByRole('article', { name: 'Ada Lovelace' });
      await expect(card).toBeVisible();
      await expect(snackbar(page)).toHaveText(m['profile.created']);
      await expect(card.getByRole('list', { name: m['field.interests'] }).getByRole('listitem')).toHaveText(
        lang === 'zh-Hans' ? ['数学', '诗歌'] : ['maths', 'poésie'],
      );
      await expect(card.getByText(m['profile.preferredLanguage'].replace('{language}', run.language))).toBeVisible();
      await expect(card.getByText(run.since)).toBeVisible();
      await expect(page.getByRole('button', { name: m['profile.delete'] })).toBeVisible();
      expect(await untranslatedTexts(page, en, m)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });

    test('settings: the five languages in their own names; switching applies at once and is kept', async ({ page, consoleErrors }) => {
      await page.goto('/settings');
      await expect(screenHeading(page)).toHaveText(m['settings.title']);
      await expect(page).toHaveTitle(`${m['nav.settings']} | Circle`);
      const picker = page.getByRole('combobox', { name: m['settings.languageLabel'], exact: true });
      await expect(picker).toHaveValue(lang);
      await expect(picker.getByRole('option')).toHaveText(['English', 'Español', 'Deutsch', 'Français', '简体中文']);
      await expect(page.getByRole('radio', { name: m['settings.theme.PINK_BLUEGREY'] })).toBeVisible();
      await expect(page.getByRole('switch', { name: m['settings.notifications.toggle'] })).toBeVisible();
      await settled(page);
      expect(await untranslatedTexts(page, en, m)).toEqual([]);

      const other = lang === 'fr' ? { lang: 'zh-Hans', m: zhHans, name: '简体中文' } : { lang: 'fr', m: fr, name: 'Français' };
      await picker.selectOption({ label: other.name });
      await expect(page.locator('html')).toHaveAttribute('lang', other.lang);
      await expect(screenHeading(page)).toHaveText(other.m['settings.title']);
      await expect(page).toHaveTitle(`${other.m['nav.settings']} | Circle`);
      expect(JSON.parse((await localStorageItem(page, 'preference')) ?? 'null')).toMatchObject({ language: other.lang });
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', other.lang);
      await expect(screenHeading(page)).toHaveText(other.m['settings.title']);
      expect(consoleErrors).toEqual([]);
    });

    test('dashboard: amounts, numbers and times follow the language', async ({ page, consoleErrors }) => {
      await page.goto('/dashboard');
      await expect(screenHeading(page)).toHaveText(m['dashboard.title']);
      const accounts = page.getByRole('region', { name: m['dashboard.accounts'] });
      await expect(accounts.getByRole('listitem')).toHaveCount(3);
      await expect(accounts.getByRole('listitem').first()).toContainText(run.fee);
      await expect(page.getByRole('region', { name: m['dashboard.symbols'] }).locator('.symbol-code')).toHaveText(['MSFT', 'AAPL', 'GOOG']);
      const notifications = page.getByRole('region', { name: m['dashboard.notifications'] });
      await expect(notifications.getByRole('listitem').first()).toContainText(m['notifications.level.warning']);
      await expect(notifications.locator('.notification__time').first()).toHaveText(run.ago);
      await settled(page);
      expect(await untranslatedTexts(page, en, m)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  });
}
