import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures';
import type { Messages } from '../../src/i18n/en';

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
