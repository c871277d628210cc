/**
 * A fleet's load in its own process, so that it does not slow the process that measures: the
 * devices of the JSON file FLEET_FILE ([{ sn, secret }]) connect to MQTT_URL and each publishes
 * POINTS points every INTERVAL_MS from a random phase (QoS 1) under sluice/GROUP/{sn}/data.
 * Prints 'ready' once connected; on SIGTERM prints '{ published, acknowledged }' and exits.
 */
import { readFile } from 'node:fs/promises';
import mqtt, { type MqttClient } from 'mqtt';

const devices = JSON.parse(await readFile(process.env.FLEET_FILE ?? '', 'utf8')) as { sn: string; secret: string }[];
const url = process.env.MQTT_URL ?? '';
const group = process.env.GROUP ?? '';
const points = Number(process.env.POINTS ?? 20);
const intervalMs = Number(process.env.INTERVAL_MS ?? 1000);

const clients: MqttClient[] = [];
for (let i = 0; i < devices.length; i += 100) {
  clients.push(
    ...(await Promise.all(
      devices
        .slice(i, i + 100)
        .map((d) => mqtt.connectAsync(url, { clientId: d.sn, username: d.sn, password: d.secret, protocolVersion: 4 })),
    )),
  );
}
let published = 0;
let acknowledged = 0;
const timers: NodeJS.Timeout[] = [];
for (const [i, client] of clients.entries()) {
  const topic = `sluice/${group}/${devices[i]?.sn ?? ''}/data`;
  const publish = () => {
    const values: Record<string, number> = { Time: Date.now() };
    for (let k = 0; k < points; k++) values[`P${String(k)}`] = Math.round(Math.random() * 1000) / 10;
    published += 1;
    client.publish(topic, JSON.stringify(values), { qos: 1 }, (error) => {
      if (!error) acknowledged += 1;
    });
  };
  timers.push(
    setTimeout(() => {
      timers.push(setInterval(publish, intervalMs));
    }, Math.random() * intervalMs),
  );
}
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  for (const t of timers) clearInterval(t);
  process.stdout.write(`${JSON.stringify({ published, acknowledged })}\n`);
  void Promise.all(clients.map((c) => c.endAsync(true))).then(() => process.exit(0));
});
