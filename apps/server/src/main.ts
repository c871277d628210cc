/** Starts Sluice: configuration, database, first administrator, HTTP server, graceful shutdown. */
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { bootstrap } from './seed/bootstrap.ts';
import { DEMO_OPERATOR } from './seed/demo.ts';
import { startDemoFleet } from './seed/demo-fleet.ts';
import { boundHeapGrowth } from './ops/heap-growth.ts';
import type { Fleet } from '@sluice/simulator/fleet';

async function main(): Promise<void> {
  boundHeapGrowth();
  const config = loadConfig();
  const database = await openDatabase({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL });
  const app = await buildApp({ config, database });
  // Uploads: the folder writable, or the bucket there and these credentials taken (STORAGE=s3).
  await app.ctx.storage.check();
  const seeded = await bootstrap(app.ctx);

  let fleet: Fleet | undefined;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests and ingest batches');
    // A shutdown that hangs (a database gone away mid-commit) still ends, and says so.
    setTimeout(() => {
      app.log.error({ seconds: config.SHUTDOWN_SECONDS }, 'shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.SHUTDOWN_SECONDS * 1000).unref();
    (fleet?.stop() ?? Promise.resolve())
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => {
    shutdown('SIGTERM');
  });
  process.on('SIGINT', () => {
    shutdown('SIGINT');
  });

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  // The MQTT broker's TCP port (or the external broker), and the live-data jobs.
  await app.live.start();
  // HJ 212 data loggers, when HJ212_PORT is set.
  await app.hj212.start();
  // DEMO: the demo stations come alive through the embedded broker, as real gateways would.
  if (config.DEMO) fleet = await startDemoFleet(app);
  const shown = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  app.log.info({ address, mqttPort: app.live.mqttPort, demo: config.DEMO }, 'Sluice is running');
  // Last and plainly (the log may be JSON): where it runs and, on a new database, who can sign in.
  // The credentials go to the terminal only, not into the structured log.
  const lines = [`Sluice is running at ${shown}  (API docs: ${shown}/api/docs)`];
  if (config.DEMO && config.HOST === '127.0.0.1')
    lines.push('Listening on this machine only (HOST=0.0.0.0 opens it to the network).');
  if (seeded.created) {
    lines.push(
      `Administrator: account "${seeded.account}"` +
        (seeded.password
          ? `, password "${seeded.password}" (shown once; change it after signing in)`
          : ' (password from ADMIN_PASSWORD)'),
    );
    if (config.DEMO) lines.push(`Demo operator: account "${DEMO_OPERATOR.account}", password "${DEMO_OPERATOR.password}"`);
  }
  lines.push('A lost administrator password: npm run admin:reset-password -- --account <account>');
  const rule = '─'.repeat(Math.min(100, Math.max(...lines.map((l) => l.length))));
  console.log(`\n${rule}\n${lines.join('\n')}\n${rule}\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
