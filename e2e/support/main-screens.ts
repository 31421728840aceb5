import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures';
import { seedProfile, solidPng } from './pages';
import type { Messages } from '../../src/index.ts';

/** A main screen opened in any language: the catalogue `m` names what to wait for. */
export interface LanguageScreen {
  name: string;
  signedIn?: boolean;
  open(page: Page, m: Messages, request: APIRequestContext): Promise<void>;
}

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

/** The other screens, for the suites that see every screen in every language (axe). */
export const MORE_SCREENS: LanguageScreen[] = [
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
    name: 'admin: symbols table',
    signedIn: true,
    async open(page, m) {
      await page.goto('/admin/symbols');
      await expect(page.getByRole('table').getByRole('row')).toHaveCount(4);
      await expect(page.getByRole('button', { name: m['admin.new'] })).toBeVisible();
    },
  },
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
];
