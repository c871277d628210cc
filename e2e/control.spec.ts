/**
 * Controlling a station from the browser: the simulator speaks for a demo lift pump the demo fleet
 * leaves alone. In auto mode its switch is disabled with the reason; the demo operator switches
 * the station to manual, starts the pump, sees the device acknowledge it and the tank level start
 * to fall; a set-point out of range is refused in the form; when the device stops answering, the
 * time-out shows, and the device log tells each command's fate.
 */
import { expect, test, type Page } from '@playwright/test';
import { Fleet } from '@sluice/simulator/fleet';
import { OPERATOR, signIn } from './fixtures.ts';

/** Shangwu station's lift pump: offline in the demo data, and the demo fleet leaves it alone. */
const SN = 'SL0000000601';
const STATION = `e2e-control-${SN}`;

async function apiGet<T>(page: Page, path: string): Promise<T> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const res = await page.request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

/** Answers the confirmation titled `title` with its button `button`. */
async function answer(page: Page, title: string, button: 'Set' | 'Cancel') {
  const dialog = page.getByRole('dialog').filter({ hasText: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('the operator runs a lift pump by hand: refused in auto mode, acknowledged in manual, out-of-range refused, time-out shown', async ({
  page,
  baseURL,
}) => {
  await page.goto('/login');
  await signIn(page, OPERATOR);
  await expect(page.locator('[role="status"][data-connected="true"]')).toBeAttached();
  const group = (await apiGet<{ GroupId: number }>(page, '/Mqtt/Config')).GroupId;

  // An hour of the station passes in twelve seconds, in dry weather, so the level visibly moves.
  const fleet = await Fleet.start({
    url: `${(baseURL ?? '').replace(/^http/, 'ws')}/mqtt`,
    devices: [{ deviceSn: SN, secret: `demo-${SN}-secret`, groupId: group, station: STATION }],
    intervalMs: 700,
    qos: 1,
    errorTopic: false,
    speed: 300,
    station: { faultRate: 0, rain: false },
  });
  try {
    const model = fleet.stations.get(STATION);
    if (!model) throw new Error('no station model');

    await page.goto(`/common/home/device/${SN}`);
    await page.getByRole('tab', { name: 'Control', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Device control' });
    const pump = panel.getByRole('switch', { name: 'Lift pump 1' });

    // The station starts in auto mode: manual control is refused before anything is sent.
    await expect(panel.getByText('Devices cannot be controlled in auto mode')).toBeVisible();
    await expect(panel.getByRole('tab', { name: 'Auto', selected: true })).toBeVisible();
    await expect(pump).toBeDisabled();

    // To manual mode, after the question.
    await panel.getByRole('tab', { name: 'Manual' }).click();
    await answer(page, 'Set 提升泵’s Control mode to: Manual?', 'Set');
    // The device's 'done' message lasts 3 s, which a loaded machine can let pass before a check:
    // the lasting state is checked here, and the device log's 'Done' rows at the end.
    await expect(panel.getByRole('tab', { name: 'Manual', selected: true })).toBeVisible();
    await expect(pump).toBeEnabled();
    await expect(pump).not.toBeChecked();

    // Cancel sends nothing and the switch stays as the device says.
    await pump.click();
    await answer(page, 'Set Lift pump 1’s Lift pump 1 run to: Run?', 'Cancel');
    await expect(pump).not.toBeChecked();

    // Start the pump: acknowledged, shown running, and the level starts to fall.
    const level = panel.getByRole('group', { name: 'High level' }).locator('[data-key="TankLevel"]');
    const levelNow = async () => Number.parseFloat((await level.textContent()) ?? '');
    // The regulating tank fills (the auto mode's pumps may have emptied it meanwhile).
    model.v.TankLevel = 2.4;
    await expect.poll(levelNow).toBeGreaterThan(2);
    await pump.click();
    await answer(page, 'Set Lift pump 1’s Lift pump 1 run to: Run?', 'Set');
    await expect(pump).toBeChecked();
    const started = await levelNow();
    await expect.poll(levelNow).toBeLessThan(started);

    // A set-point out of range is refused in the form, with the server's own message.
    const high = panel.getByRole('group', { name: 'High level' });
    await high.getByRole('button', { name: 'Change High level' }).click();
    const input = high.getByLabel('New value of High level');
    await input.fill('9');
    await expect(page.getByRole('tooltip').filter({ hasText: 'The value entered cannot be greater than 5 m' })).toBeVisible();
    await expect(high.getByRole('button', { name: 'Send' })).toBeDisabled();
    await high.getByRole('button', { name: 'Cancel' }).click();

    // The device stops answering: the command times out (COMMAND_TIMEOUT) and says so.
    fleet.ignoring.add(SN);
    await pump.click();
    await answer(page, 'Set Lift pump 1’s Lift pump 1 run to: Stop?', 'Set');
    await expect(page.getByText('Lift pump 1: sent, waiting for the device…')).toBeVisible();
    await expect(page.getByText('Lift pump 1: the device did not answer in time')).toBeVisible();
    await expect(pump).toBeChecked();

    // The device log tells each command's fate, newest first.
    await page.getByRole('tab', { name: 'Device log', exact: true }).click();
    const log = page.getByRole('region', { name: 'Device log' });
    const rows = log.getByRole('row').filter({ hasText: 'Lift pump 1 run' });
    await expect(rows.first()).toContainText('No answer');
    await expect(rows.nth(1)).toContainText('Done');
    await expect(log.getByRole('row').filter({ hasText: 'Control mode' }).first()).toContainText('Done');
  } finally {
    await fleet.stop();
  }
});
