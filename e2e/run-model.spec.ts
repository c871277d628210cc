/**
 * A duty/standby rotation from the browser (issue 13, spec §4 accessory rotation): the demo
 * operator defines the lift pumps' run system on a simulated lift pump station, sends it to the
 * device, runs pump 1 by hand and switches to the standby pump: the device hands over and the
 * console shows pump 2 running.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Fleet } from '@sluice/simulator/fleet';
import { ADMIN, choose, OPERATOR, signIn, toggleTheme } from './fixtures.ts';

/** Zhangling station's lift pump: offline in the demo data, and the demo fleet leaves it alone. */
const SN = 'SL0000000301';
const STATION = `e2e-run-model-${SN}`;

async function call<T>(request: APIRequestContext, token: string, method: string, path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(`/api${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** Answers the question titled `title` with its button `button`. */
async function answer(page: Page, title: string, button: string) {
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('the operator sets a duty/standby rotation of two lift pumps and sees the standby pump take over', async ({
  page,
  request,
  baseURL,
}) => {
  // The demo's lift pump reports one pump; this station's controller runs two, so the
  // administrator gives the device the second pump's switch (taken away again at the end).
  const login = await request.post('/api/User', { data: { Account: ADMIN.account, Password: ADMIN.password } });
  const admin = ((await login.json()) as { data: { Token: string } }).data.Token;
  const group = (await call<{ GroupId: number }>(request, admin, 'GET', '/user/myinfo')).GroupId;
  const added = await call<{ Id: number }>(request, admin, 'POST', '/DeviceDataDefineAdd', {
    DeviceSn: SN,
    DataKey: 'LiftPump2Run',
    DataName: '2#提升泵运行',
    DataType: 'boolean',
    Format: '{"0":"停止","1":"运行"}',
  });

  const fleet = await Fleet.start({
    url: `${(baseURL ?? '').replace(/^http/, 'ws')}/mqtt`,
    devices: [{ deviceSn: SN, secret: `demo-${SN}-secret`, groupId: group, station: STATION }],
    intervalMs: 700,
    qos: 1,
    errorTopic: false,
    station: { faultRate: 0, rain: false },
  });
  try {
    await page.goto('/login');
    await signIn(page, OPERATOR);
    await expect(page.locator('[role="status"][data-connected="true"]')).toBeAttached();
    await page.goto(`/common/home/device/${SN}`);
    await page.getByRole('tab', { name: 'Control', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Device control' });
    const runModel = panel.getByRole('region', { name: 'Run model' });
    await expect(runModel.getByText('No run system yet: add one, e.g. lift pumps 1# and 2# running in turn')).toBeVisible();

    // The run system: the two pumps take turns an hour each.
    await runModel.getByRole('button', { name: 'Add run system' }).click();
    const systemDialog = page.getByRole('dialog').filter({ hasText: 'Add run system' });
    await systemDialog.getByLabel('Name').fill('提升泵一用一备');
    await systemDialog.getByRole('button', { name: 'Save' }).click();
    await expect(systemDialog).toBeHidden();
    const system = runModel.getByRole('group', { name: '提升泵一用一备' });
    await expect(system.getByText('No equipment in this rotation yet')).toBeVisible();
    for (const [name, point] of [
      ['1#提升泵', 'Lift pump 1 run (LiftPump1Run)'],
      ['2#提升泵', 'Lift pump 2 run (LiftPump2Run)'],
    ] as const) {
      await system.getByRole('button', { name: 'Add equipment' }).click();
      const dialog = page.getByRole('dialog').filter({ hasText: 'Add equipment to 提升泵一用一备' });
      await dialog.getByLabel('Equipment').fill(name);
      await choose(page, dialog.getByLabel('Its switch'), point);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      await expect(system.getByRole('listitem', { name })).toBeVisible();
    }
    await runModel.getByRole('button', { name: 'Send to device' }).click();
    await answer(page, 'Send the run model to', 'Send to device');
    // The device keeps it: the device log shows the model done (the short message may be gone already on a busy machine).
    await expect
      .poll(async () => {
        const log = await call<{ Key: string; State: number }[]>(request, admin, 'GET', `/${String(group)}/${SN}/DeviceLog`);
        return log.find((row) => row.Key === '$RunModel')?.State;
      })
      .toBe(1);

    // Pump 1 runs, by hand.
    await panel.getByRole('tab', { name: 'Manual' }).click();
    await answer(page, 'Set 提升泵’s Control mode to: Manual?', 'Set');
    const pump1 = panel.getByRole('switch', { name: 'Lift pump 1' });
    await expect(pump1).toBeEnabled();
    await pump1.click();
    await answer(page, 'Set Lift pump 1’s Lift pump 1 run to: Run?', 'Set');
    await expect(pump1).toBeChecked();
    const one = system.getByRole('listitem', { name: '1#提升泵' });
    const two = system.getByRole('listitem', { name: '2#提升泵' });
    await expect(one.getByText('Running')).toBeVisible();
    await expect(two.getByText('Standby')).toBeVisible();

    // Switch to the standby pump now: the device hands over.
    await system.getByRole('button', { name: 'Switch to standby now' }).click();
    await answer(page, '提升泵一用一备: stop the running equipment and switch to 2#提升泵 now?', 'Switch to standby now');
    await expect(two.getByText('Running')).toBeVisible();
    await expect(one.getByText('Standby')).toBeVisible();
    await expect(pump1).not.toBeChecked();
    const model = fleet.stations.get(STATION);
    expect([model?.v.LiftPump1Run, model?.v.LiftPump2Run]).toEqual([0, 1]);

    // On a 390 px phone, in the dark theme, the run model fits without sideways scrolling.
    await toggleTheme(page);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 390, height: 844 });
    await runModel.scrollIntoViewIfNeeded();
    await expect(two.getByText('Running')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const box = await runModel.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    if (process.env.SCREENSHOT_DIR) await runModel.screenshot({ path: `${process.env.SCREENSHOT_DIR}/run-model-phone-dark.png` });
  } finally {
    await fleet.stop();
    const systems = await call<{ Id: number }[]>(
      request,
      admin,
      'GET',
      `/${String(group)}/${SN}/DeviceSystem/GetDeviceSystemList`,
    );
    for (const s of systems)
      await call(request, admin, 'DELETE', `/${String(group)}/${SN}/DeviceSystem/RemoveDeviceSystem/${String(s.Id)}`);
    await call(request, admin, 'POST', '/DeleteDeviceDataDefine', { Id: added.Id });
  }
});
