/** Shared steps for the end-to-end tests: the demo accounts and signing in through the page. */
import { expect, type Page } from '@playwright/test';

export const ADMIN = { account: 'admin', password: 'Admin12345' };
export const OPERATOR = { account: 'operator', password: 'operator123' };

/** Signs in on /login (English labels) and waits until the app shell is shown. */
export async function signIn(page: Page, user: { account: string; password: string }, landing = /\/common\/home/) {
  await page.getByLabel('Account').fill(user.account);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(landing);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
}

/** Opens the user menu in the header and clicks one of its items. */
export async function userMenu(page: Page, item: string | RegExp) {
  await page.getByRole('button', { name: /User menu|用户菜单/ }).click();
  await page.getByRole('menuitem', { name: item }).click();
}
