/**
 * Issue 18 (tenants): the platform administrator creates a group; a newcomer registers with its
 * code and waits; the group's administrator activates them; the newcomer signs in, puts up an
 * avatar and works under the watermark (light and dark), which the group's administrator turns
 * off; the platform administrator deletes the group, which signs its people out. And a client's
 * page with its projects, devices and numbers, on a phone too.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ADMIN, png, signIn, toggleTheme, userMenu } from './fixtures.ts';

test.use({ locale: 'en-US' });

function unique(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;
}

async function freshPage(browser: Browser, viewport?: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', ...(viewport ? { viewport } : {}) });
  const page = await context.newPage();
  await page.goto('/login');
  await page.context().addCookies([{ name: 'lang', value: 'en-US', url: page.url() }]);
  return page;
}

const watermark = (page: Page) => page.locator('.sluice-watermark');

test('a new group: its administrator’s password shown once, a registration activated, an avatar, the watermark, and the group deleted', async ({
  page,
  browser,
}) => {
  const s = unique();
  const groupName = `E2E River ${s}`;
  const code = `river${s}`;
  const boss = `boss${s}`;
  const newcomer = `newbie${s}`;

  // The platform administrator adds the group from the side menu's Tenants.
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Tenants' }).click();
  await expect(page.getByRole('heading', { name: 'Tenants' })).toBeVisible();
  await page.getByRole('button', { name: 'Add group' }).click();
  const add = page.getByRole('dialog', { name: 'Add group' });
  await add.getByLabel('Group name').fill(groupName);
  await add.getByLabel('Group code').fill(code);
  await add.getByLabel('Administrator account').fill(boss);
  await add.getByRole('button', { name: 'Save' }).click();
  const created = page.getByRole('dialog', { name: 'Group created' });
  await expect(created.getByText('it is shown only once')).toBeVisible();
  const password = (await created.getByTestId('created-password').innerText()).trim();
  expect(password).toMatch(/^[A-Za-z0-9]{16}$/);
  await created.getByRole('button', { name: 'Done' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(groupName);
  await expect(page.getByRole('row', { name: new RegExp(groupName) })).toBeVisible();

  // A newcomer registers with the group's code and is told to wait.
  const applicant = await freshPage(browser);
  await applicant.getByRole('link', { name: 'Register' }).click();
  await expect(applicant).toHaveURL(/\/register$/);
  await applicant.getByLabel('Group code').fill(code);
  await applicant.getByLabel('Account').fill(newcomer);
  await applicant.getByLabel('Name').fill('New Operator');
  await applicant.getByLabel('Password', { exact: true }).fill('Newbie12345');
  await applicant.getByLabel('Confirm password').fill('Newbie12345');
  await applicant.getByRole('button', { name: 'Register' }).click();
  await expect(applicant).toHaveURL(/\/login$/);
  await expect(applicant.getByText(/Registration received/)).toBeVisible();
  await applicant.getByLabel('Account').fill(newcomer);
  await applicant.getByLabel('Password').fill('Newbie12345');
  await applicant.getByRole('button', { name: 'Sign in' }).click();
  await expect(applicant.getByText('This account is not activated yet')).toBeVisible();

  // The group's administrator signs in with the password shown once and activates the newcomer.
  const admin = await freshPage(browser);
  await signIn(admin, { account: boss, password });
  await admin.goto('/user/list');
  const waiting = admin.getByRole('region', { name: 'Registrations waiting' });
  await expect(waiting.getByText(newcomer)).toBeVisible();
  await waiting.getByRole('button', { name: `Activate ${newcomer}` }).click();
  await expect(admin.getByText(`${newcomer} can sign in now`)).toBeVisible();
  await expect(waiting).toBeHidden();

  // The newcomer signs in, under the watermark, and puts up an avatar cropped square.
  await applicant.getByRole('button', { name: 'Sign in' }).click();
  await expect(applicant).toHaveURL(/\/common\/home/);
  await expect(watermark(applicant)).toBeAttached();
  await userMenu(applicant, 'User information');
  await applicant.getByRole('button', { name: 'Change avatar' }).click();
  const cropper = applicant.getByRole('dialog', { name: 'Change avatar' });
  await cropper.getByLabel('Choose an image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(300, 200) });
  await expect(cropper.getByRole('group', { name: 'Crop area' }).locator('img')).toBeVisible();
  const served = applicant.waitForResponse(
    (r) => new URL(r.url()).pathname.startsWith('/api/user/Picture/') && r.request().method() === 'GET',
  );
  await cropper.getByRole('button', { name: 'Upload' }).click();
  await expect(cropper).toBeHidden();
  const picture = await served;
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toMatch(/^image\/(png|jpeg)$/);
  await expect(applicant.getByRole('img', { name: 'Avatar of New Operator' })).toBeVisible();
  // The picture is the group's: another group's administrator cannot read it, nor can anyone signed out.
  const url = new URL(picture.url()).pathname + new URL(picture.url()).search;
  expect((await page.request.get(url)).status()).toBe(404);
  expect((await browser.newContext().then((c) => c.request.get(`${new URL(picture.url()).origin}${url}`))).status()).toBe(401);

  // The watermark stays in the dark theme; the group's administrator turns it off for the group.
  await toggleTheme(applicant);
  await expect(watermark(applicant)).toBeAttached();
  await admin.goto('/common/user/info');
  await admin.getByRole('switch', { name: 'Watermark' }).click();
  await expect(admin.getByRole('switch', { name: 'Watermark' })).not.toBeChecked();
  await expect(watermark(admin)).toHaveCount(0);
  await applicant.reload();
  await expect(applicant.getByRole('heading', { name: 'User information' })).toBeVisible();
  await expect(watermark(applicant)).toHaveCount(0);

  // The platform administrator deletes the group: the dialog says what goes, and waits for its code.
  await page.getByRole('searchbox', { name: 'Search' }).fill(groupName);
  await page.getByRole('button', { name: `Delete ${groupName}` }).click();
  const remove = page.getByRole('dialog', { name: `Delete the group ${groupName}?` });
  await expect(remove.getByText('2 users (its administrator among them)')).toBeVisible();
  await expect(remove.getByText('0 devices, with their history, alarms and records')).toBeVisible();
  const confirm = remove.getByRole('button', { name: 'Delete the group' });
  await expect(confirm).toBeDisabled();
  await remove.getByLabel(`Type the group code ${code} to confirm`).fill(code.toUpperCase());
  await confirm.click();
  await expect(page.getByText(`The group ${groupName} was deleted`)).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(groupName) })).toHaveCount(0);
  // Its people are signed out: their next page is the sign-in page, and they cannot sign in again.
  await applicant.reload();
  await expect(applicant).toHaveURL(/\/login/);
  await admin.reload();
  await expect(admin).toHaveURL(/\/login/);
  await applicant.getByLabel('Account').fill(newcomer);
  await applicant.getByLabel('Password').fill('Newbie12345');
  await applicant.getByRole('button', { name: 'Sign in' }).click();
  await expect(applicant.getByRole('alert')).toBeVisible();
  await expect(applicant).toHaveURL(/\/login/);
});

test('a client’s page: its projects, stations, devices and numbers, also on a phone', async ({ browser }) => {
  for (const viewport of [undefined, { width: 390, height: 844 }]) {
    const page = await freshPage(browser, viewport);
    await signIn(page, ADMIN);
    await page.goto('/user/clientList');
    await page.getByRole('link', { name: 'Open the page of 安吉县水务有限公司' }).click();
    await expect(page).toHaveURL(/\/common\/home\/client\/\d+$/);
    const list = page.getByRole('region', { name: 'Projects, stations and devices' });
    await expect(list.getByRole('heading', { name: '安吉县水务有限公司' })).toBeVisible();
    await expect(list.getByRole('heading', { name: /Projects \([1-9]\d*\)/ })).toBeVisible();
    const content = page.getByRole('region', { name: 'Map and details' });
    // The statistics panel counts the client's devices: as many as its record's numbers say.
    const numbers = content.getByRole('group', { name: 'Numbers of the client' });
    const devices = (
      await numbers.locator('.ant-statistic').filter({ hasText: 'Devices' }).locator('.ant-statistic-content-value').innerText()
    ).trim();
    const stats = page.getByRole('complementary', { name: 'Statistics' });
    await expect(stats.getByRole('heading', { name: 'Numbers of 安吉县水务有限公司' })).toBeAttached();
    await expect(
      stats
        .locator('.ant-statistic')
        .filter({ hasText: /^Devices/ })
        .locator('.ant-statistic-content-value'),
    ).toHaveText(devices);
    await content.getByRole('tab', { name: /Stations \([1-9]\d*\)/ }).click();
    await content.getByRole('tab', { name: 'Devices' }).click();
    const firstDevice = content.getByRole('tabpanel').getByRole('link').first();
    await expect(firstDevice).toBeVisible();
    await firstDevice.click();
    await expect(page).toHaveURL(/\/common\/home\/device\//);
    await page.context().close();
  }
});
