import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const port = Number(process.env.E2E_PORT ?? 3210);
const tilePort = port + 1;
/** The test stream on port + 2, the fake EZVIZ platform on port + 3 (e2e/video-server.ts). */
const videoPort = port + 2;
// Each run starts the real built server on a fresh database.
const dataDir = mkdtempSync(path.join(tmpdir(), 'sluice-e2e-'));

export default defineConfig({
  testDir: 'e2e',
  // Bounds for a hung test and for what a user waits to see, not speed targets: on a busy machine
  // (CI shares two cores) pages take several times longer. Speed is measured under bench/.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${String(port)}`,
    browserName: 'chromium',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-quic',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      // Map tiles from this machine: tests never reach the internet.
      command: 'node --disable-warning=ExperimentalWarning e2e/tile-server.ts',
      url: `http://127.0.0.1:${String(tilePort)}/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { TILE_PORT: String(tilePort) },
    },
    {
      // Cameras from this machine: an HLS test pattern (made once with ffmpeg, kept in apps/server/demo-assets) and a fake EZVIZ platform.
      command: 'node --disable-warning=ExperimentalWarning e2e/video-server.ts',
      url: `http://127.0.0.1:${String(videoPort)}/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: { VIDEO_PORT: String(videoPort) },
    },
    {
      command: 'npm run serve',
      url: `http://127.0.0.1:${String(port)}/api/docs/json`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO: '1',
        ADMIN_PASSWORD: 'Admin12345',
        MQTT_PORT: '0',
        // HJ 212 loggers on a free port (a device's HJ 212 tab names it); a minute is forwarded 5 s after it ends.
        HJ212_PORT: '0',
        HJ212_FORWARD_GRACE: '5',
        LOG_LEVEL: 'warn',
        MAP_TILE_URL: `http://127.0.0.1:${String(tilePort)}/{z}/{x}/{y}.png`,
        EZVIZ_API_URL: `http://127.0.0.1:${String(videoPort + 1)}`,
        VIDEO_ORIGINS: `http://127.0.0.1:${String(videoPort)}`,
        // EZVIZ's player kit is the server's own copy (EZVIZ_KIT_URL=local, the default): the real ezuikit-js.
      },
    },
  ],
});
