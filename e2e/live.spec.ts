/**
 * Live data in the browser: the simulator speaks for a demo device that was offline; its values
 * appear on the device's page as they are published, its station comes alive on the map, and
 * switching the simulator off turns them offline again, all without reloading. (How fast values
 * arrive is measured by bench/live-latency.ts, not asserted here: a busy machine is slower.)
 */
import { expect, test, type Page, type WebSocketRoute } from '@playwright/test';
import { Fleet } from '@sluice/simulator/fleet';
import { ADMIN, signIn } from './fixtures.ts';

/** Shangwu station: both its devices are offline in the demo data and the demo fleet leaves them alone. */
const SN = 'SL0000000601';
const SN2 = 'SL0000000602';

function simulate(baseURL: string | undefined, sn: string, group: number, onPublish?: (message: Record<string, number>) => void) {
  return Fleet.start({
    url: `${(baseURL ?? '').replace(/^http/, 'ws')}/mqtt`,
    devices: [{ deviceSn: sn, secret: `demo-${sn}-secret`, groupId: group, station: `e2e-${sn}` }],
    intervalMs: 700,
    qos: 1,
    errorTopic: false,
    station: { faultRate: 0 },
    ...(onPublish
      ? {
          onPublish: (_sn: string, message: Record<string, number>) => {
            onPublish(message);
          },
        }
      : {}),
  });
}

/** Calls the API with the page's session. */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  const token = (await page.context().cookies()).find((c) => c.name === 'token')?.value ?? '';
  const res = await page.request.get(`/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: T }).data;
}

async function groupOf(page: Page): Promise<number> {
  return (await apiGet<{ GroupId: number }>(page, '/Mqtt/Config')).GroupId;
}

/** Whether the server counts the device online. */
async function onlineOnServer(page: Page, group: number, sn: string): Promise<boolean | undefined> {
  return (await apiGet<{ Online: boolean }[]>(page, `/${String(group)}/Device/AllDevice?DeviceSn=${sn}`))[0]?.Online;
}

test('a simulated station: values on screen as they are published, online on the map, offline when the simulator stops', async ({
  page,
  baseURL,
}) => {
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto(`/common/home/device/${SN}`);
  await expect(page.locator('[role="status"][data-connected="true"]')).toBeAttached();
  const map = page.getByRole('region', { name: 'Map of stations and devices' });
  // The station and its two devices stand at one position: one cluster, all offline.
  await expect(map.getByRole('button', { name: /^3 places here: 0 online, 0 with a warning, 3 offline/ })).toBeAttached();
  // The device's page leads with its live values (no tab to open).
  await expect(page.getByRole('region', { name: 'Live data' })).toBeVisible();
  // The device's own state, next to its name at the top of the list panel.
  const state = page.getByRole('heading', { level: 2, name: '提升泵' }).locator('xpath=..').locator('.ant-tag');
  await expect(state).toHaveText('Offline');

  const published: Record<string, number>[] = [];
  const fleet = await simulate(baseURL, SN, await groupOf(page), (message) => published.push(message));
  try {
    await expect(map.getByRole('button', { name: /^3 places here: 2 online, 0 with a warning, 1 offline/ })).toBeAttached();
    await expect(state).toHaveText('Online');

    // The lift pump type shows the tank level with two decimals, in metres.
    const shown = (message: Record<string, number>) => `${(message.TankLevel ?? NaN).toFixed(2)} m`;
    const value = page.getByRole('region', { name: 'Live data' }).locator('[data-key="TankLevel"]');
    for (let i = 0; i < 3; i++) {
      const before = published.length;
      await expect.poll(() => published.length).toBeGreaterThan(before);
      // The screen moves on to one of the values published since, not an older one.
      await expect
        .poll(async () => {
          const text = await value.textContent();
          return published.slice(before).some((message) => shown(message) === text);
        })
        .toBe(true);
    }
  } finally {
    await fleet.stop();
  }
  await expect(map.getByRole('button', { name: /^3 places here: 0 online, 0 with a warning, 3 offline/ })).toBeAttached();
  await expect(state).toHaveText('Offline');

  // Zoomed in all the way, the station's devices stand around it, each to be seen and clicked.
  await map.getByRole('button', { name: /^3 places here/ }).click();
  const station = map.getByRole('button', { name: /^上坞站, Station/ });
  const pump = map.getByRole('button', { name: /^提升泵, Device, Offline/ });
  const dosing = map.getByRole('button', { name: /^PAC 加药泵, Device/ });
  await expect(pump).toBeAttached();
  const boxes = await Promise.all([station, pump, dosing].map((b) => b.boundingBox()));
  const centres = boxes.map(
    (b) => `${String(Math.round((b?.x ?? 0) + (b?.width ?? 0) / 2))},${String(Math.round((b?.y ?? 0) + (b?.height ?? 0) / 2))}`,
  );
  expect(new Set(centres).size).toBe(3);
});

test('after the network drops and returns, the page catches up with what it missed', async ({ page, baseURL }) => {
  // Every WebSocket of the page goes through here, so the test can cut them as a network loss would.
  let down = false;
  const sockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
  await page.routeWebSocket(/\/mqtt$/, (ws) => {
    if (down) {
      void ws.close();
      return;
    }
    sockets.push({ page: ws, server: ws.connectToServer() });
  });
  await page.goto('/login');
  await signIn(page, ADMIN);
  await page.goto(`/common/home/device/${SN2}`);
  const indicator = page.locator('[role="status"][data-connected]');
  await expect(indicator).toHaveAttribute('data-connected', 'true');
  const state = page.getByRole('heading', { level: 2, name: 'PAC 加药泵' }).locator('xpath=..').locator('.ant-tag');
  await expect(state).toHaveText('Offline');

  const group = await groupOf(page);
  const fleet = await simulate(baseURL, SN2, group);
  await expect(state).toHaveText('Online');

  // The network goes: the page says so, and does not hear the device go offline.
  down = true;
  for (const s of sockets.splice(0)) {
    await s.server.close();
    await s.page.close();
  }
  await expect(indicator).toHaveAttribute('data-connected', 'false');
  await fleet.stop();
  // The device goes offline on the server while the page cannot hear it.
  await expect.poll(() => onlineOnServer(page, group, SN2)).toBe(false);

  // It comes back: the page reconnects and fetches what it missed.
  down = false;
  await expect(indicator).toHaveAttribute('data-connected', 'true', { timeout: 30_000 });
  await expect(state).toHaveText('Offline');
});
