import type { Page } from '@playwright/test';
import { test, expect } from './support/fixtures';
import { axeViolations } from './support/axe';
import { ADA, appRunning, DARK_THEME, MOBILE, presetSignedIn, screenHeading, seedProfile } from './support/pages';
import { bearerOf } from './support/sign-in';

/**
 * Notifications as a member's inbox: the bell's unread count, marking one or all read, the marks the
 * member's alone, kept offline until they can be sent, the text in the language on screen, and the
 * welcome gone once the member has a profile.
 */

const bell = (page: Page) => page.getByRole('banner').locator('a.bell');
/** What the bell says out loud when its count changes. */
const said = (page: Page) => page.getByRole('banner').locator('.bell + [role="status"]');
const inbox = (page: Page) => page.getByRole('main').locator('.notification-list');
const item = (page: Page, title: string) =>
  inbox(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: title }) });

test('a member marks one read, then all: the bell counts down and says so, the marks are theirs alone', async ({
  page,
  browser,
  baseURL,
  consoleErrors,
}) => {
  await presetSignedIn(page);
  await page.goto('/home');
  await appRunning(page);
  // The seed: a welcome and a study group unread, the maintenance read.
  await expect(bell(page)).toHaveAccessibleName('2 unread notifications');
  await expect(bell(page)).toContainText('2');
  await bell(page).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(screenHeading(page)).toHaveText('Notifications');
  await expect(inbox(page).getByRole('heading', { level: 2 })).toHaveText([
    'Maintenance on Sunday',
    'New study group',
    'Welcome to Circle',
  ]);
  await expect(page.getByRole('main')).toContainText('2 unread notifications');

  const study = item(page, 'New study group');
  await study.getByRole('button', { name: 'Mark as read: New study group' }).click();
  await expect(bell(page)).toHaveAccessibleName('1 unread notification');
  await expect(said(page)).toHaveText('1 unread notification');
  // The button says what it does now, and keeps the focus.
  const unmark = study.getByRole('button', { name: 'Mark as unread: New study group' });
  await expect(unmark).toBeFocused();
  await expect(study).not.toContainText('Unread');

  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell(page)).toHaveAccessibleName('No unread notifications');
  await expect(said(page)).toHaveText('No unread notifications');
  // The button went with the last unread one: the focus is on what says so.
  await expect(page.getByText('You have read everything.')).toBeFocused();
  await expect(bell(page)).not.toContainText(/\d/);

  // The server keeps them: a reload shows them read.
  await page.reload();
  await expect(bell(page)).toHaveAccessibleName('No unread notifications');
  await expect(inbox(page).getByText('Unread', { exact: true })).toHaveCount(0);

  // Another member, and a guest, see the notifications as they were.
  const other = await browser.newContext({ baseURL });
  const grace = await other.newPage();
  await presetSignedIn(grace, 'grace');
  await grace.goto('/notifications');
  await expect(bell(grace)).toHaveAccessibleName('2 unread notifications');
  await expect(item(grace, 'New study group')).toContainText('Unread');
  await other.close();
  const guest = await (await fetch(`${baseURL}/api/notifications/unread-count`)).json();
  expect(guest).toEqual({ unread: 2 });
  expect(consoleErrors).toEqual([]);
});

test('the text comes in the language on screen, and changes with it', async ({ page, request }) => {
  // French until the member chooses another language: a reload keeps their choice.
  await page.addInitScript(() => {
    if (localStorage.getItem('preference') === null)
      localStorage.setItem('preference', JSON.stringify({ language: 'fr', activeThemeName: 'INDIGO_PINK', enableNotifications: false }));
  });
  await presetSignedIn(page);
  await page.goto('/notifications');
  await expect(screenHeading(page)).toHaveText('Notifications');
  await expect(inbox(page).getByRole('heading', { level: 2 })).toHaveText([
    'Maintenance dimanche',
    'Nouveau groupe d’étude',
    'Bienvenue sur Circle',
  ]);
  await expect(bell(page)).toHaveAccessibleName('2 notifications non lues');
  await expect(inbox(page).getByRole('button', { name: 'Marquer comme lue : Nouveau groupe d’étude' })).toBeVisible();
  // The same language as the page: nothing to say about it, no lang of its own.
  await expect(inbox(page)).not.toHaveAttribute('lang');

  // In German from the settings: the notifications follow.
  await page.goto('/settings');
  await page.locator('#language-select').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await bell(page).click();
  await expect(inbox(page).getByRole('heading', { level: 2 })).toHaveText([
    'Wartung am Sonntag',
    'Neue Lerngruppe',
    'Willkommen bei Circle',
  ]);

  // One written in English alone is shown in English, and the screen says so.
  await request.post('/api/notifications', {
    headers: { authorization: await bearerOf(request, 'ada') },
    data: { title: 'Library closed', body: 'Back on Monday.', level: 'info', read: false, createdAt: '2026-11-21T09:00:00Z' },
  });
  await page.reload();
  await expect(inbox(page).getByRole('heading', { level: 2 }).first()).toHaveText('Library closed');
  await expect(page.getByRole('main')).toContainText('Einige Benachrichtigungen werden auf Englisch angezeigt');
});

test('offline, a mark is kept on the device and said so, and sent once back online', async ({ page, context, request }) => {
  await presetSignedIn(page);
  await page.goto('/notifications');
  await expect(bell(page)).toHaveAccessibleName('2 unread notifications');
  await context.setOffline(true);
  await item(page, 'Welcome to Circle').getByRole('button', { name: 'Mark as read: Welcome to Circle' }).click();
  await expect(bell(page)).toHaveAccessibleName('1 unread notification');
  await expect(page.getByRole('main')).toContainText('1 mark waits on this device: it is sent when you are back online.');
  const count = async () =>
    (await (
      await request.get('/api/notifications/unread-count', { headers: { authorization: await bearerOf(request, 'ada') } })
    ).json()) as {
      unread: number;
    };
  expect(await count()).toEqual({ unread: 2 });
  await context.setOffline(false);
  await expect(page.getByRole('main')).not.toContainText('waits on this device');
  await expect.poll(count).toEqual({ unread: 1 });
  await expect(bell(page)).toHaveAccessibleName('1 unread notification');
});

test('the welcome goes once the member has a profile, and the bell counts without it', async ({ page, request }) => {
  await presetSignedIn(page);
  await page.goto('/home');
  const latest = page.getByRole('region', { name: 'Latest notifications' });
  await expect(latest.getByRole('heading', { name: 'Welcome to Circle' })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('2 unread notifications');
  await seedProfile(request, ADA);
  // The profile is read on its screen: the welcome and its count go at once.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Account:/ })
    .click();
  await page.getByRole('link', { name: 'Your profile', exact: true }).click();
  await expect(page.getByRole('article', { name: ADA.displayName })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName('1 unread notification');
  await page.goto('/home');
  await expect(latest.getByRole('heading', { level: 3 })).toHaveText(['Maintenance on Sunday', 'New study group']);
});

test('the bell and the inbox by keyboard, on a phone, with no axe violation in any language, light or dark', async ({ page }) => {
  await page.setViewportSize(MOBILE);
  await presetSignedIn(page);
  await page.goto('/home');
  await appRunning(page);
  await expect(bell(page)).toHaveAccessibleName('2 unread notifications');
  await bell(page).focus();
  await page.keyboard.press('Enter');
  await expect(screenHeading(page)).toBeFocused();
  await expect(bell(page)).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeFocused();
  for (const [language, theme] of [
    ['en', DARK_THEME],
    ['es', undefined],
    ['de', undefined],
    ['fr', undefined],
    ['zh-Hans', undefined],
  ] as const) {
    await page.evaluate(
      ([lang, activeThemeName]) =>
        localStorage.setItem(
          'preference',
          JSON.stringify({ language: lang, activeThemeName: activeThemeName ?? 'INDIGO_PINK', enableNotifications: false }),
        ),
      [language, theme] as const,
    );
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(inbox(page).getByRole('listitem')).toHaveCount(3);
    expect(await axeViolations(page), `${language} ${theme ?? 'light'}`).toEqual([]);
  }
});
