/** Shared steps for the end-to-end tests: the demo accounts and signing in through the page. */
import { expect, type Locator, type Page } from '@playwright/test';
import { deflateSync } from 'node:zlib';

export const ADMIN = { account: 'admin', password: 'Admin12345' };
export const OPERATOR = { account: 'operator', password: 'operator123' };

/**
 * Signs in on /login (English labels) and waits until the app shell is shown. English is chosen
 * on this browser (the lang cookie), so a language another spec stored for the account on the
 * server does not apply.
 */
export async function signIn(page: Page, user: { account: string; password: string }, landing = /\/common\/home/) {
  await page.context().addCookies([{ name: 'lang', value: 'en-US', url: page.url() }]);
  await page.getByLabel('Account').fill(user.account);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(landing);
  await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
}

/**
 * Opens the user menu in the header and clicks one of its items. A click that lands while the
 * shell re-renders (the session's user and theme arriving) can leave the menu closed: it opens
 * it again until the item is shown.
 */
export async function userMenu(page: Page, item: string | RegExp) {
  const entry = page.getByRole('menuitem', { name: item });
  await expect(async () => {
    if (!(await entry.isVisible())) await page.getByRole('button', { name: /User menu|用户菜单/ }).click();
    await expect(entry).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
  await entry.click();
}

/** Switches the theme from the user menu and waits until the server has stored the choice. */
export async function toggleTheme(page: Page) {
  const saved = page.waitForResponse(
    (response) => new URL(response.url()).pathname === '/api/user/config' && response.request().method() === 'PUT',
  );
  await userMenu(page, /Dark theme|深色主题/);
  expect((await saved).ok()).toBe(true);
}

/**
 * Follows a side-menu link and waits for the page's heading. A click that lands while the
 * freshly signed-in shell re-renders can be lost (the page stayed on Home once in a full run):
 * it clicks again until the page is shown.
 */
export async function openFromMenu(page: Page, link: string) {
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  const heading = page.getByRole('heading', { name: link });
  await expect(async () => {
    if (!(await heading.isVisible())) await nav.getByRole('link', { name: link }).click();
    await expect(heading).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
}

/** A small solid-colour PNG (width × height), made here so no fixture file is needed. */
export function png(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x6e)]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Picks `option` in an Ant Design select (`select`: its combobox), and again until the select
 * shows it: a click can land on a list still closing or re-rendering under the pointer.
 */
export async function choose(page: Page, select: Locator, option: string | RegExp): Promise<void> {
  const exact = typeof option === 'string';
  const box = select.locator('xpath=ancestor::*[contains(concat(" ", normalize-space(@class), " "), " ant-select ")][1]');
  await expect(async () => {
    // Opened only when closed: a click on an open select closes its list.
    if ((await select.getAttribute('aria-expanded')) !== 'true') await select.click();
    // Bounded, so that a list that closed meanwhile is opened again by the next try.
    await page.locator('.ant-select-dropdown:visible').last().getByTitle(option, { exact }).first().click({ timeout: 3000 });
    await expect(box.getByTitle(option, { exact }).first()).toBeVisible({ timeout: 3000 });
  }).toPass({ timeout: 30_000 });
}
