/**
 * What the sign-in route costs a first visitor: starts the real server on a fresh database,
 * opens /login in Chromium with an empty cache, and adds up the JavaScript it loaded, gzipped.
 * Run after `npm run build`: `npm run bench:login`.
 */
import { gzipSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { bootstrap } from '../apps/server/src/seed/bootstrap.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-bench-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'Admin12345', PORT: '0' });
const database = await openDatabase({ dataDir });
const app = await buildApp({ config, database, logger: false });
await bootstrap(app.ctx);
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const page = await browser.newPage();
const scripts: { url: string; raw: number; gzip: number }[] = [];
page.on('response', (response) => {
  const type = response.headers()['content-type'] ?? '';
  if (!type.includes('javascript')) return;
  void response.body().then((body) => {
    scripts.push({ url: new URL(response.url()).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  });
});
const started = performance.now();
await page.goto(`${address}/login`, { waitUntil: 'networkidle' });
await page.getByRole('button', { name: /Sign in|登录/ }).waitFor();
const elapsed = performance.now() - started;
await browser.close();
await app.close();
await rm(dataDir, { recursive: true, force: true });

const kb = (n: number) => (n / 1024).toFixed(1);
const raw = scripts.reduce((sum, s) => sum + s.raw, 0);
const gzip = scripts.reduce((sum, s) => sum + s.gzip, 0);
for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(s.gzip).padStart(7)} kB gzip  ${s.url}`);
console.log(`/login loads ${String(scripts.length)} scripts: ${kb(raw)} kB, ${kb(gzip)} kB gzip (budget 250 kB); ready in ${elapsed.toFixed(0)} ms on localhost`);
