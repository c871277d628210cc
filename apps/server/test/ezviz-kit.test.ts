/**
 * EZVIZ's web player kit served by the server itself (EZVIZ_KIT_URL=local, the default): its
 * browser build and its WASM decoders from the ezuikit-js package under a versioned path, to
 * anyone (like the console's other files), and nothing else of the package.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_KIT } from '../src/http/ezviz-kit.ts';
import { createTestApp, type TestApp } from './harness.ts';

describe('GET /ezuikit/<version>/…', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    // With a built console, so that a missing file could be mistaken for a page.
    dist = await mkdtemp(path.join(tmpdir(), 'sluice-console-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>Sluice</title>');
    t = await createTestApp('sqlite', { WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('serves the kit’s script, to be kept for good', async () => {
    const script = await t.call({ method: 'GET', url: LOCAL_KIT.url });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body).toContain(`ezuikit.js v${LOCAL_KIT.version}`);
    expect(script.body).toContain('EZUIKitPlayer');
  });

  it('serves its decoders (WebAssembly as such, so browsers compile it as it streams)', async () => {
    const decoder = await t.call({ method: 'GET', url: `${LOCAL_KIT.staticPath}/PlayCtrlWasm/playCtrl1/HasSIMD/Decoder.js` });
    expect(decoder.statusCode).toBe(200);
    const wasm = await t.call({ method: 'GET', url: `${LOCAL_KIT.staticPath}/PlayCtrlWasm/playCtrl3/noWorker/Decoder.wasm` });
    expect(wasm.statusCode).toBe(200);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
  });

  it('serves nothing else of the package, nor outside it, and never the console’s page in a file’s place', async () => {
    expect((await t.call({ method: 'GET', url: '/common/home' })).body).toContain('<title>Sluice</title>');
    for (const url of [
      `/ezuikit/${LOCAL_KIT.version}/package.json`,
      `/ezuikit/${LOCAL_KIT.version}/README.md`,
      `/ezuikit/${LOCAL_KIT.version}/index.mjs`,
      `/ezuikit/${LOCAL_KIT.version}/ezuikit_static/../package.json`,
      `/ezuikit/${LOCAL_KIT.version}/ezuikit_static/%2e%2e/package.json`,
      `/ezuikit/${LOCAL_KIT.version}/ezuikit_static/../../@fastify/static/package.json`,
      '/ezuikit/0.0.1/ezuikit.js',
    ]) {
      const res = await t.call({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 404]);
    }
  });
});
