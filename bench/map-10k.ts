/**
 * The home map with 10,000 devices: starts the real server on a fresh database (tiles from a
 * local tile server, so nothing reaches the internet), inserts 10,000 devices spread over a
 * county, signs in through the page in Chromium, opens the home map and reads the marks the map
 * code sets: navigation → 'map:rendered' (first markers and clusters drawn), and for each zoom
 * step 'map:zoom-start' → 'map:zoomed' (Leaflet's 250 ms zoom animation included) and the
 * redraw itself ('map:draw'). Run after `npm run build`: `npm run bench:map` (BENCH_WEB_DIST=<dir>
 * serves another build instead, to compare two builds under the same load).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { bootstrap } from '../apps/server/src/seed/bootstrap.ts';
import { startTileServer } from '../e2e/tile-server.ts';

const DEVICES = 10_000;
const tiles = await startTileServer();
const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-bench-map-'));
// BENCH_WEB_DIST serves another build of the console (to compare two builds on the same machine).
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  ADMIN_PASSWORD: 'Admin12345',
  PORT: '0',
  MAP_TILE_URL: tiles.url,
  ...(process.env.BENCH_WEB_DIST ? { WEB_DIST: process.env.BENCH_WEB_DIST } : {}),
});
const database = await openDatabase({ dataDir });
const app = await buildApp({ config, database, logger: false });
await bootstrap(app.ctx);
const { db } = app.ctx;
const admin = await db.selectFrom('users').select(['group_id']).where('account', '=', 'admin').executeTakeFirstOrThrow();

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
    return {
      group_id: admin.group_id,
      device_sn: `SL9${String(n).padStart(9, '0')}`,
      device_no: '',
      device_name: `Bench device ${String(n)}`,
      device_description: '',
      type_id: null,
      project_id: null,
      region_id: null,
      area_id: null,
      position: `${(119.4 + random() * 0.5).toFixed(6)},${(30.4 + random() * 0.4).toFixed(6)}`,
      address: '',
      online: random() < 0.7 ? 1 : 0,
      last_seen: now,
      secret_hash: 'bench',
      created_at: now,
      updated_at: now,
      deleted_at: null,
      deleted_by: null,
    };
  });
  await db.insertInto('devices').values(rows).execute();
}
const insertMs = performance.now() - inserted;
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
await page.goto(`${address}/login`);
await page.getByLabel(/Account|账号/).fill('admin');
await page.getByLabel(/Password|密码/).fill('Admin12345');
await page.getByRole('button', { name: /Sign in|登录/ }).click();
await page.waitForURL(/\/common\/home/);

const markTime = (name: string) => page.evaluate((mark) => performance.getEntriesByName(mark).at(-1)?.startTime ?? -1, name);
const waitMark = (name: string, count: number) =>
  page.waitForFunction(([mark, n]) => performance.getEntriesByName(mark as string).length >= (n as number), [name, count], { timeout: 30_000 });

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
await app.close();
await tiles.close();
await rm(dataDir, { recursive: true, force: true });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const ms = (n: number) => `${n.toFixed(0)} ms`;
console.log(`inserted ${String(DEVICES)} devices in ${ms(insertMs)}; the map holds ${String(points)} points and draws ${String(drawn)} markers and clusters`);
console.log(`first render (navigation → markers drawn): ${firstRenders.map(ms).join(', ')} — median ${ms(median(firstRenders))} (aim < 1000 ms)`);
console.log(`zoom step (zoom start → redrawn, 250 ms animation included): ${zoomTotals.map(ms).join(', ')} — median ${ms(median(zoomTotals))}`);
console.log(`zoom step redraw (clusters for the new zoom, drawn): ${zoomDraws.map((n) => `${n.toFixed(1)} ms`).join(', ')} — median ${median(zoomDraws).toFixed(1)} ms (aim < 100 ms)`);
