/**
 * List screens on a 390 px phone: rows become cards that show words rather than codes (a data
 * point's default value as its choice's label), full dates and times and numbers with their units
 * (the demo's water samples), and the page never scrolls sideways.
 */
import { expect, test, type Page } from '@playwright/test';
import { STATION_KEYS } from '../packages/shared/src/station-keys.ts';
import { ADMIN, signIn } from './fixtures.ts';

const PHONE = { width: 390, height: 844 };

const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('list screens at 390 px show cards with words, full dates and units, without sideways scrolling', async ({ browser }) => {
  const page = await browser.newPage({ viewport: PHONE, locale: 'en-US' });
  await page.goto('/login');
  await signIn(page, ADMIN);

  // The data library: the lift pump's run state defaults to 0, shown as its label.
  await page.goto('/sys/dataDefine');
  await page.getByRole('searchbox', { name: 'Search' }).fill(STATION_KEYS.liftPump1Run);
  const point = page.locator('.ant-card').filter({ hasText: STATION_KEYS.liftPump1Run }).first();
  await expect(point).toBeVisible();
  await expect(page.locator('.ant-table')).toHaveCount(0);
  const defaultValue = point.locator('.ant-descriptions-item').filter({ hasText: 'Default value' });
  await expect(defaultValue).toContainText('Stop');
  await expect(defaultValue.locator('.ant-descriptions-item-content')).not.toHaveText('0');
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

  // Water quality: each sample's time in full and its effluent values in mg/L.
  await page.goto('/records/quality');
  const sample = page.locator('.ant-card').first();
  await expect(sample).toBeVisible();
  await expect(sample.locator('time').first()).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  await expect(sample).toContainText(/COD \d+(\.\d+)? mg\/L/);
  expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  await page.close();
});
