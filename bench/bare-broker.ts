/**
 * The ceiling of the broker: Aedes with the server's options and no hooks (every client and
 * publish allowed, nothing stored), on MQTT over TCP. Prints its port. For bench/fleet.ts.
 */
import { createServer } from 'node:net';
// eslint-disable-next-line import-x/no-extraneous-dependencies -- the server's own broker (apps/server's dependency), measured without the server
import { Aedes } from 'aedes';

const aedes = await Aedes.createBroker({ concurrency: 1000, connectTimeout: 10_000, queueLimit: 200 });
const server = createServer((socket) => aedes.handle(socket));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${String(typeof address === 'object' && address ? address.port : 0)}\n`);
});
process.on('SIGTERM', () => {
  aedes.close(() => process.exit(0));
});
