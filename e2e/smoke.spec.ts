import { test, expect } from './support/fixtures';

test('the root lands on /home with the home title', async ({ page, consoleErrors }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page).toHaveTitle('Home | Circle');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome to Circle');
  expect(consoleErrors).toEqual([]);
});
