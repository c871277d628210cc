/**
 * What alarm evaluation costs ingestion. Two groups of the same app, each with DEVICES devices
 * of the same station type (POINTS data points): in group "on", a fault flag and COD_Out are
 * linked to warn codes (COD_Out with a type standard ≤ 50) and a notification rule covers them,
 * so every data message is evaluated (the linked keys' active alarms read, alarms opened and
 * cleared as flags flip and COD_Out spikes, their deliveries queued); group "off" has no links,
 * which is the state of a group that configured no alarms. Both fleets go through the real
 * ingestion path (app.live.ingestion.handle: parsing, checks, the writer's commit, online state,
 * alarms), fleet-shaped: one message per device every INTERVAL seconds at a random phase, with
 * the current time. The phases alternate PAIRS times, off-on then on-off (the cost drifts as the
 * tables grow), DURATION seconds each (≥ 60), so both see the same machine; the figure is the process CPU time per message (this process runs
 * only the app and the schedule) and the handling latency p50/p99. MQTT framing is left out,
 * which only makes the ratio stricter (the same cost added to both sides).
 *
 * Fails (exit 1) when a phase handled fewer than 95 % of its scheduled messages, a message
 * failed, or the "on" phases opened no alarm: then it did not measure what it says.
 *
 *   npm run bench:alarm-cost               # DEVICES=1000 POINTS=20 INTERVAL=5 DURATION=60 PAIRS=2
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildSites, buildTenant, buildType, buildWarnCode, buildWarnType } from '../apps/server/test/factories.ts';
import { benchPgDatabase, percentile } from './live-server.ts';
import { startInProcess } from './in-process.ts';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number > 0`);
  return value;
};
const DEVICES = env('DEVICES', 1000);
const POINTS = env('POINTS', 20);
const INTERVAL = env('INTERVAL', 5);
const DURATION = env('DURATION', 60);
const PAIRS = env('PAIRS', 2);

// With BENCH_DATABASE_URL, a scratch database of its own on that server, dropped at the end.
const pgDb = await benchPgDatabase();
const server = await startInProcess(pgDb ? { DATABASE_URL: pgDb.url } : {});
const { app } = server;
const { db } = app.ctx;

const measurements = Array.from({ length: POINTS - 2 }, (_, i) => `M${String(i).padStart(2, '0')}`);
interface Fleet {
  name: 'off' | 'on';
  groupId: number;
  sns: string[];
}

/** A group with the station type and DEVICES devices; with alarms linked and a rule when `alarms`. */
async function fleet(name: Fleet['name'], alarms: boolean): Promise<Fleet> {
  const { groupId } = await buildTenant(db, { groupName: `Bench ${name}` });
  const type = await buildType(db, {
    groupId,
    name: 'Station',
    points: [{ key: 'COD_Out' }, { key: 'PumpFault', type: 'boolean' }, ...measurements.map((key) => ({ key }))],
    ...(alarms ? { standards: { COD_Out: '50' } } : {}),
  });
  if (alarms) {
    const fault = await buildWarnType(db, { groupId, name: 'Fault' });
    await buildWarnCode(db, { groupId, warnTypeId: fault, code: 'E101', description: 'Pump fault', dataKey: 'PumpFault' });
    await buildWarnCode(db, { groupId, warnTypeId: fault, code: 'A201', description: 'COD over standard', dataKey: 'COD_Out' });
    // A rule with a webhook nobody listens on: deliveries are queued (the job is not started here).
    const { id: channel } = await db
      .insertInto('notify_channels')
      .values({
        group_id: groupId,
        name: 'Hook',
        kind: 'webhook',
        url: 'http://127.0.0.1:9/',
        secret: app.ctx.secrets.seal('x'.repeat(16)),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('notify_rules').values({ group_id: groupId, name: 'All', channel_id: channel }).execute();
  }
  const sns = Array.from({ length: DEVICES }, (_, i) => `BA${name === 'on' ? '1' : '0'}${String(i).padStart(7, '0')}`);
  await buildSites(app.ctx, {
    groupId,
    tree: {
      projects: [{ name: 'Project', stations: [{ name: 'Station', devices: sns.map((sn) => ({ sn, typeId: type.id })) }] }],
    },
  });
  return { name, groupId, sns };
}

console.log(`Preparing 2 × ${String(DEVICES)} devices…`);
const fleets = [await fleet('off', false), await fleet('on', true)];

// Each device's fault flag flips now and then; COD_Out spikes over its standard now and then.
const faulty = new Map<string, boolean>();
function payload(sn: string, now: number): Buffer {
  if (Math.random() < 0.004) faulty.set(sn, !faulty.get(sn));
  const values: Record<string, number> = {
    Time: now,
    COD_Out: Math.random() < 0.002 ? 60 : 20 + Math.random() * 20,
    PumpFault: faulty.get(sn) ? 1 : 0,
  };
  for (const key of measurements) values[key] = Math.round(Math.random() * 10_000) / 100;
  return Buffer.from(JSON.stringify(values));
}

interface PhaseResult {
  name: Fleet['name'];
  scheduled: number;
  handled: number;
  failed: number;
  cpuMsPerMessage: number;
  p50: number;
  p99: number;
}

/** One fleet for DURATION seconds: each device's message at its phase, every INTERVAL seconds. */
async function phase(f: Fleet, seconds = DURATION): Promise<PhaseResult> {
  const phases = f.sns.map((sn) => ({ sn, at: Math.random() * INTERVAL * 1000 })).sort((a, b) => a.at - b.at);
  const latencies: number[] = [];
  let scheduled = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let round = 0;
  let next = 0;
  while (performance.now() - start < seconds * 1000) {
    const elapsed = performance.now() - start;
    while (next < phases.length) {
      const p = phases[next];
      if (!p || round * INTERVAL * 1000 + p.at > elapsed) break;
      scheduled += 1;
      const t0 = performance.now();
      const work = app.live.ingestion
        .handle({
          address: { kind: 'data', deviceSn: p.sn, groupId: f.groupId },
          payload: payload(p.sn, Date.now()),
          retained: false,
        })
        .then((outcome) => {
          latencies.push(performance.now() - t0);
          if (!outcome.ok) failed += 1;
        });
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
      next += 1;
    }
    if (next >= phases.length) {
      next = 0;
      round += 1;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await Promise.all(inFlight);
  await app.ctx.notifications.queued();
  const cpu = process.cpuUsage(cpu0);
  latencies.sort((a, b) => a - b);
  return {
    name: f.name,
    scheduled,
    handled: latencies.length,
    failed,
    cpuMsPerMessage: (cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);
// Warm-up (JIT, caches, the database's pages), not counted.
for (const f of fleets) await phase(f, 10);

const results: PhaseResult[] = [];
const loads: number[] = [];
// Off-on, then on-off, and so on: the cost per message drifts as the tables grow, and this order
// gives the drift to neither side.
for (let pair = 0; pair < PAIRS; pair++) {
  for (const f of pair % 2 === 0 ? fleets : [...fleets].reverse()) {
    loads.push(loadavg()[0] ?? 0);
    const r = await phase(f);
    results.push(r);
    console.log(
      `  ${f.name.padEnd(3)}: ${String(r.handled)} messages, ${fmt(r.cpuMsPerMessage, 3)} ms CPU each, handled in p50 ${fmt(r.p50)} ms / p99 ${fmt(r.p99)} ms${r.failed ? `, ${String(r.failed)} FAILED` : ''}`,
    );
  }
}
const opened = await db
  .selectFrom('warns')
  .select((eb) => eb.fn.countAll<number | string>().as('n'))
  .where('group_id', '=', fleets[1]?.groupId ?? 0)
  .executeTakeFirstOrThrow();
const queued = await db
  .selectFrom('notify_deliveries')
  .select((eb) => eb.fn.countAll<number | string>().as('n'))
  .executeTakeFirstOrThrow();
await server.close();
await pgDb?.drop();

const ratios = Array.from({ length: PAIRS }, (_, i) => {
  const pair = results.slice(i * 2, i * 2 + 2);
  const off = pair.find((r) => r.name === 'off');
  const on = pair.find((r) => r.name === 'on');
  return off && on ? on.cpuMsPerMessage / off.cpuMsPerMessage - 1 : NaN;
}).sort((a, b) => a - b);
const median = ratios[Math.floor((ratios.length - 1) / 2)] ?? NaN;
const medianOf = (name: Fleet['name']) => {
  const values = results
    .filter((r) => r.name === name)
    .map((r) => r.cpuMsPerMessage)
    .sort((a, b) => a - b);
  return values.length % 2 === 1
    ? (values[(values.length - 1) / 2] ?? NaN)
    : ((values[values.length / 2 - 1] ?? NaN) + (values[values.length / 2] ?? NaN)) / 2;
};
const arms = medianOf('on') / medianOf('off') - 1;
const worst = ratios.at(-1) ?? NaN;
console.log(`
Alarm evaluation on ingestion, ${pgDb ? 'PostgreSQL' : 'SQLite'}: ${String(DEVICES)} devices per group × ${String(POINTS)} points every ${String(INTERVAL)} s, ${String(PAIRS)} × (${String(DURATION)} s off, ${String(DURATION)} s on)
  alarms opened in the "on" group: ${String(opened.n)}; deliveries queued: ${String(queued.n)}
  CPU per message, on vs off: pairs' median ${fmt(median * 100, 1)} %, worst pair ${fmt(worst * 100, 1)} %; arms' medians ${fmt(medianOf('off'), 3)} → ${fmt(medianOf('on'), 3)} ms (${fmt(arms * 100, 1)} %) (budget +10 %)
  load average at the phases' starts: ${loads.map((l) => fmt(l, 1)).join(', ')}`);

const short = results.filter((r) => r.handled < r.scheduled * 0.95 || r.handled < ((DEVICES * DURATION) / INTERVAL) * 0.95);
const broken = results.filter((r) => r.failed > 0);
if (short.length > 0 || broken.length > 0 || Number(opened.n) === 0) {
  console.error('Did not measure what it says: phases short of their schedule, failed messages, or no alarm opened.');
  process.exit(1);
}
