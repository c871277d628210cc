/**
 * Ingest rate: 1,000 simulated devices publish data messages of 50 points each, QoS 1, through
 * the embedded broker (MQTT over TCP) into the embedded database (SQLite; PostgreSQL with
 * BENCH_DATABASE_URL), for DURATION seconds. Each device keeps WINDOW messages in flight, so
 * the server sets the pace: a saturation rate, flattering (messages in flight share their
 * roll-up upserts; bench/fleet.ts measures a fleet's shape). At the end every acknowledged
 * point must be in the database, and the run fails when messages are still in flight, publishes
 * failed or devices were disconnected.
 * Prints points per second, the server's CPU and memory, and what was lost (nothing, or it fails).
 *
 *   npm run bench:ingest                      # DEVICES=1000 POINTS=50 WINDOW=4 DURATION=30
 */
import mqtt, { type MqttClient } from 'mqtt';
import { DatabaseSync } from 'node:sqlite';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { benchPgDatabase, prepare, startServer, usage } from './live-server.ts';

const DEVICES = Number(process.env.DEVICES ?? 1000);
const POINTS = Number(process.env.POINTS ?? 50);
const WINDOW = Number(process.env.WINDOW ?? 4);
const DURATION = Number(process.env.DURATION ?? 30);
const pgDb = await benchPgDatabase();

console.log(`Preparing ${String(DEVICES)} devices on ${pgDb ? 'PostgreSQL' : 'SQLite'}…`);
const { dataDir, groupId, devices } = await prepare(DEVICES, pgDb?.url);
const server = await startServer(dataDir, pgDb ? { DATABASE_URL: pgDb.url } : {});
const url = `mqtt://127.0.0.1:${String(server.mqttPort)}`;

const keys = Array.from({ length: POINTS }, (_, i) => `P${String(i).padStart(2, '0')}`);
let acked = 0;
let failed = 0;
let sent = 0;
let running = true;
/** Each client with its own device: it publishes on that device's topic only. */
const clients: { client: MqttClient; sn: string }[] = [];

const connectAll = async () => {
  for (let i = 0; i < devices.length; i += 100) {
    await Promise.all(
      devices.slice(i, i + 100).map(async (d) => {
        const client = await mqtt.connectAsync(url, {
          clientId: d.sn,
          username: d.sn,
          password: d.secret,
          protocolVersion: 4,
          reconnectPeriod: 0,
          keepalive: 60,
        });
        client.on('error', () => undefined);
        clients.push({ client, sn: d.sn });
      }),
    );
  }
};

console.log('Connecting…');
await connectAll();
console.log(
  `${String(clients.length)} devices connected; publishing ${String(POINTS)} points per message, ${String(WINDOW)} in flight per device, for ${String(DURATION)} s`,
);

// Each device: publish; on each PUBACK publish the next, keeping WINDOW in flight.
let clock = Date.now() - DURATION * 1000 - 60_000;
const publishOne = (client: MqttClient, topic: string) => {
  if (!running) return;
  const values: Record<string, number> = { Time: clock++ };
  for (const key of keys) values[key] = Math.round(Math.random() * 10_000) / 100;
  sent += 1;
  client.publish(topic, JSON.stringify(values), { qos: 1 }, (error) => {
    if (error) failed += 1;
    else acked += 1;
    publishOne(client, topic);
  });
};

const before = await usage(server.child.pid ?? 0);
const started = performance.now();
for (const { client, sn } of clients) {
  const topic = `sluice/${String(groupId)}/${sn}/data`;
  for (let w = 0; w < WINDOW; w++) publishOne(client, topic);
}
const samples: number[] = [];
let last = 0;
const ticker = setInterval(() => {
  samples.push((acked - last) * POINTS);
  last = acked;
  process.stdout.write(`  ${String(samples.length).padStart(3)} s: ${(samples.at(-1) ?? 0).toLocaleString('en-US')} points/s\n`);
}, 1000);
await new Promise((r) => setTimeout(r, DURATION * 1000));
running = false;
clearInterval(ticker);
const elapsed = (performance.now() - started) / 1000;
const after = await usage(server.child.pid ?? 0);
// Let the last messages in flight be acknowledged.
for (let i = 0; i < 600 && acked + failed < sent; i++) await new Promise((r) => setTimeout(r, 100));
const inFlight = sent - acked - failed;
const disconnected = clients.filter(({ client }) => !client.connected).length;
await Promise.all(clients.map(({ client }) => client.endAsync(true)));
await server.stop();

let stored: number;
if (pgDb) {
  const client = new pg.Client({ connectionString: pgDb.url });
  await client.connect();
  stored = Number((await client.query<{ n: string }>('select count(*) as n from telemetry_raw')).rows[0]?.n ?? 0);
  await client.end();
} else {
  const db = new DatabaseSync(path.join(dataDir, 'sluice.db'), { readOnly: true });
  stored = (db.prepare('select count(*) as n from telemetry_raw').get() as { n: number }).n;
  db.close();
}

const rate = (acked * POINTS) / elapsed;
const steady = samples.slice(3);
const cpu = ((after.cpuSeconds - before.cpuSeconds) / elapsed) * 100;
console.log(`
Ingest, ${pgDb ? 'PostgreSQL' : 'SQLite'}: ${String(DEVICES)} devices × ${String(POINTS)} points per message, QoS 1, ${elapsed.toFixed(1)} s
  acknowledged: ${acked.toLocaleString('en-US')} messages = ${(acked * POINTS).toLocaleString('en-US')} points; ${String(failed)} failed, ${String(inFlight)} still in flight 60 s after the run, ${String(disconnected)} devices disconnected
  stored:       ${stored.toLocaleString('en-US')} points${stored >= acked * POINTS ? ' — every acknowledged point is stored' : ` — LOST ${String(acked * POINTS - stored)}`}
  rate:         ${Math.round(rate).toLocaleString('en-US')} points/s overall, ${Math.round(steady.reduce((a, b) => a + b, 0) / Math.max(1, steady.length)).toLocaleString('en-US')} points/s after the first 3 s (min ${Math.round(Math.min(...steady)).toLocaleString('en-US')})
  server:       ${cpu.toFixed(0)}% CPU (of one core), peak RSS ${after.peakRssMb.toFixed(0)} MB`);

await pgDb?.drop();
await rm(dataDir, { recursive: true, force: true });
if (stored < acked * POINTS || inFlight > 0 || failed > 0 || disconnected > 0) {
  console.log('FAILED: lost points, messages left in flight, or devices disconnected: this run did not measure what it says');
  process.exit(1);
}
