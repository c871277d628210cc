/**
 * A device's history in the browser: the simulator speaks for a lift pump that was offline; the
 * operator opens its History tab and sees the last 7 days' chart of its tank level, whose table
 * view holds the very values published (to the point's 2 decimals, in metres); switching to 24 h
 * keeps them, and the chart fits a phone.
 */
import { expect, test, type Page } from '@playwright/test';
import { Fleet } from '@sluice/simulator/fleet';
import { ADMIN, signIn } from './fixtures.ts';

/** Hekou station's spare lift pump: offline in the demo data, and the demo fleet leaves it alone. */
const SN = 'SL0000000502';
const LEVEL = 'TankLevel';

async function apiGet<T>(page: Page, path: string): Promise<T> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const res = await page.request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

test('the operator opens a pump’s History and sees the series its device published', async ({ page, baseURL }) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  const group = (await apiGet<{ GroupId: number }>(page, '/Mqtt/Config')).GroupId;

  const levels: number[] = [];
  const fleet = await Fleet.start({
    url: `${(baseURL ?? '').replace(/^http/, 'ws')}/mqtt`,
    devices: [{ deviceSn: SN, secret: `demo-${SN}-secret`, groupId: group, station: `e2e-history-${SN}` }],
    intervalMs: 700,
    qos: 1,
    errorTopic: false,
    station: { faultRate: 0 },
    onPublish: (_sn: string, message: Record<string, number>) => {
      if (typeof message[LEVEL] === 'number') levels.push(message[LEVEL]);
    },
  });
  try {
    await expect.poll(() => levels.length).toBeGreaterThanOrEqual(3);
  } finally {
    await fleet.stop();
  }
  // What the server stored (it writes in batches): every published level, before the page asks.
  const since = Date.now() - 3_600_000;
  await expect
    .poll(
      async () =>
        (
          await apiGet<{ Series: { Key: string; Count: number }[] }>(
            page,
            `/${String(group)}/${SN}/DeviceHisData?BeginTime=${String(since)}&Keys=${LEVEL}`,
          )
        ).Series.find((s) => s.Key === LEVEL)?.Count,
    )
    .toBe(levels.length);

  await page.goto(`/common/home/device/${SN}`);
  await page.getByRole('tab', { name: 'History', exact: true }).click();
  const history = page.getByRole('region', { name: 'History', exact: true });
  // Seven days by default, the tank level drawn.
  await expect(history.getByRole('radio', { name: '7 days' })).toBeChecked();
  const chart = history.getByRole('img', { name: /^History chart of .*Tank level \(m\)/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas')).toBeAttached();

  // The table view reads the values published, to two decimals, in metres.
  const readTable = async () => {
    await history.getByText('Table', { exact: true }).click();
    const table = history.getByRole('table');
    for (const level of levels)
      await expect(table.getByRole('cell', { name: `${level.toFixed(2)} m`, exact: true }).first()).toBeVisible();
  };
  await readTable();

  await history.getByText('24 h', { exact: true }).click();
  await expect(history.getByRole('radio', { name: '24 h' })).toBeChecked();
  await readTable();

  // On a phone the chart fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await history.getByText('Chart', { exact: true }).click();
  await expect(chart).toBeVisible();
  await expect.poll(async () => (await chart.boundingBox())?.width ?? Infinity).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
