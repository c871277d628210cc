/**
 * A console watching live data while a fleet runs, in its own process (so that the load
 * generator's busy event loop does not count in what it measures): subscribed to TOPIC, it
 * times each data message from its `Time` (the device's Date.now() when it published; one
 * machine, one clock) to its handler. With WS_URL and TOKEN it is the console's own live client
 * (apps/web/src/lib/live/mq-client.ts, MQTT over WebSocket with a session token, as the browser
 * runs it); with MQTT_URL a plain mqtt.js client (the bare broker's ceiling). Prints 'ready' once
 * subscribed; given a line '{ "from": …, "to": … }' (Date.now()) on stdin, prints
 * '{ received, p50, p90, p99, max }' (ms) of the messages the devices sent in that window and
 * exits (on SIGTERM, the same of every message).
 */
import { createInterface } from 'node:readline';
import mqtt from 'mqtt';
import { MqClient } from '../apps/web/src/lib/live/mq-client.ts';

const topic = process.env.TOPIC ?? '';
const sentAt: number[] = [];
const latencies: number[] = [];
const onData = (payload: unknown) => {
  const sent = (payload as { Time?: unknown } | null)?.Time;
  if (typeof sent !== 'number') return;
  sentAt.push(sent);
  latencies.push(Date.now() - sent);
};

let stop: () => void;
if (process.env.WS_URL) {
  const viewer = new MqClient((url, options) => mqtt.connect(url, options), {
    info: () => undefined,
    warn: (m) => {
      console.warn(m);
    },
  });
  await viewer.subscribe(topic, onData);
  await viewer.connect({
    url: process.env.WS_URL,
    clientId: `bench-console-${String(process.pid)}`,
    username: 'admin',
    password: process.env.TOKEN ?? '',
    connectTimeoutMs: 10_000,
    keepaliveSeconds: 30,
    clean: true,
  });
  stop = () => {
    viewer.end();
  };
} else {
  const viewer = await mqtt.connectAsync(process.env.MQTT_URL ?? '', { protocolVersion: 4, keepalive: 30 });
  viewer.on('message', (_topic, payload) => {
    onData(JSON.parse(payload.toString()));
  });
  await viewer.subscribeAsync(topic, { qos: 0 });
  stop = () => {
    viewer.end(true);
  };
}
process.stdout.write('ready\n');
const report = (window = { from: -Infinity, to: Infinity }) => {
  stop();
  const sorted = latencies
    .filter((_, i) => (sentAt[i] ?? 0) >= window.from && (sentAt[i] ?? 0) < window.to)
    .sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? null;
  process.stdout.write(
    `${JSON.stringify({ received: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted.at(-1) ?? null })}\n`,
  );
  process.exit(0);
};
createInterface({ input: process.stdin }).once('line', (line) => {
  report(JSON.parse(line) as { from: number; to: number });
});
process.on('SIGTERM', () => {
  report();
});
