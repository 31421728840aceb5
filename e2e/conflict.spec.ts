import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { test, expect, goOffline, goOnline, waitForServiceWorker } from './support/fixtures';
import { AXE_TAGS, axeViolations } from './support/axe';
import { bearerOf } from './support/sign-in';
import { ADA, DESKTOP, presetSignedIn, seedProfile, snackbar, unexpectedErrors } from './support/pages';

/**
 * One member, two devices: each edits the profile from the version it read. The second save names
 * a stale ETag, the server refuses it (412) instead of overwriting the first, and the member sees
 * both versions and chooses. At the end the server holds both edits, online or offline alike.
 */

interface Device {
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/** A browser context of its own (its own storage, its own service worker if allowed), signed in as ada, on the profile. */
async function device(browser: Browser, baseURL: string, serviceWorkers: 'allow' | 'block'): Promise<Device> {
  const context = await browser.newContext({ baseURL, serviceWorkers, viewport: DESKTOP });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await presetSignedIn(page);
  await page.goto('/profile');
  return { page, errors, close: () => context.close() };
}

/** Opens the profile's edit form on the version the server holds now. */
async function openEditForm(page: Page, name = ADA.displayName): Promise<Locator> {
  await expect(page.getByRole('article', { name })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  const form = page.getByRole('form', { name: 'Edit your profile' });
  await expect(form.getByLabel('Display name')).toHaveValue(name);
  return form;
}

async function storedProfile(request: APIRequestContext): Promise<{ displayName: string; bio: string; username: string }> {
  const response = await request.get('/api/user/profile/myprofile', { headers: { authorization: await bearerOf(request) } });
  expect(response.status()).toBe(200);
  return response.json();
}

/** Axe's rules (WCAG 2.1 A and AA, best practice, as e2e/a11y.spec.ts) on the resolver alone. */
const resolverViolations = (page: Page): Promise<string[]> => axeViolations(page, { include: '#profile-conflict', tags: AXE_TAGS });

function resolverOf(page: Page): Locator {
  return page.getByRole('region', { name: 'Your profile changed on another device' });
}

/** Both versions of each differing field side by side, and who changed it: field, mine, theirs, changed. */
async function expectSideBySide(resolver: Locator, rows: [field: string, mine: string, theirs: string, changed: string][]): Promise<void> {
  const body = resolver.getByRole('table').getByRole('row');
  await expect(body).toHaveCount(rows.length + 1);
  for (const [i, [field, mine, theirs, changed]] of rows.entries()) {
    await expect(body.nth(i + 1).getByRole('rowheader')).toHaveText(field);
    await expect(body.nth(i + 1).getByRole('cell')).toHaveText([mine, theirs, changed]);
  }
}

/**
 * ada's profile seeded, then two devices signed in as her; each closed after the test, which fails
 * on an error either printed that is not the browser's line for the 412 a conflict is.
 */
const twoDevices = test.extend<{ devices: { a: Device; b: Device } }>({
  devices: async ({ browser, baseURL, request, serviceWorkers }, use) => {
    await seedProfile(request);
    const a = await device(browser, baseURL!, serviceWorkers ?? 'block');
    const b = await device(browser, baseURL!, serviceWorkers ?? 'block');
    await use({ a, b });
    expect(unexpectedErrors(a.errors, [412])).toEqual([]);
    expect(unexpectedErrors(b.errors, [412])).toEqual([]);
    // The browser's own line for the 412 is all: the app logs no "Backend Error ! 412" for a conflict it shows.
    expect([...a.errors, ...b.errors].filter((line) => line.startsWith('Backend Error ! 412'))).toEqual([]);
  },
});

twoDevices.describe('two devices edit the same profile', () => {
  twoDevices(
    'the second save meets a conflict, merges field by field, and the server keeps both edits',
    async ({ devices: { a, b }, request }) => {
      // Two browsers and two accessibility scans in one test: more than the usual time on two cores.
      twoDevices.slow();
      const formA = await openEditForm(a.page);
      const formB = await openEditForm(b.page);

      await formA.getByLabel('Display name').fill('Countess Ada');
      await formA.getByRole('button', { name: 'Save changes' }).click();
      await expect(a.page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();

      await formB.getByLabel('About you').fill('Poetical science.');
      await formB.getByRole('button', { name: 'Save changes' }).click();
      const resolver = resolverOf(b.page);
      await expect(resolver).toBeVisible();
      await expect(resolver.getByRole('heading', { name: 'Your profile changed on another device' })).toBeFocused();
      await expect(resolver.getByRole('heading', { name: 'Your profile changed on another device' })).toHaveAccessibleDescription(
        'It was saved elsewhere after you started editing, so your changes were not saved. Nothing is lost: choose what to keep.',
      );
      // The safe way out comes first and is the filled button.
      await expect(resolver.getByRole('button')).toHaveText(['Merge field by field', 'Keep my changes', 'Use the other device’s version']);
      // Each changed on one device only: no field is changed on both.
      await expectSideBySide(resolver, [
        ['Display name', ADA.displayName, 'Countess Ada', 'Changed on the other device'],
        ['About you', 'Poetical science.', ADA.bio ?? '', 'Changed here'],
      ]);
      // Nothing was overwritten, and B's edit is still kept on B as a draft.
      expect((await storedProfile(request)).bio).toBe(ADA.bio);
      await expect.poll(() => b.page.evaluate(() => Object.keys(localStorage).some((k) => k.startsWith('draft.profile.')))).toBe(true);

      expect(await resolverViolations(b.page)).toEqual([]);
      await resolver.getByRole('button', { name: 'Merge field by field' }).click();
      const name = resolver.getByRole('group', { name: 'Display name' });
      const bio = resolver.getByRole('group', { name: 'About you' });
      // Each field starts on the side that changed it: theirs for the name, mine for the bio.
      await expect(name.getByRole('radio', { name: 'Other device: Countess Ada' })).toBeChecked();
      await expect(bio.getByRole('radio', { name: 'This device: Poetical science.' })).toBeChecked();
      await expect(name.getByRole('radio', { name: `This device: ${ADA.displayName}` })).not.toBeChecked();
      expect(await resolverViolations(b.page)).toEqual([]);
      // On a desktop screen nothing lies over the button that saves the merge.
      const save = resolver.getByRole('button', { name: 'Save merged profile' });
      await save.scrollIntoViewIfNeeded();
      expect(
        await save.evaluate((button) => {
          const box = button.getBoundingClientRect();
          return button.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
        }),
      ).toBe(true);
      await expect(snackbar(b.page)).toHaveCount(0);
      await save.click();

      await expect(resolver).toHaveCount(0);
      await expect(b.page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();
      await expect(b.page.getByRole('article', { name: 'Countess Ada' })).toContainText('Poetical science.');
      expect(await storedProfile(request)).toMatchObject({ displayName: 'Countess Ada', bio: 'Poetical science.', username: ADA.username });
      await expect.poll(() => b.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft.profile.')))).toEqual([]);
    },
  );

  twoDevices('keep mine for one field, theirs for the other: the merge sends exactly that', async ({ devices: { a, b }, request }) => {
    const formA = await openEditForm(a.page);
    const formB = await openEditForm(b.page);
    await formA.getByLabel('About you').fill('From device A.');
    await formA.getByLabel('Interests').fill('engines');
    await formA.getByRole('button', { name: 'Save changes' }).click();
    await expect(a.page.getByRole('article', { name: ADA.displayName })).toContainText('From device A.');

    await formB.getByLabel('About you').fill('From device B.');
    await formB.getByRole('button', { name: 'Save changes' }).click();
    const resolver = resolverOf(b.page);
    await resolver.getByRole('button', { name: 'Merge field by field' }).click();
    // The first choice to make has the focus.
    await expect(resolver.getByRole('group', { name: 'About you' }).getByRole('radio').first()).toBeFocused();
    await resolver.getByRole('group', { name: 'About you' }).getByRole('radio', { name: 'This device: From device B.' }).check();
    await resolver.getByRole('group', { name: 'Interests' }).getByRole('radio', { name: 'Other device: engines' }).check();
    await resolver.getByRole('button', { name: 'Save merged profile' }).click();
    await expect(resolver).toHaveCount(0);
    expect(await storedProfile(request)).toMatchObject({ bio: 'From device B.', interests: ['engines'] });
  });

  twoDevices(
    'keep my changes: the fields this device changed win, the others keep what the other device saved',
    async ({ devices: { a, b }, request }) => {
      const formA = await openEditForm(a.page);
      const formB = await openEditForm(b.page);
      // The laptop changes the bio, the phone the name.
      await formA.getByLabel('About you').fill('Written on the laptop.');
      await formA.getByRole('button', { name: 'Save changes' }).click();
      await expect(a.page.getByRole('article', { name: ADA.displayName })).toContainText('Written on the laptop.');
      await formB.getByLabel('Display name').fill('Countess Ada');
      await formB.getByRole('button', { name: 'Save changes' }).click();

      const resolver = resolverOf(b.page);
      await expect(resolver.getByRole('button', { name: 'Keep my changes' })).toHaveAccessibleDescription(
        'Keep my changes saves the fields you changed on this device; the others keep the other device’s version.',
      );
      await resolver.getByRole('button', { name: 'Keep my changes' }).click();
      await expect(resolver).toHaveCount(0);
      // The phone's stale copy of the bio does not undo the laptop's.
      expect(await storedProfile(request)).toMatchObject({ displayName: 'Countess Ada', bio: 'Written on the laptop.' });
      await expect(b.page.getByRole('article', { name: 'Countess Ada' })).toContainText('Written on the laptop.');
    },
  );

  twoDevices('take theirs: the edit is dropped and the saved version shown', async ({ devices: { a, b }, request }) => {
    const formA = await openEditForm(a.page);
    const formB = await openEditForm(b.page);
    await formA.getByLabel('Display name').fill('Countess Ada');
    await formA.getByRole('button', { name: 'Save changes' }).click();
    await expect(a.page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();
    await formB.getByLabel('Display name').fill('Ada King');
    await formB.getByRole('button', { name: 'Save changes' }).click();
    await expect(resolverOf(b.page)).toBeVisible();
    // A reload before choosing brings the same choice back: the edit is kept on the device.
    await b.page.reload();
    await expectSideBySide(resolverOf(b.page), [['Display name', 'Ada King', 'Countess Ada', 'Changed on both: choose one']]);
    await resolverOf(b.page).getByRole('button', { name: 'Use the other device’s version' }).click();
    await expect(b.page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();
    await expect(snackbar(b.page)).toContainText('Your changes were discarded.');
    expect((await storedProfile(request)).displayName).toBe('Countess Ada');
  });

  twoDevices('a delete on a profile changed elsewhere asks again over the current version', async ({ devices: { a, b }, request }) => {
    await expect(b.page.getByRole('article', { name: ADA.displayName })).toBeVisible();
    const formA = await openEditForm(a.page);
    await formA.getByLabel('Display name').fill('Countess Ada');
    await formA.getByRole('button', { name: 'Save changes' }).click();
    await expect(a.page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();

    await b.page.getByRole('button', { name: 'Delete profile' }).click();
    await b.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    const dialog = b.page.getByRole('dialog', { name: 'Delete your profile?' });
    await expect(dialog).toContainText('Your profile was changed on another device after you opened it.');
    await expect(b.page.getByRole('article', { name: 'Countess Ada' })).toBeAttached();
    expect((await storedProfile(request)).displayName).toBe('Countess Ada');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(b.page.getByRole('heading', { name: 'Create your profile' })).toBeVisible();
  });

  twoDevices.describe('with the worker', () => {
    twoDevices.use({ serviceWorkers: 'allow' });
    twoDevices(
      'offline: a queued save the profile changed under is surfaced when back online, and nothing is lost',
      async ({ devices: { a, b }, request }) => {
        await waitForServiceWorker(b.page);
        const formB = await openEditForm(b.page);

        await goOffline(b.page);
        await formB.getByLabel('About you').fill('Written on the train.');
        await formB.getByRole('button', { name: 'Save changes' }).click();
        await expect(b.page.getByText('Saved on this device. It will be sent when you are back online.').first()).toBeVisible();

        const formA = await openEditForm(a.page);
        await formA.getByLabel('Display name').fill('Countess Ada');
        await formA.getByRole('button', { name: 'Save changes' }).click();
        await expect(a.page.getByRole('article', { name: 'Countess Ada' })).toBeVisible();

        await goOnline(b.page);
        const resolver = resolverOf(b.page);
        await expect(resolver).toBeVisible();
        await expectSideBySide(resolver, [
          ['Display name', ADA.displayName, 'Countess Ada', 'Changed on the other device'],
          ['About you', 'Written on the train.', ADA.bio ?? '', 'Changed here'],
        ]);
        // The replay overwrote nothing, and the save is still kept, marked as a conflict.
        expect((await storedProfile(request)).bio).toBe(ADA.bio);
        await resolver.getByRole('button', { name: 'Merge field by field' }).click();
        await resolver.getByRole('button', { name: 'Save merged profile' }).click();
        await expect(resolver).toHaveCount(0);
        expect(await storedProfile(request)).toMatchObject({ displayName: 'Countess Ada', bio: 'Written on the train.' });
        await expect(b.page.getByTestId('pending-save')).toHaveCount(0);
      },
    );
  });
});
