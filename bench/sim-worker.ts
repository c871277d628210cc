/**
 * One process of simulated stations for bench/connections.ts: the simulator's fleet
 * (apps/simulator) drives the devices of the JSON file FLEET_FILE ([{ sn, secret }]) of group
 * GROUP against MQTT_URL, each publishing its station's values every INTERVAL_MS with a random
 * phase (QoS 1), its connections leaving from LOCAL_ADDRESS. Sends the fleet's counters to its
 * parent (IPC) once a second; stops its devices on SIGTERM.
 */
import { readFile } from 'node:fs/promises';
import { Fleet } from '../apps/simulator/src/fleet.ts';

const devices = JSON.parse(await readFile(process.env.FLEET_FILE ?? '', 'utf8')) as { sn: string; secret: string }[];
const groupId = Number(process.env.GROUP);
const fleet = await Fleet.start({
  url: process.env.MQTT_URL ?? '',
  devices: devices.map((d, i) => ({ deviceSn: d.sn, secret: d.secret, groupId, station: String(Math.floor(i / 4)) })),
  intervalMs: Number(process.env.INTERVAL_MS ?? 10_000),
  qos: 1,
  ...(process.env.LOCAL_ADDRESS ? { localAddress: process.env.LOCAL_ADDRESS } : {}),
  log: () => undefined,
});
process.send?.({ started: true, stats: fleet.stats });
setInterval(() => process.send?.({ stats: fleet.stats }), 1000).unref();
process.on('SIGTERM', () => {
  void fleet
    .stop()
    .catch(() => undefined)
    .then(() => process.exit(0));
});
