import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures';
import { ADA, appRunning, presetSignedIn, seedProfile, snackbar, solidPng } from './pages';
import { bearerOf } from './sign-in';
import type { Language, Messages } from '../../src/index.ts';
import { PAGE_MESSAGES } from '../../oidc/index.ts';

/** A screen opened in any language: the catalogue `m` names what to wait for. */
export interface LanguageScreen {
  name: string;
  signedIn?: boolean;
  /** A page of the identity provider, not the app's: it has no theme of the app's. */
  external?: boolean;
  /** Only at this width (the modal drawer exists on phones only). */
  only?: 'mobile' | 'desktop';
  /** Brings the screen to the state to check in the language `lang`, and waits until it is there. */
  open(page: Page, m: Messages, request: APIRequestContext, lang: Language): Promise<void>;
  /**
   * A second state, reached from the first on the same page and checked the same way: it costs a
   * few clicks instead of opening the screen again.
   */
  next?: { name: string; reach(page: Page, m: Messages): Promise<void> };
}

/** A message with its {name} placeholders filled, as the app fills them. */
const fill = (template: string, params: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => String(params[name] ?? whole));

/** The main screens, each opened and settled the same way by the language and axe suites. */
export const MAIN_SCREENS: LanguageScreen[] = [
  {
    name: 'home',
    async open(page, m) {
      await page.goto('/home');
      await expect(page.locator('.notification')).toHaveCount(3);
      await expect(page.getByRole('main').getByRole('link', { name: m['nav.signIn'] })).toBeVisible();
    },
  },
  {
    name: 'profile: create form with errors shown',
    signedIn: true,
    async open(page, m) {
      await page.goto('/profile');
      const form = page.getByRole('form', { name: m['profile.createTitle'] });
      // The provider's name and e-mail fill two fields: emptied, every required field shows its error.
      await expect(form.getByLabel(m['field.displayName'])).not.toHaveValue('');
      await form.getByLabel(m['field.displayName']).fill('');
      await form.getByLabel(m['field.email']).fill('');
      await form.getByRole('button', { name: m['profile.create'] }).click();
      await expect(form.getByLabel(m['field.displayName'])).toBeFocused();
    },
  },
  {
    name: 'settings',
    async open(page, m) {
      await page.goto('/settings');
      await expect(page.getByRole('switch', { name: m['settings.notifications.toggle'] })).toBeVisible();
    },
  },
  {
    name: 'notifications',
    signedIn: true,
    async open(page, m) {
      await page.goto('/notifications');
      await expect(page.locator('.notification')).toHaveCount(3);
      await expect(page.getByRole('button', { name: m['inbox.markAllRead'] })).toBeVisible();
    },
  },
  {
    name: 'dashboard',
    async open(page) {
      await page.goto('/dashboard');
      await expect(page.locator('.symbol-code')).toHaveCount(3);
      await expect(page.locator('.notification')).toHaveCount(3);
    },
  },
];

/**
 * The profile's edit form open on ada's profile, a change to the bio and the interests typed, and
 * the same profile changed meanwhile by another device (through the API: its name and interests).
 * Saving meets the conflict: the resolver shows both versions, one field changed on both.
 */
async function openConflict(page: Page, m: Messages, request: APIRequestContext): Promise<void> {
  const { id } = await seedProfile(request);
  await page.goto('/profile');
  await page.getByRole('button', { name: m['common.edit'] }).click();
  const form = page.getByRole('form', { name: m['profile.editTitle'] });
  await expect(form.getByLabel(m['field.displayName'])).toHaveValue(ADA.displayName);
  await form.getByLabel(m['field.bio']).fill('Poetical science.');
  await form.getByLabel(m['field.interests']).fill('engines');
  const elsewhere = await request.patch(`/api/user/profile/${id}`, {
    headers: { authorization: await bearerOf(request), 'if-match': '*' },
    data: { displayName: 'Countess Ada', interests: ['looms'] },
  });
  expect(elsewhere.status()).toBe(200);
  await form.getByRole('button', { name: m['profile.save'] }).click();
  const resolver = page.getByRole('region', { name: m['profile.conflict.title'] });
  await expect(resolver.getByRole('cell', { name: m['profile.conflict.changedBoth'] })).toBeVisible();
}

/** The symbols collection, full: its New record is explained (then a record deleted, with a snackbar). */
export const FULL_COLLECTION: LanguageScreen = {
  name: 'admin: a full collection, its New record explained',
  signedIn: true,
  async open(page, m) {
    await page.goto('/admin/symbols');
    await expect(page.getByRole('table').getByRole('row')).toHaveCount(4);
    await expect(page.getByRole('button', { name: m['admin.new'] })).toHaveAttribute('aria-disabled', 'true');
  },
  next: {
    name: 'a record deleted, with a snackbar',
    async reach(page, m) {
      await page.getByRole('button', { name: `${m['common.delete']} 3` }).click();
      await page
        .getByRole('dialog', { name: fill(m['admin.deleteConfirm'], { id: 3 }) })
        .getByRole('button', { name: m['common.delete'] })
        .click();
      await expect(page.getByRole('table').getByRole('row')).toHaveCount(3);
      await expect(snackbar(page)).toHaveText(fill(m['admin.deletedRecord'], { id: 3 }));
    },
  },
};

/** The phone's modal drawer, open over the settings. */
export const DRAWER_OPEN: LanguageScreen = {
  name: 'modal drawer open',
  only: 'mobile',
  async open(page, m) {
    await page.goto('/settings');
    await appRunning(page);
    await page.getByRole('button', { name: m['nav.openMenu'] }).click();
    await expect(page.getByRole('dialog', { name: m['nav.main'] })).toBeVisible();
  },
};

/** The other screens and states, for the suite that sees every screen in every language (axe). */
export const MORE_SCREENS: LanguageScreen[] = [
  {
    name: 'home, signed in',
    signedIn: true,
    async open(page, m) {
      await page.goto('/home');
      await expect(page.locator('.notification')).toHaveCount(3);
      await expect(page.getByRole('link', { name: m['home.createProfileCta'] })).toBeVisible();
    },
  },
  {
    name: 'the provider’s sign-in page, after a wrong password',
    external: true,
    async open(page, m, _request, lang) {
      const words = PAGE_MESSAGES[lang];
      await page.goto('/sign-in');
      await page.getByRole('main').getByRole('button', { name: m['nav.signIn'] }).click();
      await page.waitForURL(/\/oidc\/interaction\//);
      await page.getByLabel(words.username).fill('ada');
      await page.getByLabel(words.password).fill('wrong');
      await page.getByRole('button', { name: words.signIn }).click();
      await expect(page.getByRole('alert')).toHaveText(words.failed);
    },
  },
  {
    name: 'profile: card',
    signedIn: true,
    async open(page, m, request) {
      await seedProfile(request, undefined, solidPng(8, 8));
      await page.goto('/profile');
      await expect(page.getByRole('button', { name: m['profile.delete'] })).toBeVisible();
      const avatar = page.locator('.profile-card img.avatar');
      await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);
    },
  },
  {
    name: 'profile: edit form with errors shown',
    signedIn: true,
    async open(page, m, request) {
      await seedProfile(request);
      await page.goto('/profile');
      await page.getByRole('button', { name: m['common.edit'] }).click();
      const form = page.getByRole('form', { name: m['profile.editTitle'] });
      await form.getByLabel(m['field.displayName']).fill('');
      await form.getByLabel(m['field.username']).fill('AB');
      await form.getByLabel(m['field.email']).fill('not-an-address');
      await form.getByRole('button', { name: m['profile.save'] }).click();
      await expect(form.getByRole('alert')).toBeVisible();
      await expect(form.getByLabel(m['field.displayName'])).toBeFocused();
    },
  },
  {
    name: 'profile: a conflict, both versions side by side',
    signedIn: true,
    open: openConflict,
    next: {
      name: 'merged field by field',
      async reach(page, m) {
        const resolver = page.getByRole('region', { name: m['profile.conflict.title'] });
        await resolver.getByRole('button', { name: m['profile.conflict.merge'] }).click();
        await expect(resolver.getByRole('button', { name: m['profile.conflict.saveMerged'] })).toBeVisible();
      },
    },
  },
  {
    name: 'admin: collections',
    signedIn: true,
    async open(page) {
      await page.goto('/admin');
      await expect(page.getByRole('main').getByRole('link', { name: 'symbols' })).toBeVisible();
    },
    next: {
      name: 'a new record’s form, with errors on its fields',
      async reach(page, m) {
        await page.getByRole('main').getByRole('link', { name: 'notifications' }).click();
        await page.getByRole('button', { name: m['admin.new'] }).click();
        const editor = page.getByRole('dialog', { name: fill(m['admin.newRecord'], { name: 'notifications' }) });
        await editor.getByRole('button', { name: m['common.save'] }).click();
        await expect(editor.getByRole('alert')).toBeVisible();
        await expect(editor.locator('[aria-invalid="true"]')).not.toHaveCount(0);
      },
    },
  },
  {
    name: 'admin: a member is told the page is for admins',
    async open(page, m) {
      await presetSignedIn(page, 'grace');
      await page.goto('/admin/symbols');
      await expect(page.getByRole('main').getByRole('heading', { name: m['admin.needsAdmin.title'] })).toBeVisible();
    },
  },
  FULL_COLLECTION,
  {
    name: 'sign-in',
    async open(page, m) {
      await page.goto('/sign-in?next=%2Fadmin');
      await expect(page.getByText(m['signIn.needed'])).toBeVisible();
    },
  },
  {
    name: '404',
    async open(page, m) {
      await page.goto('/404');
      await expect(page.getByRole('link', { name: m['notFound.home'] })).toBeVisible();
    },
  },
  {
    name: 'account menu open',
    signedIn: true,
    async open(page, m, request) {
      await seedProfile(request);
      await page.goto('/settings');
      await appRunning(page);
      await page
        .getByRole('banner')
        .getByRole('button', { name: fill(m['nav.account'], { name: ADA.displayName }) })
        .click();
      await expect(page.locator('#account-menu').getByRole('link', { name: m['nav.yourProfile'] })).toBeVisible();
    },
  },
  DRAWER_OPEN,
];
