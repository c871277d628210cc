/**
 * The home map with 10,000 devices: starts the real server on a fresh database (tiles from a
 * local tile server, so nothing reaches the internet), inserts 10,000 devices spread over a
 * county, signs in through the page in Chromium, opens the home map and reads the marks the map
 * code sets: navigation → 'map:rendered' (first markers and clusters drawn), and for each zoom
 * step 'map:zoom-start' → 'map:zoomed' (Leaflet's 250 ms zoom animation included) and the
 * redraw itself ('map:draw'). Run after `npm run build`: `npm run bench:map` (BENCH_WEB_DIST=<dir>
 * serves another build instead, to compare two builds under the same load).
 */
import { launchChromium, startInProcess } from './in-process.ts';
import { ADMIN } from './live-server.ts';
import { newDeviceRow } from '../apps/server/src/modules/devices/devices.repository.ts';
import { startTileServer } from '../e2e/tile-server.ts';

const DEVICES = 10_000;
const tiles = await startTileServer();
// BENCH_WEB_DIST serves another build of the console (to compare two builds on the same machine).
const server = await startInProcess({
  PORT: '0',
  MAP_TILE_URL: tiles.url,
  ...(process.env.BENCH_WEB_DIST ? { WEB_DIST: process.env.BENCH_WEB_DIST } : {}),
});
const { app } = server;
const { db } = app.ctx;
const admin = await db.selectFrom('users').select(['group_id']).where('account', '=', ADMIN.account).executeTakeFirstOrThrow();

// 10,000 devices over Anji County (about 50 km × 45 km), a deterministic spread, 70 % online.
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const now = Date.now();
const inserted = performance.now();
for (let start = 0; start < DEVICES; start += 500) {
  const rows = Array.from({ length: Math.min(500, DEVICES - start) }, (_, i) => {
    const n = start + i;
    return newDeviceRow(
      {
        group_id: admin.group_id,
        device_sn: `SL9${String(n).padStart(9, '0')}`,
        device_name: `Bench device ${String(n)}`,
        position: `${(119.4 + random() * 0.5).toFixed(6)},${(30.4 + random() * 0.4).toFixed(6)}`,
        online: random() < 0.7 ? 1 : 0,
        last_seen: now,
        secret_hash: 'bench',
      },
      now,
    );
  });
  await db.insertInto('devices').values(rows).execute();
}
const insertMs = performance.now() - inserted;
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
await page.goto(`${address}/login`);
await page.getByLabel(/Account|账号/).fill(ADMIN.account);
await page.getByLabel(/Password|密码/).fill(ADMIN.password);
await page.getByRole('button', { name: /Sign in|登录/ }).click();
await page.waitForURL(/\/common\/home/);

const markTime = (name: string) => page.evaluate((mark) => performance.getEntriesByName(mark).at(-1)?.startTime ?? -1, name);
const waitMark = (name: string, count: number) =>
  page.waitForFunction(([mark, n]) => performance.getEntriesByName(mark as string).length >= (n as number), [name, count], {
    timeout: 30_000,
  });

const firstRenders: number[] = [];
for (let run = 0; run < 5; run++) {
  await page.goto(`${address}/common/home`);
  await waitMark('map:rendered', 1);
  firstRenders.push(await markTime('map:rendered'));
}
const drawn = await page.locator('.sluice-map').getAttribute('data-drawn');
const points = await page.locator('.sluice-map').getAttribute('data-points');

const zoomTotals: number[] = [];
const zoomDraws: number[] = [];
for (let step = 1; step <= 4; step++) {
  await page.evaluate(() => {
    performance.clearMarks();
    performance.clearMeasures();
  });
  await page.locator('.leaflet-control-zoom-in').click();
  await waitMark('map:zoomed', 1);
  const [start, end, draw] = await page.evaluate(() => [
    performance.getEntriesByName('map:zoom-start').at(-1)?.startTime ?? 0,
    performance.getEntriesByName('map:zoomed').at(-1)?.startTime ?? 0,
    performance.getEntriesByName('map:draw').at(-1)?.duration ?? 0,
  ]);
  zoomTotals.push(end - start);
  zoomDraws.push(draw);
  await page.waitForTimeout(300);
}
await browser.close();
await server.close();
await tiles.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (n: number) => `${n.toFixed(0)} ms`;
console.log(
  `inserted ${String(DEVICES)} devices in ${ms(insertMs)}; the map holds ${String(points)} points and draws ${String(drawn)} markers and clusters`,
);
console.log(
  `first render (navigation → markers drawn): ${firstRenders.map(ms).join(', ')} — median ${ms(median(firstRenders))} (aim < 1000 ms)`,
);
console.log(
  `zoom step (zoom start → redrawn, 250 ms animation included): ${zoomTotals.map(ms).join(', ')} — median ${ms(median(zoomTotals))}`,
);
console.log(
  `zoom step redraw (clusters for the new zoom, drawn): ${zoomDraws.map((n) => `${n.toFixed(1)} ms`).join(', ')} — median ${median(zoomDraws).toFixed(1)} ms (aim < 100 ms)`,
);
