import { test, expect } from './support/fixtures';
import { bearerOf } from './support/sign-in';
import { ADA, localStorageItem, presetSignedIn, screenHeading, seedProfile, snackbar, solidPng } from './support/pages';

/**
 * The member's profile on the production build, with the mock API (no delay) behind it: create,
 * validate, edit, cancel, delete.
 */

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
    // The progress shows as the save starts, which may be before the request reaches the route.
    await expect.poll(() => uploads).toHaveLength(1);
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
