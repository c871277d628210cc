/**
 * What the sign-in route costs a first visitor: starts the real server on a fresh database,
 * opens /login in Chromium with an empty cache, and adds up the JavaScript it loaded, gzipped.
 * Run after `npm run build`: `npm run bench:login`.
 */
import { gzipSync } from 'node:zlib';
import { launchChromium, startInProcess } from './in-process.ts';

const server = await startInProcess({ PORT: '0' });
const { app } = server;
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const browser = await launchChromium();
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
await server.close();

const kb = (n: number) => (n / 1024).toFixed(1);
const raw = scripts.reduce((sum, s) => sum + s.raw, 0);
const gzip = scripts.reduce((sum, s) => sum + s.gzip, 0);
for (const s of scripts.sort((a, b) => b.gzip - a.gzip)) console.log(`  ${kb(s.gzip).padStart(7)} kB gzip  ${s.url}`);
console.log(
  `/login loads ${String(scripts.length)} scripts: ${kb(raw)} kB, ${kb(gzip)} kB gzip (budget 250 kB); ready in ${elapsed.toFixed(0)} ms on localhost`,
);
