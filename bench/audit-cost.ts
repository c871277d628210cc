/**
 * What the audit trail costs the API's write calls (issue 22; goal: at most 10 %). Two apps of
 * the same build in this process, each on a database of its own filled alike: "on" as shipped,
 * "off" with AUDIT_TRAIL=0, which leaves out everything the trail adds (the request's one
 * transaction, reading the record before and after, masking, the entry) and so runs the writes
 * as they ran before the trail. Each runs the same mix of write calls through the whole API path
 * (app.inject: routing, session and permission checks, validation, the handler, serialization;
 * no sockets, which only makes the ratio stricter): a device edited, a client edited, a client
 * added and deleted, a user's roles saved, a type's module edited, the quiet hours set, an
 * alarm raised by hand and handled, a command sent to a device. Phases alternate off-on then
 * on-off (costs drift as tables grow), ROUNDS rounds of the mix each. The figure: each kind of
 * call's median on over its median off, and the geometric mean of these ratios over the kinds
 * (every kind of write weighs the same), per pair; its median and worst over the PAIRS pairs.
 * Also printed: the ratio of the whole mix's median, mean and 99th percentile call (the median of
 * a mix of fast and slow kinds jumps between them, so it is not the goal's figure).
 *
 * VIA=http sends the same calls over HTTP to the apps listening on localhost (fetch, one
 * kept-alive connection): the write calls as a client of the API sees them, sockets and HTTP
 * parsing included.
 *
 * Fails (exit 1) when a call is refused, "on" wrote fewer entries than calls or "off" wrote any:
 * then it did not measure what it says. The 10 % goal is printed, not enforced (timings on a
 * shared machine).
 *
 *   npm run bench:audit                              # SQLite; ROUNDS=100 PAIRS=5
 *   BENCH_DATABASE_URL=postgres://… npm run bench:audit
 *   VIA=http npm run bench:audit                     # over HTTP on localhost
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildDevice, buildFullType, buildRole, buildUser, buildWarnCode, buildWarnType } from '../apps/server/test/factories.ts';
import { ADMIN, benchPgDatabase, percentile } from './live-server.ts';
import { startInProcess, type InProcessApp } from './in-process.ts';

const env = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number > 0`);
  return value;
};
const ROUNDS = env('ROUNDS', 100);
const PAIRS = env('PAIRS', 5);
const VIA = process.env.VIA === 'http' ? 'http' : 'inject';

/** A call as the app answers it: injected, or over HTTP when VIA=http (the app then listens on localhost). */
async function send(app: FastifyInstance, call: InjectOptions): Promise<{ statusCode: number; body: string }> {
  if (VIA === 'inject') {
    const res = await app.inject(call);
    return { statusCode: res.statusCode, body: res.body };
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening');
  const url = typeof call.url === 'string' ? call.url : '';
  const res = await fetch(`http://127.0.0.1:${String(address.port)}${url}`, {
    method: String(call.method),
    headers: { ...(call.headers as Record<string, string>), 'content-type': 'application/json' },
    body: call.payload === undefined ? undefined : JSON.stringify(call.payload),
  });
  return { statusCode: res.status, body: await res.text() };
}

interface Side {
  name: 'off' | 'on';
  server: InProcessApp;
  drop: (() => Promise<void>) | undefined;
  /** The write calls of one round, in order. */
  round: () => InjectOptions[];
}

/** An app with a type, a device online with a set-point, an operator, a role, a client and a warn code to write to. */
async function side(name: Side['name']): Promise<Side> {
  const pgDb = await benchPgDatabase();
  const server = await startInProcess({
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...(name === 'off' ? { AUDIT_TRAIL: '0' } : {}),
  });
  const { app } = server;
  const { db } = app.ctx;
  const g = 1;
  const type = await buildFullType(db, { groupId: g, name: 'Station' });
  const module = await db.selectFrom('type_modules').select('id').where('type_id', '=', type.id).executeTakeFirstOrThrow();
  const device = await buildDevice(app.ctx, { groupId: g, sn: 'BAUDIT000001', typeId: type.id, online: true });
  await db
    .insertInto('device_latest')
    .values({ device_sn: device.sn, group_id: g, ts: Date.now(), data: JSON.stringify({ DOSet: 2 }), updated_at: Date.now() })
    .execute();
  const operator = await buildUser(db, { groupId: g, roles: ['Operator'] });
  const engineers = await buildRole(db, { groupId: g, name: 'Engineers', operates: ['device.view'] });
  const operators = (await db.selectFrom('roles').select('id').where('name', '=', 'Operator').executeTakeFirstOrThrow()).id;
  await buildWarnCode(db, { groupId: g, warnTypeId: await buildWarnType(db, { groupId: g }), code: 'BA01' });
  const token = await login(app);
  const headers = { authorization: `Bearer ${token}` };
  const client = await app.inject({ method: 'POST', url: '/api/Client/Add', headers, payload: { ClientName: 'Kept' } });
  const clientId = client.json<{ data: { Id: number } }>().data.Id;
  let n = 0;
  const round = (): InjectOptions[] => {
    n += 1;
    const i = String(n);
    return [
      { method: 'PUT', url: `/api/${String(g)}/Device`, payload: { DeviceSn: device.sn, DeviceName: `Pump ${i}` } },
      { method: 'PUT', url: '/api/Client/Update', payload: { Id: clientId, ClientName: `Kept ${i}` } },
      { method: 'POST', url: '/api/Client/Add', payload: { ClientName: `Passing ${i}` } },
      {
        method: 'POST',
        url: '/api/UserRole/SaveUserRole',
        payload: { UserId: operator.id, RoleIds: [n % 2 ? engineers : operators] },
      },
      {
        method: 'PUT',
        url: `/api/type/${String(type.id)}/TypeModule`,
        payload: { Id: module.id, ModuleName: `Pumps ${i}`, ModuleType: '', Sn: 1 },
      },
      { method: 'PUT', url: '/api/NotifySettings/QuietHours', payload: { Enabled: n % 2 === 0, Start: '22:00', End: '06:00' } },
      { method: 'POST', url: '/api/Warn/WarnAdd', payload: { DeviceSn: device.sn, Code: 'BA01' } },
      { method: 'POST', url: `/api/${String(g)}/${device.sn}/DeviceCommand`, payload: { Key: 'DOSet', Value: 2 + (n % 5) } },
    ].map((call): InjectOptions => ({ ...call, headers }));
  };
  return { name, server, drop: pgDb ? () => pgDb.drop() : undefined, round };
}

async function login(app: FastifyInstance): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/User',
    payload: { Account: ADMIN.account, Password: ADMIN.password },
  });
  return res.json<{ data: { Token: string } }>().data.Token;
}

interface Phase {
  name: Side['name'];
  times: number[];
  /** The times by call (method and route). */
  byCall: Map<string, number[]>;
  calls: number;
  entries: number;
  load: number;
}

/** ROUNDS rounds of the mix on one side; each alarm raised is then handled (one more write, timed too). */
async function phase(s: Side): Promise<Phase> {
  const { app } = s.server;
  const entriesBefore = await countEntries(app);
  const times: number[] = [];
  const byCall = new Map<string, number[]>();
  const record = (call: InjectOptions, ms: number) => {
    const url = typeof call.url === 'string' ? call.url : '';
    const name = `${String(call.method)} ${url.replace(/\/\d+\//g, '/{g}/').replace(/BAUDIT\d+/, '{sn}')}`;
    times.push(ms);
    byCall.set(name, [...(byCall.get(name) ?? []), ms]);
  };
  let calls = 0;
  for (let r = 0; r < ROUNDS; r++) {
    for (const call of s.round()) {
      const started = performance.now();
      const res = await send(app, call);
      if (res.statusCode >= 300) throw new Error(`${JSON.stringify(call.url)} → ${String(res.statusCode)} ${res.body}`);
      // A new client is deleted again, an alarm handled: both writes, both timed.
      const data = (JSON.parse(res.body) as { data: { Id?: number } | null }).data;
      let follow: InjectOptions | undefined;
      if (call.url === '/api/Client/Add' && data?.Id)
        follow = { method: 'POST', url: '/api/Client/Delete', payload: { Id: data.Id } };
      if (call.url === '/api/Warn/WarnAdd' && data?.Id)
        follow = { method: 'PUT', url: `/api/BAUDIT000001/Warn`, payload: { Id: data.Id, Comments: 'done' } };
      record(call, performance.now() - started);
      calls += 1;
      if (follow) {
        const t0 = performance.now();
        const again = await send(app, { ...follow, headers: call.headers });
        if (again.statusCode >= 300) throw new Error(`${JSON.stringify(follow.url)} → ${String(again.statusCode)} ${again.body}`);
        record(follow, performance.now() - t0);
        calls += 1;
      }
    }
  }
  return { name: s.name, times, byCall, calls, entries: (await countEntries(app)) - entriesBefore, load: loadavg()[0] ?? 0 };
}

/** The entries in the trail (those just written moved into it first, as a read of the trail does). */
function countEntries(app: FastifyInstance): Promise<number> {
  return app.ctx.audit.count({});
}

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    median: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: times.reduce((a, b) => a + b, 0) / times.length,
  };
};
const ms = (v: number) => `${v.toFixed(2)} ms`;

const database = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'SQLite';
console.log(
  `Audit cost on ${database}, ${VIA === 'http' ? 'over HTTP' : 'injected'}: ${String(PAIRS)} pairs of phases, ${String(ROUNDS)} rounds of the write mix each`,
);
const off = await side('off');
const on = await side('on');
if (VIA === 'http') for (const s of [off, on]) await s.server.app.listen({ port: 0, host: '127.0.0.1' });
// One warm-up round each (JIT, caches), not measured.
for (const s of [off, on]) for (const call of s.round()) await send(s.server.app, call);

let failed = false;
/** Each call's median on and off, over every phase. */
const perCall = { off: new Map<string, number[]>(), on: new Map<string, number[]>() };
const ratios: { byKind: number; median: number; mean: number; p99: number }[] = [];
/** The geometric mean over the kinds of call of each kind's median on / median off. */
function byKindRatio(off: Map<string, number[]>, on: Map<string, number[]>): number {
  const logs = [...off].map(([call, list]) => Math.log(stats(on.get(call) ?? []).median / stats(list).median));
  return Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length);
}
for (let p = 0; p < PAIRS; p++) {
  const order = p % 2 === 0 ? [off, on] : [on, off];
  const results: Phase[] = [];
  for (const s of order) results.push(await phase(s));
  const byName = Object.fromEntries(results.map((r) => [r.name, r])) as Record<Side['name'], Phase>;
  for (const r of results)
    for (const [call, list] of r.byCall) perCall[r.name].set(call, [...(perCall[r.name].get(call) ?? []), ...list]);
  const a = stats(byName.off.times);
  const b = stats(byName.on.times);
  for (const r of results) {
    const s = stats(r.times);
    console.log(
      `  pair ${String(p + 1)} ${r.name.padEnd(3)}: ${String(r.calls)} calls, median ${ms(s.median)}, p99 ${ms(s.p99)}, mean ${ms(s.mean)}; ${String(r.entries)} entries; load ${r.load.toFixed(1)}`,
    );
  }
  if (byName.on.entries < byName.on.calls || byName.off.entries !== 0) {
    console.error(
      `  pair ${String(p + 1)}: "on" wrote ${String(byName.on.entries)} entries for ${String(byName.on.calls)} calls, "off" ${String(byName.off.entries)}`,
    );
    failed = true;
  }
  ratios.push({
    byKind: byKindRatio(byName.off.byCall, byName.on.byCall),
    median: b.median / a.median,
    mean: b.mean / a.mean,
    p99: b.p99 / a.p99,
  });
  console.log(`  pair ${String(p + 1)}: by kind of call ×${(ratios.at(-1)?.byKind ?? NaN).toFixed(3)}`);
}

const summary = (key: 'byKind' | 'median' | 'mean' | 'p99') => {
  const values = ratios.map((r) => r[key]).sort((x, y) => x - y);
  return { median: percentile(values, 50), worst: values.at(-1) ?? NaN };
};
for (const key of ['median', 'mean', 'p99'] as const) {
  const s = summary(key);
  console.log(`on/off of the whole mix's ${key} call: median of pairs ×${s.median.toFixed(3)}, worst ×${s.worst.toFixed(3)}`);
}
console.log('Median by call (off → on):');
for (const [call, list] of perCall.off) {
  const a = stats(list).median;
  const b = stats(perCall.on.get(call) ?? []).median;
  console.log(`  ${call.padEnd(44)} ${ms(a)} → ${ms(b)} (×${(b / a).toFixed(2)})`);
}
const kinds = summary('byKind');
const goal = kinds.median;
console.log(
  `Goal (≤ ×1.10 by kind of call, median of pairs): ${goal <= 1.1 ? 'met' : 'missed'} (×${goal.toFixed(3)}, worst pair ×${kinds.worst.toFixed(3)}); load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);

for (const s of [off, on]) {
  await s.server.close();
  await s.drop?.();
}
if (failed) process.exit(1);
