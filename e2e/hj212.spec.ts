/**
 * HJ 212-2017 end to end (issue 21): a station's analyser becomes a data logger on its HJ 212
 * tab; the simulator's HJ 212 logger connects over TCP (to the port the tab names) and sends
 * minute data, which the analyser's live values show; a forwarding link added on System
 * Configure → HJ 212, sending from the first minute on (picked in its date and time field),
 * back-fills that minute and sends the next one to a supervising platform (the simulator's, a
 * local TCP server speaking HJ 212), which receives them with their totals and flags, and the
 * link's state shows in the list. Waits are for what a user sees or for the platform's packets, never fixed.
 */
import { expect, test, type Page } from '@playwright/test';
import { HJ212_CN, cpValue, formatHj212Time, type Hj212Packet } from '@sluice/shared/hj212';
import { Hj212Logger } from '@sluice/simulator/hj212-logger';
import { Hj212Platform } from '@sluice/simulator/hj212-platform';
import { ADMIN, choose, signIn } from './fixtures.ts';

const MN = 'E2ELOGGER0001';
const PASSWORD = 'e2e-pw1';
const PLATFORM_MN = 'E2EPLATFORM01';
const LINK = 'County bureau (e2e)';

/** Calls the API with the page's session. */
async function api<T>(page: Page, method: 'GET' | 'POST' | 'DELETE', path: string, data?: object): Promise<T> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const res = await page.request.fetch(`/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** Picks an option of an Ant Design select. */

/** A station of its own (a demo station's counts stay as other tests expect) with an analyser of the demo type. */
async function analyserStation(page: Page): Promise<{ g: number; sn: string }> {
  const g = (await api<{ GroupId: number }>(page, 'GET', '/user/myinfo')).GroupId;
  const projects = await api<{ data: { Id: number; Name: string }[] }>(
    page,
    'GET',
    `/${String(g)}/project/myProject?PageNo=1&PageSize=50`,
  );
  const project = projects.data.find((p) => p.Name === '河口村');
  const types = await api<{ Id: number; TypeName: string }[]>(page, 'GET', '/DeviceType/GetDeviceType');
  const analyser = types.find((t) => t.TypeName === '在线监测仪');
  expect(project && analyser).toBeTruthy();
  const station = await api<{ Id: number }>(page, 'POST', `/${String(g)}/project`, {
    Name: `排放口站 ${String(Date.now())}`,
    ProjectType: 2,
    ParentId: project?.Id,
    Position: '119.7050,30.5560',
  });
  const created = await api<{ Device: { DeviceSn: string } }>(page, 'POST', `/${String(g)}/Device`, {
    DeviceName: '出水在线监测仪（HJ 212）',
    TypeId: analyser?.Id,
    ProjectId: station.Id,
  });
  return { g, sn: created.Device.DeviceSn };
}

test('a simulated data logger’s minute data reaches the analyser and is forwarded to a supervising platform', async ({
  page,
}) => {
  // Forwarding waits for a minute to end (HJ212_FORWARD_GRACE is 5 s here); a busy machine is slower.
  test.setTimeout(300_000);
  const platform = await Hj212Platform.start();
  let logger: Hj212Logger | undefined;
  let linkId: number | undefined;
  try {
    await page.goto('/login');
    await signIn(page, ADMIN);
    const { sn } = await analyserStation(page);

    // The analyser becomes a logger: MN and password on its HJ 212 tab, which names the port.
    await page.goto(`/common/home/device/${sn}`);
    await page.getByRole('tab', { name: 'HJ 212' }).click();
    const tab = page.getByRole('tabpanel', { name: 'HJ 212' });
    await tab.getByLabel('MN').fill(MN);
    await tab.getByLabel('Password').fill(PASSWORD);
    await tab.getByRole('button', { name: 'Save' }).click();
    await expect(tab.getByText('Not connected')).toBeVisible();
    const hint = (await tab.getByText(/to TCP port \d+ of this server/).textContent()) ?? '';
    const port = Number(/TCP port (\d+)/.exec(hint)?.[1]);
    expect(port).toBeGreaterThan(0);

    // The simulated logger reports the minute that just ended, asking for an answer.
    logger = new Hj212Logger({ host: '127.0.0.1', port, mn: MN, password: PASSWORD, seed: 21 });
    await logger.connect();
    const firstMinute = Math.floor((Date.now() - 60_000) / 60_000) * 60_000;
    await logger.answer(logger.sendMinute(firstMinute));
    const cod = logger.value('COD_Out') ?? NaN;

    // The analyser's live values show it (COD with one decimal), and the tab counts it.
    const live = page.getByRole('region', { name: 'Live data' });
    await expect(live.locator('[data-key="COD_Out"]')).toContainText(Number(cod.toFixed(3)).toFixed(1));
    await expect(tab.getByText('Connected', { exact: true })).toBeVisible();
    await expect(tab.getByText('1 received, 1 stored')).toBeVisible();

    // A forwarding link to the platform, every minute, added on System Configure → HJ 212.
    await page.goto('/sys/hj212');
    await page.getByRole('tab', { name: 'Forwarding' }).click();
    await page.getByRole('button', { name: 'Add platform' }).click();
    const form = page.getByRole('dialog', { name: 'Add platform' });
    await form.getByLabel('Platform').fill(LINK);
    await form.getByLabel('Device (serial number)').fill(sn);
    await form.getByLabel('Host').fill('127.0.0.1');
    await form.getByLabel('Port').fill(String(platform.port));
    await form.getByLabel('MN').fill(PLATFORM_MN);
    await form.getByLabel('Password').fill('pp-e2e');
    await choose(page, form.getByLabel('Minute interval'), '1');
    // Sending from the first minute (typed as the picker shows times: the browser's local time) back-fills it.
    const from = await page.evaluate((ms) => {
      const d = new Date(ms);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${String(d.getFullYear())}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
    }, firstMinute);
    const start = form.getByLabel('Send from');
    await start.fill(from);
    await page.locator('.ant-picker-dropdown:visible').getByRole('button', { name: 'OK' }).click();
    await expect(start).toHaveValue(from);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    const row = page.getByRole('row').filter({ hasText: LINK });
    await expect(row).toContainText(`127.0.0.1:${String(platform.port)}`);

    // The logger's next minute: the link (sending from when it was added) forwards it once the minute ends.
    const at = Date.now();
    await logger.answer(logger.sendMinute(at));
    const sentCod = String(Number((logger.value('COD_Out') ?? NaN).toFixed(3)));
    const sentFlow = Number(((logger.value('Inflow') ?? NaN) / 3.6).toFixed(3));
    const dataTime = formatHj212Time(Math.floor(at / 60_000) * 60_000);
    const forwarded = () =>
      platform.received.find((p) => p.mn === PLATFORM_MN && p.cn === HJ212_CN.minute && cpValue(p, 'DataTime') === dataTime);
    await expect.poll(forwarded, { timeout: 150_000, intervals: [1000] }).toBeDefined();
    const minutes = platform.received.filter((p) => p.mn === PLATFORM_MN && p.cn === HJ212_CN.minute);
    // The first minute back-filled, oldest first.
    expect(minutes.map((p) => cpValue(p, 'DataTime'))).toEqual([formatHj212Time(firstMinute), dataTime]);
    expect(cpValue(minutes[0] as Hj212Packet, 'w01018-Avg')).toBe(String(Number(cod.toFixed(3))));
    const packet = forwarded() as Hj212Packet;
    expect(packet).toMatchObject({ st: '32', pw: 'pp-e2e', flag: 5 });
    expect(cpValue(packet, 'w01018-Avg')).toBe(sentCod);
    expect(cpValue(packet, 'w01018-Flag')).toBe('N');
    // Flow back in the standard's L/s, and the minute's volume (L/s × 60 s, in m³).
    expect(Number(cpValue(packet, 'w00000-Avg'))).toBeCloseTo(sentFlow, 3);
    expect(Number(cpValue(packet, 'w00000-Cou'))).toBeCloseTo((sentFlow * 60) / 1000, 3);
    expect(platform.refused).toEqual([]);

    // The link's state in the list, fetched again by the page: connected, answered, nothing waiting.
    await expect(row.getByText('Connected', { exact: true })).toBeVisible();
    const waiting = (await page.getByRole('columnheader').allTextContents()).indexOf('Waiting periods');
    expect(waiting).toBeGreaterThan(0);
    await expect(row.getByRole('cell').nth(waiting)).toHaveText('0');
    linkId = (await api<{ Id: number; Name: string }[]>(page, 'GET', '/Hj212Forward?PageSize=50')).find(
      (l) => l.Name === LINK,
    )?.Id;
  } finally {
    logger?.close();
    // The server stops knocking at a platform that is gone.
    if (linkId !== undefined) await api(page, 'DELETE', `/Hj212Forward/${String(linkId)}`);
    await platform.close();
  }
});
