/**
 * A device's history in the browser: the simulator speaks for a lift pump that was offline; the
 * operator opens its History tab and sees the last 7 days' chart of its tank level, whose table
 * view holds the very values published (to the point's 2 decimals, in metres); switching to 24 h
 * keeps them, the CSV export holds the same numbers, and the chart fits a phone. The statistics
 * panel beside it shows the station's treated water this month, as the statistics call counts it.
 */
import { readFile } from 'node:fs/promises';
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
  const flows: number[] = [];
  const fleet = await Fleet.start({
    url: `${(baseURL ?? '').replace(/^http/, 'ws')}/mqtt`,
    devices: [{ deviceSn: SN, secret: `demo-${SN}-secret`, groupId: group, station: `e2e-history-${SN}` }],
    intervalMs: 700,
    qos: 1,
    errorTopic: false,
    station: { faultRate: 0 },
    onPublish: (_sn: string, message: Record<string, number>) => {
      if (typeof message[LEVEL] === 'number') levels.push(message[LEVEL]);
      if (typeof message.FlowTotal === 'number') flows.push(message.FlowTotal);
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

  // The CSV export of the 24 h: every reading, the same numbers the device published.
  const downloading = page.waitForEvent('download');
  await history.getByRole('button', { name: /Export/ }).click();
  await page.getByRole('menuitem', { name: 'CSV (every reading)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${SN}-\\d{8}\\.csv$`));
  const csv = (await readFile(await download.path(), 'utf8'))
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  const header = csv[0]?.split(',') ?? [];
  expect(header).toEqual(['Time', LEVEL]);
  const exported = csv.slice(1).map((line) => Number(line.split(',')[1]));
  expect(exported).toEqual(levels);

  // On a phone the chart fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await history.getByText('Chart', { exact: true }).click();
  await expect(chart).toBeVisible();
  await expect.poll(async () => (await chart.boundingBox())?.width ?? Infinity).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // The statistics panel: the station's treated water this month, as GetRegionStatisticsDevice counts it.
  expect(flows.length).toBeGreaterThan(1);
  await page.setViewportSize({ width: 1280, height: 800 });
  const stats = page.getByRole('complementary', { name: 'Statistics' });
  const treated = stats.locator('.ant-card').filter({ has: page.getByText('Treated water', { exact: true }) });
  await expect(treated).toBeVisible();
  const device = await apiGet<{ ProjectId: number }[]>(page, `/${String(group)}/Device/AllDevice?deviceSn=${SN}`);
  const stationId = device[0]?.ProjectId ?? 0;
  await expect
    .poll(async () => {
      const figures = await apiGet<{ Total: { TreatedMonth: number | null } }>(
        page,
        `/Device/GetRegionStatisticsDevice?ProjectId=${String(stationId)}`,
      );
      const month = figures.Total.TreatedMonth;
      if (month === null) return 'no figure';
      await page.reload();
      await expect(treated).toBeVisible();
      const shown = await treated.innerText();
      const expected = `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }).format(month)} m³`;
      return shown.includes(`This month\n${expected}`) ? 'shown' : `${expected} not in ${shown}`;
    })
    .toBe('shown');
});
