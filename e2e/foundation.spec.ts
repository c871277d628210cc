import { expect, test } from '@playwright/test';
import { ADMIN, OPERATOR, signIn, toggleTheme, userMenu } from './fixtures.ts';

test.use({ locale: 'en-US' });

test('a wrong password gets a clear message, the same as an unknown account', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Account').fill(OPERATOR.account);
  await page.getByLabel('Password').fill('not-the-password1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong account or password');
  await page.getByLabel('Account').fill('nobody-here');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong account or password');
  await expect(page).toHaveURL(/\/login/);
});

test('signing in lands on home, with the shell, and / leads to the sign-in page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page).toHaveTitle(/Sign in/);
  await signIn(page, ADMIN);
  await expect(page).toHaveTitle('Home - Sluice');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
});

test('a protected page without a session goes to sign-in and back after it', async ({ page }) => {
  await page.goto('/common/user/info');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fcommon%2Fuser%2Finfo/);
  await signIn(page, OPERATOR, /\/common\/user\/info$/);
  await expect(page.getByRole('heading', { name: 'User information' })).toBeVisible();
});

test('an unknown path shows the not-found page without signing in', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Sorry, this page does not exist')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Back home' })).toBeVisible();
  await page.goto('/notFount');
  await expect(page.getByText('Sorry, this page does not exist')).toBeVisible();
});

test('an empty child path under an admin section goes to the not-found page', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto('/sys');
  await expect(page).toHaveURL(/\/notFount$/);
  await expect(page.getByText('Sorry, this page does not exist')).toBeVisible();
});

test('the language switch changes the interface at once and survives a reload', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('radiogroup', { name: 'Language' }).getByText('中文').click();
  await expect(page.getByRole('button', { name: '登录' })).toBeVisible();
  await expect(page.getByLabel('账号')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: '登录' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.getByRole('radiogroup', { name: '语言' }).getByText('English').click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('the dark theme survives a reload and signing out and in again', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, OPERATOR);
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'dark');
  await toggleTheme(page);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();

  await userMenu(page, 'Sign out');
  await expect(page).toHaveURL(/\/login/);
  // Another browser profile: the theme comes from the server, not from this browser's storage.
  await page.evaluate(() => {
    localStorage.clear();
  });
  await signIn(page, OPERATOR);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await toggleTheme(page);
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'dark');
});

test('signing out revokes the token on the server', async ({ page, request }) => {
  await page.goto('/login');
  await signIn(page, OPERATOR);
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value;
  expect(token).toBeTruthy();
  const before = await request.get('/api/user/myinfo', { headers: { authorization: `Bearer ${token ?? ''}` } });
  expect(before.status()).toBe(200);
  await userMenu(page, 'Sign out');
  await expect(page).toHaveURL(/\/login/);
  const after = await request.get('/api/user/myinfo', { headers: { authorization: `Bearer ${token ?? ''}` } });
  expect(after.status()).toBe(401);
  expect((await page.context().cookies()).find((c) => c.name === 'token')).toBeUndefined();
});

test('the session token is out of scripts’ reach: an HttpOnly, SameSite cookie the page never stores', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, OPERATOR);
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
  const token = cookie?.value ?? '';
  expect(token).not.toBe('');
  // The live connection is up, from the cookie alone.
  await expect(page.locator('[role="status"][data-connected="true"]')).toBeAttached();
  const seen = await page.evaluate(() => ({
    cookies: document.cookie,
    local: JSON.stringify(Object.entries(localStorage)),
    session: JSON.stringify(Object.entries(sessionStorage)),
  }));
  expect(seen.cookies).toContain('isLogin=1');
  expect(seen.cookies).not.toContain(token);
  expect(seen.local).not.toContain(token);
  expect(seen.session).not.toContain(token);
});
