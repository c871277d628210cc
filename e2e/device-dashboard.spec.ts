/**
 * The device page as a dashboard in Chromium: an administrator drags a device's data panel to
 * the top left of the 12-column grid and hides its images, signs out and in, and finds the page
 * so (the layout is the account's, on the server); an operator on a phone sees the panels
 * stacked in one column, faults first, then the values, the facts, the images and the map.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ADMIN, OPERATOR, signIn, userMenu } from './fixtures.ts';

/** 竹林村站's aeration blower: offline in the demo, its one data panel '数据' (Data in English) from its type's template. */
const SN = 'SL0000000302';
const DATA = 'Data';

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

function dashboard(page: Page) {
  return page.getByRole('region', { name: 'Live data' });
}

test('an administrator rearranges a device’s panels and finds them so after signing in again', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/login');
  await signIn(page, ADMIN);
  // The default layout to start from (a retry finds the layout the failed try saved).
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const reset = await page.request.put('/api/DevicePanelLayout', {
    data: { deviceSn: SN, Layout: [] },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(reset.ok(), await reset.text()).toBe(true);
  await page.goto(`/common/home/device/${SN}`);
  const grid = dashboard(page);
  const data = grid.getByRole('region', { name: DATA });
  const alarms = grid.getByRole('region', { name: 'Active alarms' });
  await expect(data).toBeVisible();
  await expect(alarms).toBeVisible();
  // The default: the alarms top left, the data beside them.
  expect((await box(data)).x).toBeGreaterThan((await box(alarms)).x + 50);

  // Drag the data panel by its title to the top left.
  const handle = data.locator('.sluice-panel-draggable');
  const from = await box(handle);
  const target = await box(alarms);
  const saved = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/DevicePanelLayout' && r.request().method() === 'PUT',
  );
  await page.mouse.move(from.x + 20, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x - 40, from.y + 10, { steps: 5 });
  await page.mouse.move(target.x + 20, target.y + 10, { steps: 15 });
  await page.mouse.up();
  expect((await saved).ok()).toBe(true);
  await expect.poll(async () => Math.abs((await box(data)).x - (await box(alarms)).x)).toBeLessThan(5);
  expect((await box(data)).y).toBeLessThan((await box(alarms)).y);

  // Hide the images from the panel's menu, reached by the keyboard.
  const hidden = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/DevicePanelLayout' && r.request().method() === 'PUT',
  );
  const menu = grid.getByRole('button', { name: 'Panel actions: Images' });
  await menu.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Hide' }).click();
  expect((await hidden).ok()).toBe(true);
  await expect(grid.getByRole('region', { name: 'Images' })).toHaveCount(0);

  // Signed out (a click the closing panel menu swallows is made again).
  await expect(async () => {
    await userMenu(page, 'Sign out');
    await expect(page).toHaveURL(/\/login/, { timeout: 3000 });
  }).toPass({ timeout: 30_000 });
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  await signIn(page, ADMIN);
  await page.goto(`/common/home/device/${SN}`);
  await expect(data).toBeVisible();
  await expect.poll(async () => Math.abs((await box(data)).x - (await box(alarms)).x)).toBeLessThan(5);
  expect((await box(data)).y).toBeLessThan((await box(alarms)).y);
  await expect(grid.getByRole('region', { name: 'Images' })).toHaveCount(0);
  await expect(grid.getByRole('button', { name: '1 hidden panel' })).toBeVisible();

  // Back to the default for the next run's eyes.
  await grid.getByRole('button', { name: 'Default layout' }).click();
  await expect(grid.getByRole('region', { name: 'Images' })).toBeVisible();
  await expect.poll(async () => (await box(data)).x - (await box(alarms)).x).toBeGreaterThan(50);
});

test('an operator on a phone sees the device’s panels stacked, faults first', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/login');
  await signIn(page, OPERATOR);
  await page.goto(`/common/home/device/${SN}`);
  const grid = dashboard(page);
  const names = ['Active alarms', DATA, 'Overview', 'Images', 'Location'];
  const panels = names.map((name) => grid.getByRole('region', { name }));
  for (const panel of panels) await expect(panel).toBeAttached();
  // Nothing to drag on a phone, nor for an operator.
  await expect(grid.locator('.sluice-panel-draggable')).toHaveCount(0);
  const boxes = [];
  // Measured without scrolling in between, so that they compare.
  for (const panel of panels) boxes.push(await box(panel));
  for (let i = 1; i < boxes.length; i++) {
    const [above, below] = [boxes[i - 1], boxes[i]];
    expect(below?.y ?? 0, `${names[i] ?? ''} comes below ${names[i - 1] ?? ''}`).toBeGreaterThan(
      (above?.y ?? 0) + (above?.height ?? 0) - 1,
    );
  }
  // Each panel takes the width of the screen (its margins aside), none beside another.
  for (const b of boxes) expect(b.width).toBeGreaterThan(300);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
