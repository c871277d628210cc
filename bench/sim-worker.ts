/**
 * One process of simulated stations for bench/connections.ts: the simulator's fleet
 * (apps/simulator) drives the devices of the JSON file FLEET_FILE ([{ sn, secret }]) of group
 * GROUP against MQTT_URL, each publishing its station's values every INTERVAL_MS with a random
 * phase (QoS 1), its connections leaving from LOCAL_ADDRESS. Sends the fleet's counters and its
 * own longest event-loop delay of the second to its parent (IPC) once a second; stops its devices
 * on SIGTERM.
 */
import { readFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Fleet } from '../apps/simulator/src/fleet.ts';

const devices = JSON.parse(await readFile(process.env.FLEET_FILE ?? '', 'utf8')) as { sn: string; secret: string }[];
const groupId = Number(process.env.GROUP);
const fleet = Fleet.create({
  url: process.env.MQTT_URL ?? '',
  devices: devices.map((d, i) => ({ deviceSn: d.sn, secret: d.secret, groupId, station: String(Math.floor(i / 4)) })),
  intervalMs: Number(process.env.INTERVAL_MS ?? 10_000),
  qos: 1,
  ...(process.env.LOCAL_ADDRESS ? { localAddress: process.env.LOCAL_ADDRESS } : {}),
  log: () => undefined,
});
// How late this process's own loop ran: a late simulator sends its pings late, and the broker drops it.
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
setInterval(() => {
  process.send?.({ stats: fleet.stats, stallMs: loop.max / 1e6 });
  loop.reset();
}, 1000).unref();
await fleet.connectAll();
process.on('SIGTERM', () => {
  // Devices reconnecting may never end cleanly: at most 10 s.
  void Promise.race([fleet.stop().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 10_000))]).then(() =>
    process.exit(0),
  );
});
