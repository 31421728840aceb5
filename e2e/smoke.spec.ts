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
  const entryLoaded: number[] = [];
  page.on('response', (response) => {
    if (/\/assets\/index-[^/]+\.js$/.test(response.url())) entryLoaded.push(response.status());
  });
  // The pre-paint script loads the entry, which loads; the entry asks for the app's start (the boot,
  // in the core chunk), which does not come: the entry's own report says so, once.
  await context.route(/\/assets\/core-[^/]+\.js$/, (route) => route.abort());
  await page.goto('/home');
  await expect.poll(() => errors.filter((text) => text.startsWith('Circle failed to start'))).toHaveLength(1);
  expect(entryLoaded).toEqual([200]);
  await expect(page.locator('header').first()).toBeVisible();
  expect(errors.filter((text) => text.startsWith('Circle failed to start'))).toHaveLength(1);
});

test("before the app runs: a members' page sends a visitor signed out on to sign-in, which paints from its HTML", async ({
  page,
  context,
}) => {
  // The app never starts: what shows is the HTML and the inline pre-paint script alone.
  await context.route(/\/assets\/[^/]+\.js$/, (route) => route.abort());
  const painted: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) painted.push(new URL(frame.url()).pathname);
  });
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fprofile$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await expect(page.getByText('Sign in with your Circle account.')).toBeVisible();
  // It signs in only once the app can; the provider's host comes with the app.
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
  await expect(page.locator('.sign-in__issuer')).toHaveCount(0);
  // One hop, made by the page itself before the app could make it.
  expect(painted).toEqual(['/profile', '/sign-in']);
});

test("a member opening a members' page stays there, and sign-in's signed-out card is hidden from a member until the app renders theirs", async ({
  page,
  context,
}) => {
  await context.addInitScript(() => localStorage.setItem('auth.isLoggedIn', 'true'));
  await context.route(/\/assets\/[^/]+\.js$/, (route) => route.abort());
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/profile$/);
  await page.goto('/sign-in');
  await expect(page.locator('.sign-in')).toBeHidden();
});
