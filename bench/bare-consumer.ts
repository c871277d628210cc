/**
 * The ceiling of the external broker for bench/instances.ts: what the servers do at MQTT_URL with
 * nothing behind it — CONNECTIONS clients (default 4, as a server has) subscribe to every
 * device's data through the shared subscription with QoS 1 and acknowledge each message at once.
 * Sends { received } to its parent (IPC) once a second and exits on SIGTERM.
 */
import mqtt from 'mqtt';

const url = process.env.MQTT_URL ?? '';
const connections = Number(process.env.CONNECTIONS ?? 4);
let received = 0;
const clients = await Promise.all(
  Array.from({ length: connections }, (_, i) =>
    mqtt.connectAsync(url, { clientId: `bare-consumer-${String(i)}`, clean: true, protocolVersion: 4, reconnectPeriod: 0 }),
  ),
);
for (const client of clients) {
  client.on('message', () => {
    received += 1;
  });
  await client.subscribeAsync('$share/bare/sluice/+/+/data', { qos: 1 });
}
process.send?.({ ready: true, received });
setInterval(() => process.send?.({ received }), 1000).unref();
process.on('SIGTERM', () => {
  process.send?.({ received });
  void Promise.all(clients.map((c) => c.endAsync(true))).then(() => process.exit(0));
});
