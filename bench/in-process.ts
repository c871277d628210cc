/**
 * For the benchmarks that run the real app in their own process: the app on a fresh database,
 * and the Chromium that the browser benchmarks drive.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openDatabase } from '../apps/server/src/db/database.ts';
import { SqliteCheckpointer } from '../apps/server/src/db/sqlite-checkpointer.ts';
import { bootstrap } from '../apps/server/src/seed/bootstrap.ts';
import { ADMIN } from './live-server.ts';

export interface InProcessApp {
  app: FastifyInstance;
  dataDir: string;
  /** Closes the app and removes its data folder. */
  close(): Promise<void>;
}

/**
 * The app, bootstrapped (administrator ADMIN), on SQLite in a temporary folder, or on
 * `env.DATABASE_URL`. On SQLite with the WAL checkpoint worker the server runs (live-data.ts
 * starts it with the live services, which these benchmarks do not start): without it the WAL
 * only grows, and every read and commit pays for it.
 */
export async function startInProcess(env: Record<string, string> = {}): Promise<InProcessApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: ADMIN.password, ...env });
  const database = await openDatabase({ dataDir, databaseUrl: config.DATABASE_URL });
  const app = await buildApp({ config, database, logger: false });
  await bootstrap(app.ctx);
  const checkpointer = database.dialect === 'sqlite' ? new SqliteCheckpointer() : undefined;
  checkpointer?.start(path.join(dataDir, 'sluice.db'), (message) => {
    console.warn(`checkpoint worker: ${message}`);
  });
  return {
    app,
    dataDir,
    close: async () => {
      await checkpointer?.stop();
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Headless Chromium (CHROMIUM_PATH, else /usr/bin/chromium), without background traffic. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}
