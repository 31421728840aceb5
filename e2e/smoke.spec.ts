import { test, expect } from './support/fixtures';

test('the root lands on /home with the home title', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page).toHaveTitle('Home | Circle');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Circle');
  expect(consoleErrors).toEqual([]);
});

test('the page description and keywords equal the product name, on every shell', async ({ page }) => {
  for (const path of ['/home', '/profile']) {
    await page.goto(path);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', 'Circle');
    await expect(page.locator('meta[name="keywords"]')).toHaveAttribute('content', 'Circle');
  }
});

test('an app that cannot start says so in the console, and the static shell stays', async ({ page, context }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // The entry loads the app's start (the boot, in the core chunk) on demand: make that request fail.
  await context.route(/\/assets\/core-[^/]+\.js$/, (route) => route.abort());
  await page.goto('/home');
  await expect.poll(() => errors.some((text) => text.startsWith('Circle failed to start'))).toBe(true);
  await expect(page.locator('header').first()).toBeVisible();
});
