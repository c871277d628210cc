/**
 * Live latency: devices publish (MQTT over TCP, QoS 1) to the real server's embedded broker,
 * and a console subscribed over MQTT/WebSocket with a session token receives; the time from a
 * device's publish to the console's handler, at RATE messages per second in total (default
 * 1,000: 100 devices × 10/s, 20 points each) for DURATION seconds (at least 60). The broker
 * forwards a data message once it is checked and handed to the writer (its PUBACK waits for the
 * commit), so this includes reading and checking it but not the disk. Publisher
 * and console share this process's clock; the server runs as its own process. In the same run,
 * first, the same load through the bare broker (Aedes with no hooks, bench/bare-broker.ts) to a
 * plain subscriber: the ceiling under the machine's load of the moment.
 *
 *   npm run bench:latency                     # DEVICES=100 RATE=1000 DURATION=60 POINTS=20
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import mqtt, { type MqttClient } from 'mqtt';
import { rm } from 'node:fs/promises';
import { ROOT, login, percentile, prepare, startServer, usage } from './live-server.ts';
import { MqClient } from '../apps/web/src/lib/live/mq-client.ts';

const DEVICES = Number(process.env.DEVICES ?? 100);
const RATE = Number(process.env.RATE ?? 1000);
const DURATION = Number(process.env.DURATION ?? 60);
if (DURATION < 60 && process.env.ALLOW_SHORT !== '1')
  throw new Error('DURATION must be at least 60 s (ALLOW_SHORT=1 to try it out)');
const POINTS = Number(process.env.POINTS ?? 20);

const { dataDir, groupId, devices } = await prepare(DEVICES);

/** Devices not synchronised, each from a random point of its interval; stops after DURATION. */
async function drive(clients: MqttClient[], topicOf: (i: number) => string, sentAt: Map<string, number>): Promise<number> {
  let seq = 0;
  const intervalMs = 1000 / (RATE / clients.length);
  const timers: NodeJS.Timeout[] = [];
  let running = true;
  for (const [i, client] of clients.entries()) {
    const publish = () => {
      const id = `${String(i)}-${String(seq++)}`;
      const values: Record<string, number | string> = { Time: Date.now(), Id: id };
      for (let k = 0; k < POINTS; k++) values[`P${String(k)}`] = Math.round(Math.random() * 1000) / 10;
      sentAt.set(id, performance.now());
      client.publish(topicOf(i), JSON.stringify(values), { qos: 1 });
    };
    timers.push(
      setTimeout(() => {
        if (running) timers.push(setInterval(publish, intervalMs));
      }, Math.random() * intervalMs),
    );
  }
  await new Promise((r) => setTimeout(r, DURATION * 1000));
  running = false;
  for (const t of timers) clearInterval(t);
  await new Promise((r) => setTimeout(r, 1000));
  return seq;
}

const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms   p90 ${percentile(sorted, 90).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms   max ${(sorted.at(-1) ?? NaN).toFixed(1)} ms`;
};

// The ceiling: the bare broker, same load, same machine, just before.
const bare = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bench/bare-broker.ts'], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
});
const barePort = await new Promise<number>((resolve) => {
  bare.stdout.once('data', (chunk: Buffer) => {
    resolve(Number(chunk.toString().trim()));
  });
});
const bareUrl = `mqtt://127.0.0.1:${String(barePort)}`;
const bareSent = new Map<string, number>();
const bareLatencies: number[] = [];
const bareViewer = await mqtt.connectAsync(bareUrl, { clientId: 'bench-viewer', protocolVersion: 4 });
bareViewer.on('message', (_topic, payload) => {
  const at = performance.now();
  const id = (JSON.parse(payload.toString()) as { Id?: string }).Id;
  const sent = id === undefined ? undefined : bareSent.get(id);
  if (sent === undefined || id === undefined) return;
  bareSent.delete(id);
  bareLatencies.push(at - sent);
});
await bareViewer.subscribeAsync('bare/+/data', { qos: 0 });
const bareClients = await Promise.all(
  devices.map((d) => mqtt.connectAsync(bareUrl, { clientId: d.sn, username: d.sn, password: d.secret, protocolVersion: 4 })),
);
console.log(
  `Bare broker: ${String(bareClients.length)} devices and one subscriber; ${String(RATE)} messages/s for ${String(DURATION)} s; load ${loadavg()[0]?.toFixed(2) ?? ''}`,
);
const bareSentCount = await drive(bareClients, (i) => `bare/${devices[i]?.sn ?? ''}/data`, bareSent);
await Promise.all([...bareClients, bareViewer].map((c) => c.endAsync(true)));
bare.kill('SIGTERM');

const server = await startServer(dataDir);
const token = await login(server.port);
// The console's own live client (apps/web/src/lib/live/mq-client.ts), as the browser runs it.
const viewer = new MqClient((url, options) => mqtt.connect(url, options), {
  info: () => undefined,
  warn: (m) => {
    console.warn(m);
  },
});
const sentAt = new Map<string, number>();
const latencies: number[] = [];
await viewer.subscribe(`sluice/${String(groupId)}/+/data`, (payload) => {
  const at = performance.now();
  const id = (payload as { Id?: string }).Id;
  const sent = id === undefined ? undefined : sentAt.get(id);
  if (sent === undefined || id === undefined) return;
  sentAt.delete(id);
  latencies.push(at - sent);
});
await viewer.connect({
  url: `ws://127.0.0.1:${String(server.port)}/mqtt`,
  clientId: 'bench-console',
  username: 'admin',
  password: token,
  connectTimeoutMs: 5000,
  keepaliveSeconds: 10,
  clean: true,
});

const clients = await Promise.all(
  devices.map((d) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${String(server.mqttPort)}`, {
      clientId: d.sn,
      username: d.sn,
      password: d.secret,
      protocolVersion: 4,
    }),
  ),
);
console.log(
  `${String(clients.length)} devices and one WebSocket console connected; ${String(RATE)} messages/s for ${String(DURATION)} s`,
);

console.log(`Server: load ${loadavg()[0]?.toFixed(2) ?? ''}`);
const before = await usage(server.child.pid ?? 0);
const started = performance.now();
const seq = await drive(clients, (i) => `sluice/${String(groupId)}/${devices[i]?.sn ?? ''}/data`, sentAt);
const elapsed = (performance.now() - started) / 1000 - 1;
const after = await usage(server.child.pid ?? 0);
const stats = (await (
  await fetch(`http://127.0.0.1:${String(server.port)}/api/Mqtt/Stats`, { headers: { authorization: `Bearer ${token}` } })
).json()) as { data: { Writer: Record<string, number> } };
const writer = stats.data.Writer;
viewer.end();
await Promise.all(clients.map((c) => c.endAsync(true)));
await server.stop();
await rm(dataDir, { recursive: true, force: true });

console.log(`
Live latency, device publish → console handler over WebSocket (QoS 1, SQLite, ${String(POINTS)} points per message), ${String(DURATION)} s; load ${loadavg()
  .map((l) => l.toFixed(2))
  .join(' ')} at the end:
  sent ${String(seq)} messages (${(seq / elapsed).toFixed(0)}/s), received ${String(latencies.length)}, missing ${String(sentAt.size)}
  ${summary(latencies)}
  bare broker, same load just before: sent ${String(bareSentCount)}, received ${String(bareLatencies.length)}; ${summary(bareLatencies)}
  writer: ${String(writer.batches)} commits for ${String(writer.messages)} messages, the last took ${(writer.lastCommitMs ?? 0).toFixed(1)} ms
  server: ${(((after.cpuSeconds - before.cpuSeconds) / elapsed) * 100).toFixed(0)}% CPU (of one core), peak RSS ${after.peakRssMb.toFixed(0)} MB`);
