/**
 * The live-data pipeline against the embedded broker: devices publish over MQTT/TCP, consoles
 * receive over MQTT/WebSocket with their session token, history, latest values and roll-ups
 * are written, and the ACLs keep devices and users to what is theirs.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MqttClient } from 'mqtt';
import { ADMIN, OPERATOR, createTestApp, databaseKinds, type Body, type TestApp } from './harness.ts';
import { closed, connect, connectRefused, inbox, subscribeQos, waitFor } from './mqtt-helpers.ts';
import { createTenant } from '../src/modules/groups/tenancy.service.ts';
import { hashDeviceSecret } from '../src/modules/devices/device-credentials.ts';
import { newDeviceRow } from '../src/modules/devices/devices.repository.ts';
import { OnlineRepository } from '../src/modules/online/online.repository.ts';
import {
  buildDevice,
  buildLibrary,
  buildSites,
  buildType,
  buildWarnCode,
  buildWarnType,
  defaultRole,
  type BuiltSites,
} from './factories.ts';

const SN = 'SL0000000101';
const SN2 = 'SL0000000103';
/** An analyser whose type holds a COD standard, for the alarms. */
const ANALYSER = 'SL0000000105';

/**
 * Group 1's equipment: a library, warn codes linked to its fault flags and COD, types of lift
 * pump, blower, analyser and dosing pump, and one station the operator's role reaches.
 */
async function buildEquipment(t: TestApp, groupId: number): Promise<BuiltSites> {
  const db = t.app.ctx.db;
  const enumOf = '{"0":"manual","1":"auto","2":"self-check"}';
  const ids = await buildLibrary(db, groupId, [
    { key: 'Inflow', type: 'readable', unit: 'm3/H', format: '2' },
    { key: 'TankLevel', type: 'readable', unit: 'm', format: '2' },
    { key: 'LiftPump1Run', type: 'boolean' },
    { key: 'LiftPump1Fault', type: 'boolean' },
    { key: 'ControlMode', type: 'enum', format: enumOf, defaultValue: '1' },
    { key: 'Energy', type: 'readable', unit: 'kWh' },
    { key: 'COD_Out', type: 'readable', unit: 'mg/L' },
    { key: 'AnalyserFault', type: 'boolean' },
    { key: 'DosingRate', type: 'textbox', unit: 'HZ', format: '{"Min":0,"Max":50}' },
  ]);
  const id = (key: string) => ids.get(key) ?? 0;
  const fault = await buildWarnType(db, { groupId, name: '故障 Fault' });
  const alarm = await buildWarnType(db, { groupId, name: '报警 Alarm' });
  await buildWarnCode(db, {
    groupId,
    warnTypeId: fault,
    code: 'E101',
    description: 'Lift pump 1 fault',
    dataKey: 'LiftPump1Fault',
  });
  await buildWarnCode(db, { groupId, warnTypeId: fault, code: 'E401', description: 'Analyser fault', dataKey: 'AnalyserFault' });
  await buildWarnCode(db, {
    groupId,
    warnTypeId: alarm,
    code: 'A201',
    description: 'Effluent COD over the standard',
    dataKey: 'COD_Out',
  });
  const pump = await buildType(db, {
    groupId,
    name: '提升泵 Lift pump',
    points: ['Inflow', 'TankLevel', 'LiftPump1Run', 'LiftPump1Fault', 'ControlMode'].map(id),
  });
  const blower = await buildType(db, { groupId, name: '曝气风机 Blower', points: ['Energy', 'ControlMode'].map(id) });
  const analyser = await buildType(db, {
    groupId,
    name: '在线监测仪 Online analyser',
    points: ['COD_Out', 'AnalyserFault'].map(id),
    standards: { COD_Out: '50' },
  });
  await buildType(db, { groupId, name: '加药泵 Dosing pump', points: ['DosingRate', 'ControlMode'].map(id) });
  return buildSites(t.app.ctx, {
    groupId,
    tree: {
      projects: [
        {
          name: '青山镇 Qingshan Town',
          stations: [
            {
              name: '青山一站 Qingshan No. 1',
              devices: [
                { sn: SN, name: '1# 提升泵 Lift pump 1', online: true, typeId: pump.id },
                { sn: SN2, name: '曝气风机 Blower', online: true, typeId: blower.id },
                { sn: 'SL0000000104', name: '出水在线监测仪 Effluent analyser', online: true, typeId: analyser.id },
                { sn: ANALYSER, name: '2# 在线监测仪 Analyser 2', online: true, typeId: analyser.id },
                { sn: 'SL0000000401', name: '提升泵 Lift pump', online: true, typeId: pump.id },
              ],
            },
          ],
        },
      ],
    },
    roles: [{ roleId: await defaultRole(db, groupId, 'Operator') }],
  });
}
const HOOK_SECRET = 'hook-secret-0123456789';

describe.each(databaseKinds)('live data on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let g: number;
  let otherG: number;
  let tcp: string;
  let ws: string;
  const clients: MqttClient[] = [];
  let equipment: BuiltSites;
  const secretOf = (sn: string) => equipment.devices.get(sn)?.secret ?? '';

  const device = async (sn = SN, extra: Parameters<typeof connect>[1] = {}) => {
    const c = await connect(tcp, { clientId: sn, username: sn, password: secretOf(sn), ...extra });
    clients.push(c);
    return c;
  };
  const consoleClient = async (token: string, account = ADMIN.account) => {
    const c = await connect(ws, {
      clientId: `console-${Math.random().toString(16).slice(2, 10)}`,
      username: account,
      password: token,
      reconnectPeriod: 200,
    });
    clients.push(c);
    return c;
  };
  const topic = (kindName: string, sn = SN, group = g) => `sluice/${String(group)}/${sn}/${kindName}`;
  const stats = async () =>
    (
      await t.json<{
        Ingestion: { refused: number; refusedValues: number };
        Refused: { refusedPublishes: number; refusedConnections: number };
      }>({ method: 'GET', url: '/api/Mqtt/Stats', token: admin })
    ).data;

  beforeAll(async () => {
    t = await createTestApp(kind, { MQTT_PORT: '0', HOST: '127.0.0.1', DEVICE_TIMEOUT: '10', MQTT_HOOK_SECRET: HOOK_SECRET });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    tcp = `mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`;
    ws = `${address.replace('http', 'ws')}/mqtt`;
    const users = await t.signInUsers();
    ({ admin, operator } = users);
    otherG = users.other.groupId;
    g = (await t.json<{ GroupId: number }>({ method: 'GET', url: '/api/user/myinfo', token: admin })).data.GroupId;
    equipment = await buildEquipment(t, g);
    await t.app.ctx.db
      .insertInto('devices')
      .values([
        newDeviceRow({
          group_id: otherG,
          device_sn: 'SLB000000001',
          device_name: 'Other group pump',
          secret_hash: hashDeviceSecret('other-secret'),
        }),
        newDeviceRow({
          group_id: g,
          device_sn: 'SLA0000UNASG',
          device_name: 'Unassigned',
          secret_hash: hashDeviceSecret('unassigned-secret'),
        }),
      ])
      .execute();
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await t.close();
  });

  it('takes a device’s data to a console over WebSocket and into history, latest values and roll-ups', async () => {
    const viewer = await consoleClient(admin);
    const received = inbox(viewer);
    expect(await subscribeQos(viewer, `sluice/${String(g)}/+/data`)).toBe(0);
    const pump = await device();
    const base = Date.now() - 60_000;
    for (let i = 0; i < 5; i++) {
      await pump.publishAsync(
        topic('data'),
        JSON.stringify({ Time: base + i * 10_000, Inflow: 10 + i, LiftPump1Run: i % 2, Note: `t${String(i)}` }),
        { qos: 1 },
      );
    }
    await waitFor(() => received.length >= 5, 'five messages on the console');
    expect(JSON.parse(received[0]?.payload ?? '{}')).toMatchObject({ Inflow: 10 });

    const his = await t.json<{
      Source: string;
      Series: { Key: string; Points: [number, number][]; Count: number; Defined: boolean }[];
    }>({
      method: 'GET',
      url: `/api/${String(g)}/${SN}/DeviceHisData?BeginTime=${String(base - 1)}&EndTime=${String(Date.now() + 1)}&Keys=Inflow,Note`,
      token: admin,
    });
    expect(his.success).toBe(true);
    expect(his.data.Source).toBe('raw');
    const inflow = his.data.Series.find((s) => s.Key === 'Inflow');
    expect(inflow?.Points.map((p) => p[1])).toEqual([10, 11, 12, 13, 14]);
    expect(his.data.Series.find((s) => s.Key === 'Note')?.Points.at(-1)?.[1]).toBe('t4');
    // Layout=columns: the same points as columns (what the console's chart asks for).
    const columns = await t.json<{ Series: { Key: string; Times: number[]; Values: unknown[]; Count: number }[] }>({
      method: 'GET',
      url: `/api/${String(g)}/${SN}/DeviceHisData?BeginTime=${String(base - 1)}&EndTime=${String(Date.now() + 1)}&Keys=Inflow,Note&Layout=columns`,
      token: admin,
    });
    expect(columns.data.Series.map(({ Key, Times, Values, Count }) => ({ Key, Times, Values, Count }))).toEqual(
      his.data.Series.map(({ Key, Points, Count }) => ({
        Key,
        Times: Points.map((p) => p[0]),
        Values: Points.map((p) => p[1]),
        Count,
      })),
    );
    expect(columns.data.Series.find((s) => s.Key === 'Note')?.Values).toEqual(['t0', 't1', 't2', 't3', 't4']);

    const latest = await t.json<{ Data: Record<string, unknown>; Online: boolean; Time: number }>({
      method: 'GET',
      url: `/api/DeviceHis/GetLatestDeviceHis?devicesn=${SN}`,
      token: operator,
    });
    expect(latest.data).toMatchObject({ Online: true, Time: base + 40_000, Data: { Inflow: 14, LiftPump1Run: 0, Note: 't4' } });

    const hourly = await t.json<{
      Source: string;
      Series: { Key: string; Count: number; Points: [number, number][]; Bands: [number, number, number][] }[];
    }>({
      method: 'GET',
      url: `/api/device/${SN}/DeviceHisData?BeginTime=${String(base - 3_600_000)}&EndTime=${String(Date.now() + 1)}&Type=hour&Keys=Inflow`,
      token: admin,
    });
    const bands = hourly.data.Series[0]?.Bands ?? [];
    expect(hourly.data.Series[0]?.Count).toBe(5);
    expect(Math.min(...bands.map((b) => b[1]))).toBe(10);
    expect(Math.max(...bands.map((b) => b[2]))).toBe(14);
    const hourlyColumns = await t.json<{
      Series: { Times: number[]; Values: number[]; Mins: number[]; Maxs: number[]; Count: number }[];
    }>({
      method: 'GET',
      url: `/api/device/${SN}/DeviceHisData?BeginTime=${String(base - 3_600_000)}&EndTime=${String(Date.now() + 1)}&Type=hour&Keys=Inflow&layout=COLUMNS`,
      token: admin,
    });
    const inColumns = hourlyColumns.data.Series[0];
    expect(inColumns?.Count).toBe(5);
    expect(inColumns?.Times).toEqual(bands.map((b) => b[0]));
    expect(inColumns?.Mins).toEqual(bands.map((b) => b[1]));
    expect(inColumns?.Maxs).toEqual(bands.map((b) => b[2]));
    expect(inColumns?.Values).toEqual(hourly.data.Series[0]?.Points.map((p) => p[1]));

    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    const days = await t.json<
      { DeviceSn: string; Data: Record<string, { Min: number; Max: number; Count: number; Avg: number }> }[]
    >({
      method: 'GET',
      url: `/api/${String(g)}/DeviceDayMonitorData?Begin=${today}&End=${today}&DeviceSn=${SN}`,
      token: admin,
    });
    const day = days.data.find((d) => d.DeviceSn === SN)?.Data.Inflow;
    // Messages a minute old may fall on yesterday just after midnight; the day holds all five otherwise.
    if (day && new Date(base + 8 * 3_600_000).toISOString().slice(0, 10) === today)
      expect(day).toMatchObject({ Min: 10, Max: 14, Count: 5, Avg: 12 });

    const monitor = await t.json<{ DeviceSn: string; State: number; Data: Record<string, unknown> }[]>({
      method: 'GET',
      url: `/api/${String(g)}/DeviceMonitorData`,
      token: operator,
    });
    expect(monitor.data.find((d) => d.DeviceSn === SN)).toMatchObject({ State: 1, Data: { Inflow: 14 } });
  });

  it('delivers data to consoles before its commit, and acknowledges it to the device only after', async () => {
    const viewer = await consoleClient(admin);
    const received = inbox(viewer);
    await viewer.subscribeAsync(topic('data', SN2), { qos: 0 });
    const pump = await device(SN2);
    // Two days back: an hour of its own, apart from the other tests' data of this device.
    const at = Date.now() - 2 * 86_400_000;
    // The writer cannot commit while another connection holds the tables it writes.
    const release = await holdTelemetryWrites();
    let acknowledged = false;
    const published = pump.publishAsync(topic('data', SN2), JSON.stringify({ Time: at, Energy: 41 }), { qos: 1 }).then(() => {
      acknowledged = true;
    });
    try {
      await waitFor(() => received.some((m) => m.payload.includes('41')), 'the console to see the value');
      expect(acknowledged).toBe(false);
    } finally {
      await release();
    }
    await published;
    const his = await t.json<{ Series: { Points: [number, number][] }[] }>({
      method: 'GET',
      url: `/api/${String(g)}/${SN2}/DeviceHisData?BeginTime=${String(at - 1)}&EndTime=${String(at + 1)}&Keys=Energy`,
      token: admin,
    });
    expect(his.data.Series[0]?.Points).toEqual([[at, 41]]);
    expect(received.filter((m) => m.payload.includes('41'))).toHaveLength(1);
  });

  /**
   * Holds the database's writes in a transaction of the app's until the returned function is
   * called: on SQLite the write lock the writer's thread waits for (the app's other writes wait
   * for it asynchronously), on PostgreSQL the table of raw points.
   */
  const holdTelemetryWrites = async (): Promise<() => Promise<void>> => {
    let done: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = t.app.ctx.db.transaction().execute(async (trx) => {
      if (kind === 'postgres') await sql`lock table telemetry_raw in exclusive mode`.execute(trx);
      locked();
      await finished;
    });
    await isLocked;
    return async () => {
      done();
      await holding;
    };
  };

  it('stores a re-delivered message once and counts it once in the roll-ups', async () => {
    const pump = await device(SN2);
    const at = Date.now() - 5000;
    const message = JSON.stringify({ Time: at, Energy: 7 });
    await pump.publishAsync(topic('data', SN2), message, { qos: 1 });
    await pump.publishAsync(topic('data', SN2), message, { qos: 1, dup: true });
    const his = await t.json<{ Series: { Points: unknown[]; Count: number }[] }>({
      method: 'GET',
      url: `/api/${String(g)}/${SN2}/DeviceHisData?BeginTime=${String(at - 1)}&Keys=Energy&Type=hour`,
      token: admin,
    });
    expect(his.data.Series[0]?.Count).toBe(1);
  });

  it('stores the data of a device made again under the number of a purged one', async () => {
    const sn = 'SLPURGED0001';
    const stored = async () => {
      const his = await t.json<{ Series: { Key: string; Points: [number, number][] }[] }>({
        method: 'GET',
        url: `/api/${String(g)}/${sn}/DeviceHisData?BeginTime=${String(Date.now() - 3_600_000)}&Keys=Inflow`,
        token: admin,
      });
      return his.data.Series.find((s) => s.Key === 'Inflow')?.Points.map((p) => p[1]) ?? [];
    };
    const publishAs = async (secret: string, value: number) => {
      const c = await connect(tcp, { clientId: `${sn}-${String(value)}`, username: sn, password: secret });
      await c.publishAsync(topic('data', sn), JSON.stringify({ Time: Date.now() - 1000, Inflow: value }), { qos: 1 });
      await c.endAsync();
    };

    const first = await buildDevice(t.app.ctx, { groupId: g, sn });
    await publishAs(first.secret, 1);
    expect(await stored()).toEqual([1]);
    await t.call({ method: 'DELETE', url: `/api/${String(g)}/Device/${sn}`, token: admin });
    expect((await t.call({ method: 'DELETE', url: `/api/Device/RecycleBin/${sn}`, token: admin })).statusCode).toBe(200);

    // The purge took the first device's history; the new one's is its own, and is stored.
    const second = await buildDevice(t.app.ctx, { groupId: g, sn });
    await publishAs(second.secret, 2);
    expect(await stored()).toEqual([2]);
  });

  it('validates against a device’s new type as soon as the type changes', async () => {
    const sn = 'SL0000000104';
    const pump = await device(sn);
    const defined = async () => {
      const latest = await t.json<{ Points: { Key: string; Defined: boolean }[] }>({
        method: 'GET',
        url: `/api/device/${sn}/DeviceHisData/Latest`,
        token: admin,
      });
      return latest.data.Points.find((p) => p.Key === 'DosingRate')?.Defined;
    };
    await pump.publishAsync(topic('data', sn), JSON.stringify({ Time: Date.now() - 2000, DosingRate: 20 }), { qos: 1 });
    expect(await defined()).toBe(false);
    const dosing = await t.app.ctx.db
      .selectFrom('device_types')
      .select('id')
      .where('group_id', '=', g)
      .where('type_name', '=', '加药泵 Dosing pump')
      .executeTakeFirstOrThrow();
    const typed = await t.call({
      method: 'PUT',
      url: `/api/${String(g)}/Device/Type`,
      token: admin,
      payload: { DeviceSn: sn, TypeId: dosing.id },
    });
    expect(typed.statusCode).toBe(200);
    await pump.publishAsync(topic('data', sn), JSON.stringify({ Time: Date.now() - 1000, DosingRate: 21 }), { qos: 1 });
    expect(await defined()).toBe(true);
  });

  it('refuses malformed payloads and wrong values, counts them, and delivers them to no one', async () => {
    const viewer = await consoleClient(admin);
    const received = inbox(viewer);
    await viewer.subscribeAsync(topic('data'), { qos: 0 });
    const pump = await device();
    const before = await stats();
    await pump.publishAsync(topic('data'), 'not json at all', { qos: 1 });
    await pump.publishAsync(topic('data'), JSON.stringify({ Time: 'yesterday-ish', Inflow: 1 }), { qos: 1 });
    await pump.publishAsync(topic('data'), JSON.stringify({ Inflow: { nested: true }, 'bad key!': 1, Level: 2 }), { qos: 1 });
    await waitFor(() => received.length >= 1, 'the good part of the last message');
    // A later message still gets through on the same connection: the bad ones did not drop it.
    await pump.publishAsync(topic('data'), JSON.stringify({ Level: 3 }), { qos: 1 });
    await waitFor(() => received.length >= 2, 'a later message');
    expect(pump.connected).toBe(true);
    const after = await stats();
    expect(after.Ingestion.refused - before.Ingestion.refused).toBe(2);
    expect(after.Ingestion.refusedValues - before.Ingestion.refusedValues).toBe(2);
    // Only the message that still carried a good value reached the console.
    expect(received.map((m) => m.payload)).toEqual([
      JSON.stringify({ Inflow: { nested: true }, 'bad key!': 1, Level: 2 }),
      JSON.stringify({ Level: 3 }),
    ]);
  });

  it('refuses wrong secrets and unknown devices', async () => {
    expect(await connectRefused(tcp, { clientId: SN, username: SN, password: 'wrong' })).toMatch(
      /Bad username or password|bad user name or password/i,
    );
    expect(await connectRefused(tcp, { clientId: 'SLX', username: 'SLX', password: 'whatever' })).toBeDefined();
    expect(await connectRefused(ws, { clientId: 'c1', username: 'admin', password: 'not-a-session' })).toBeDefined();
    // A console may not take a device's client id and push the device off.
    expect(await connectRefused(ws, { clientId: SN, username: 'admin', password: admin })).toBeDefined();
    expect((await stats()).Refused.refusedConnections).toBeGreaterThanOrEqual(4);
  });

  it("does not let a device publish as another group's device, or on topics not its own", async () => {
    const before = await stats();
    for (const target of [topic('data', 'SLB000000001', otherG), topic('data', SN, otherG), topic('data', SN2), topic('cmd')]) {
      const pump = await device();
      // No PUBACK ever comes: the broker closes the connection.
      pump.publish(target, JSON.stringify({ Inflow: 999 }), { qos: 1 });
      expect(await closed(pump), target).toBe(true);
    }
    expect((await stats()).Refused.refusedPublishes - before.Refused.refusedPublishes).toBe(4);
    const rows = await t.app.ctx.db.selectFrom('telemetry_series').select('id').where('device_sn', '=', 'SLB000000001').execute();
    expect(rows).toEqual([]);
    // A device subscribes to its own commands only.
    const pump = await device();
    expect(await subscribeQos(pump, topic('cmd'))).toBe(0);
    expect(await subscribeQos(pump, topic('cmd', SN2))).toBe(128);
    expect(await subscribeQos(pump, topic('data', '+'))).toBe(128);
  });

  it("does not let a console user subscribe to another group's devices, or to devices outside their grants, or publish", async () => {
    const viewer = await consoleClient(operator, OPERATOR.account);
    expect(await subscribeQos(viewer, topic('data'))).toBe(0);
    expect(await subscribeQos(viewer, topic('data', 'SLB000000001', otherG))).toBe(128);
    expect(await subscribeQos(viewer, `sluice/${String(otherG)}/+/data`)).toBe(128);
    expect(await subscribeQos(viewer, topic('data', 'SLA0000UNASG'))).toBe(128);
    expect(await subscribeQos(viewer, 'sluice/#')).toBe(128);
    expect(await subscribeQos(viewer, topic('cmd'))).toBe(128);
    // The group wildcard is allowed, and delivers only the devices the user may see.
    const received = inbox(viewer);
    expect(await subscribeQos(viewer, `sluice/${String(g)}/+/data`)).toBe(0);
    const hidden = await connect(tcp, { clientId: 'SLA0000UNASG', username: 'SLA0000UNASG', password: 'unassigned-secret' });
    clients.push(hidden);
    await hidden.publishAsync(topic('data', 'SLA0000UNASG'), JSON.stringify({ Secret: 1 }), { qos: 1 });
    const pump = await device();
    await pump.publishAsync(topic('data'), JSON.stringify({ Visible: 1 }), { qos: 1 });
    await waitFor(() => received.some((m) => m.payload.includes('Visible')), 'the visible device');
    expect(received.some((m) => m.payload.includes('Secret'))).toBe(false);
    // Consoles may not publish device data or commands.
    viewer.options.reconnectPeriod = 0;
    viewer.publish(topic('cmd'), JSON.stringify({ Id: 'x', Key: 'LiftPump1Run', Value: 1 }), { qos: 1 });
    expect(await closed(viewer)).toBe(true);
  });

  it('resubscribes after a reconnect and keeps receiving', async () => {
    const viewer = await consoleClient(admin);
    const received = inbox(viewer);
    await viewer.subscribeAsync(`sluice/${String(g)}/+/data`, { qos: 0 });
    viewer.stream.destroy();
    await waitFor(() => !viewer.connected, 'the drop');
    await waitFor(() => viewer.connected, 'the reconnect');
    const pump = await device();
    await waitFor(async () => {
      await pump.publishAsync(topic('data'), JSON.stringify({ AfterReconnect: 1 }), { qos: 1 });
      return received.some((m) => m.payload.includes('AfterReconnect'));
    }, 'a message after the reconnect');
  });

  it('marks a device offline on its last will, and online when it comes back', async () => {
    const sn = 'SL0000000401';
    const pump = await device(sn, {
      will: { topic: topic('status', sn), payload: Buffer.from(JSON.stringify({ Online: 0 })), qos: 1, retain: true },
    });
    await pump.publishAsync(topic('status', sn), JSON.stringify({ Online: 1 }), { qos: 1, retain: true });
    const viewer = await consoleClient(admin);
    const events = inbox(viewer);
    await viewer.subscribeAsync(topic('event', sn), { qos: 0 });
    const online = async () =>
      (await t.app.ctx.db.selectFrom('devices').select('online').where('device_sn', '=', sn).executeTakeFirstOrThrow()).online;
    await waitFor(async () => (await online()) === 1, 'online');
    pump.stream.destroy();
    await waitFor(async () => (await online()) === 0, 'offline after the will');
    await waitFor(() => events.some((e) => (JSON.parse(e.payload) as { Online?: number }).Online === 0), 'the offline event');
    const periods = await t.app.ctx.db.selectFrom('device_online_periods').selectAll().where('device_sn', '=', sn).execute();
    expect(periods.at(-1)?.ended_at).not.toBeNull();
    const report = await t.json<{ DeviceSn: string; Days: { Hours: number }[]; TotalHours: number }[]>({
      method: 'GET',
      url: `/api/DeviceOnline/GetDeviceOnline?DeviceSn=${sn}`,
      token: admin,
    });
    expect(report.data[0]?.DeviceSn).toBe(sn);
    expect(report.data[0]?.Days).toHaveLength(7);
  });

  it('writes the last_seen of many devices in a few statements, never moving one back', async () => {
    const repository = new OnlineRepository(t.app.ctx.db);
    const a = await buildDevice(t.app.ctx, { groupId: g });
    const b = await buildDevice(t.app.ctx, { groupId: g });
    await t.app.ctx.db.updateTable('devices').set({ last_seen: 5000 }).where('device_sn', '=', b.sn).execute();
    // More than two statements' worth: the two real devices in the first and the third.
    const unknown = Array.from({ length: 600 }, (_, i) => ({ groupId: g, deviceSn: `NONE${String(i)}`, at: 1 }));
    await repository.saveLastSeen([
      { groupId: g, deviceSn: a.sn, at: 3000 },
      ...unknown,
      { groupId: g, deviceSn: b.sn, at: 4000 },
      { groupId: otherG, deviceSn: a.sn, at: 9000 },
    ]);
    const rows = await t.app.ctx.db
      .selectFrom('devices')
      .select(['device_sn', 'last_seen'])
      .where('device_sn', 'in', [a.sn, b.sn])
      .orderBy('device_sn')
      .execute();
    expect(rows).toEqual(
      [
        { device_sn: a.sn, last_seen: 3000 },
        { device_sn: b.sn, last_seen: 5000 },
      ].sort((x, y) => x.device_sn.localeCompare(y.device_sn)),
    );
  });

  it('takes many devices offline at once in one write, ending each one’s period at its own time', async () => {
    const db = t.app.ctx.db;
    // More than one transaction's worth (250), online with open periods; the first's period starts after it leaves.
    const sns = Array.from({ length: 300 }, (_, i) => `SLOFF${String(i).padStart(7, '0')}`);
    await db
      .insertInto('devices')
      .values(sns.map((sn) => newDeviceRow({ group_id: g, device_sn: sn, device_name: sn, secret_hash: 'x', online: 1 })))
      .execute();
    await db
      .insertInto('device_online_periods')
      .values(sns.map((sn, i) => ({ group_id: g, device_sn: sn, started_at: i === 0 ? 9000 : 1000, ended_at: null })))
      .execute();
    const writes = vi.spyOn(OnlineRepository.prototype, 'markOffline');
    try {
      // And one no device holds, then one already offline: nothing to end for them.
      await Promise.all([
        ...sns.map((sn, i) => t.app.live.online.offline(g, sn, 'disconnect', 5000 + i)),
        t.app.live.online.offline(otherG, 'SLOFFNONE', 'disconnect', 7000),
      ]);
      await t.app.live.online.offline(g, sns[299] ?? '', 'will', 8000);
      // One write for the 301 asked for in one turn (others' devices leaving meanwhile may share it), one for the last.
      const mine = new Set([...sns, 'SLOFFNONE']);
      const ours = writes.mock.calls.map(([transitions]) => transitions.filter((x) => mine.has(x.deviceSn)).length);
      expect(ours.filter((count) => count > 0)).toEqual([301, 1]);
    } finally {
      writes.mockRestore();
    }
    const devices = await db.selectFrom('devices').select(['device_sn', 'online']).where('device_sn', 'in', sns).execute();
    expect(devices.filter((d) => d.online !== 0)).toEqual([]);
    const periods = await db
      .selectFrom('device_online_periods')
      .select(['device_sn', 'ended_at', 'end_reason'])
      .where('device_sn', 'in', sns)
      .execute();
    expect(periods).toHaveLength(300);
    const bySn = new Map(periods.map((p) => [p.device_sn, p]));
    expect(bySn.get(sns[0] ?? '')).toMatchObject({ ended_at: 9000, end_reason: 'disconnect' });
    expect(bySn.get(sns[1] ?? '')).toMatchObject({ ended_at: 5001, end_reason: 'disconnect' });
    expect(bySn.get(sns[299] ?? '')).toMatchObject({ ended_at: 5299, end_reason: 'disconnect' });
    expect(periods.filter((p) => p.ended_at === null || p.end_reason !== 'disconnect')).toEqual([]);
  });

  it('brings many devices online at once in one write, each one’s period starting at its own time', async () => {
    const db = t.app.ctx.db;
    // More than one transaction's worth (250), offline; the first was online before (its period
    // still open), the second is online already without a period, the third online with one.
    const sns = Array.from({ length: 300 }, (_, i) => `SLON${String(i).padStart(8, '0')}`);
    await db
      .insertInto('devices')
      .values(
        sns.map((sn, i) =>
          newDeviceRow({ group_id: g, device_sn: sn, device_name: sn, secret_hash: 'x', online: i === 1 || i === 2 ? 1 : 0 }),
        ),
      )
      .execute();
    await db
      .insertInto('device_online_periods')
      .values([sns[0] ?? '', sns[2] ?? ''].map((sn) => ({ group_id: g, device_sn: sn, started_at: 1000, ended_at: null })))
      .execute();
    const writes = vi.spyOn(OnlineRepository.prototype, 'markOnline');
    try {
      // And one no device holds: nothing to start for it.
      await Promise.all([
        ...sns.map((sn, i) => t.app.live.online.touch(g, sn, 5000 + i)),
        t.app.live.online.touch(otherG, 'SLONNONE', 7000),
      ]);
      const mine = new Set([...sns, 'SLONNONE']);
      const ours = writes.mock.calls.map(([transitions]) => transitions.filter((x) => mine.has(x.deviceSn)).length);
      expect(ours.filter((count) => count > 0)).toEqual([301]);
    } finally {
      writes.mockRestore();
      for (const sn of [...sns, 'SLONNONE']) t.app.live.online.forget(sn);
    }
    const devices = await db.selectFrom('devices').select(['device_sn', 'online']).where('device_sn', 'in', sns).execute();
    expect(devices.filter((d) => d.online !== 1)).toEqual([]);
    const periods = await db
      .selectFrom('device_online_periods')
      .select(['device_sn', 'started_at', 'ended_at', 'end_reason'])
      .where('device_sn', 'in', [...sns, 'SLONNONE'])
      .orderBy('id')
      .execute();
    const open = periods.filter((p) => p.ended_at === null);
    expect(open).toHaveLength(300);
    const openOf = new Map(open.map((p) => [p.device_sn, p.started_at]));
    expect(openOf.get(sns[0] ?? '')).toBe(5000);
    expect(openOf.get(sns[1] ?? '')).toBe(5001);
    expect(openOf.get(sns[2] ?? '')).toBe(1000);
    expect(openOf.get(sns[299] ?? '')).toBe(5299);
    // The first's old period ended as it came online again.
    expect(periods.filter((p) => p.ended_at !== null)).toEqual([
      { device_sn: sns[0], started_at: 1000, ended_at: 5000, end_reason: 'superseded' },
    ]);
  });

  it('takes a device offline when nothing is heard of it for DEVICE_TIMEOUT, unless it is connected', async () => {
    // As with an external broker: no connection the server knows of, only messages.
    const sn = 'SLB000000001';
    const online = async () =>
      (await t.app.ctx.db.selectFrom('devices').select('online').where('device_sn', '=', sn).executeTakeFirstOrThrow()).online;
    await t.app.live.online.touch(otherG, sn, Date.now() - 20_000);
    expect(await online()).toBe(1);
    await t.app.live.online.sweep();
    expect(await online()).toBe(0);
    const period = await t.app.ctx.db
      .selectFrom('device_online_periods')
      .selectAll()
      .where('device_sn', '=', sn)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(period).toMatchObject({ end_reason: 'timeout' });
    // A device with an open connection to the embedded broker does not time out between pings.
    const connected = await device();
    await waitFor(
      async () =>
        (await t.app.ctx.db.selectFrom('devices').select('online').where('device_sn', '=', SN).executeTakeFirstOrThrow())
          .online === 1,
      'online',
    );
    await t.app.live.online.touch(g, SN, Date.now() - 20_000);
    await t.app.live.online.sweep();
    expect(
      (await t.app.ctx.db.selectFrom('devices').select('online').where('device_sn', '=', SN).executeTakeFirstOrThrow()).online,
    ).toBe(1);
    expect(connected.connected).toBe(true);
  });

  it('opens an alarm for an error code, shows the device online with warning, and closes it when cleared', async () => {
    const pump = await device();
    const viewer = await consoleClient(admin);
    const events = inbox(viewer);
    await viewer.subscribeAsync(topic('event'), { qos: 0 });
    await pump.publishAsync(topic('error'), JSON.stringify({ Codes: ['E101'] }), { qos: 1 });
    const warns = () =>
      t.app.ctx.db.selectFrom('warns').selectAll().where('device_sn', '=', SN).where('code', '=', 'E101').execute();
    expect((await warns()).filter((w) => w.active === 1)).toHaveLength(1);
    const latest = await t.json<{ State: number }>({
      method: 'GET',
      url: `/api/device/${SN}/DeviceHisData/Latest`,
      token: admin,
    });
    expect(latest.data.State).toBe(2);
    const map = await t.json<{
      Devices: [string, string, number, number, number][];
      Stations: [number, string, number, number, number][];
    }>({ method: 'GET', url: '/api/DeviceMap/GetDeviceMap', token: admin });
    expect(map.data.Devices.find((d) => d[0] === SN)?.[4]).toBe(2);
    expect(map.data.Stations.some((st) => st[4] === 2)).toBe(true);
    await pump.publishAsync(topic('error'), JSON.stringify({ Codes: [] }), { qos: 1 });
    expect((await warns()).filter((w) => w.active === 1)).toHaveLength(0);
    const after = await t.json<{ Devices: [string, string, number, number, number][] }>({
      method: 'GET',
      url: '/api/DeviceMap/GetDeviceMap',
      token: admin,
    });
    expect(after.data.Devices.find((d) => d[0] === SN)?.[4]).toBe(1);
    await waitFor(
      () => events.filter((e) => (JSON.parse(e.payload) as { Type?: string }).Type === 'warn').length >= 2,
      'open and close events',
    );
  });

  it('opens alarms from data points linked to warn codes: fault flags while not 0, measurements while over their standard', async () => {
    const sn = ANALYSER;
    const analyser = await device(sn);
    const active = async () =>
      (await t.app.ctx.db.selectFrom('warns').select('code').where('device_sn', '=', sn).where('active', '=', 1).execute())
        .map((w) => w.code)
        .sort();
    await analyser.publishAsync(topic('data', sn), JSON.stringify({ COD_Out: 30, AnalyserFault: 0 }), { qos: 1 });
    await waitFor(
      async () =>
        (await active()).length === 0 &&
        (await t.app.ctx.db.selectFrom('device_latest').select('ts').where('device_sn', '=', sn).executeTakeFirst()),
      'the first message',
    );
    await analyser.publishAsync(topic('data', sn), JSON.stringify({ COD_Out: 80, AnalyserFault: 1 }), { qos: 1 });
    await waitFor(async () => (await active()).join(',') === 'A201,E401', 'COD and analyser alarms');
    await analyser.publishAsync(topic('data', sn), JSON.stringify({ COD_Out: 20, AnalyserFault: 0 }), { qos: 1 });
    await waitFor(async () => (await active()).length === 0, 'the alarms to clear');
    const description = await t.app.ctx.db
      .selectFrom('warns')
      .select(['description', 'data_key'])
      .where('device_sn', '=', sn)
      .where('code', '=', 'E401')
      .executeTakeFirstOrThrow();
    expect(description).toMatchObject({ data_key: 'AnalyserFault' });
    expect(description.description).toContain('Analyser');
  });

  it('sends a command, refuses control in auto mode, and records the acknowledgement in the device log', async () => {
    const pump = await device();
    const commands = inbox(pump);
    await pump.subscribeAsync(topic('cmd'), { qos: 1 });
    await pump.publishAsync(topic('data'), JSON.stringify({ ControlMode: 0, LiftPump1Run: 0 }), { qos: 1 });
    const sent = await t.json<{ CommandId: string; OldValue: string; NewValue: string }>({
      method: 'POST',
      url: `/api/${String(g)}/${SN}/DeviceCommand`,
      token: operator,
      payload: { Key: 'LiftPump1Run', Value: 1 },
    });
    expect(sent.success).toBe(true);
    expect(sent.data).toMatchObject({ OldValue: '0', NewValue: '1' });
    const command = await waitFor(() => commands.find((c) => c.topic === topic('cmd')), 'the command');
    const parsed = JSON.parse(command.payload) as { Id: string; Key: string; Value: number };
    expect(parsed).toMatchObject({ Id: sent.data.CommandId, Key: 'LiftPump1Run', Value: 1 });
    await pump.publishAsync(topic('ack'), JSON.stringify({ Id: parsed.Id, Success: true, Value: 1 }), { qos: 1 });
    const log = await t.json<{ CommandId: string; State: number; Time: number | null }[]>({
      method: 'GET',
      url: `/api/device/${SN}/DeviceLog`,
      token: operator,
    });
    expect(log.data.find((l) => l.CommandId === parsed.Id)).toMatchObject({ State: 1 });

    await pump.publishAsync(topic('data'), JSON.stringify({ ControlMode: 1 }), { qos: 1 });
    const refused = await t.call({
      method: 'POST',
      url: `/api/${String(g)}/${SN}/DeviceCommand`,
      token: operator,
      payload: { Key: 'LiftPump1Run', Value: 0 },
      lang: 'zh-CN',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<Body>().message).toBe('自动模式下不允许控制设备');
    // Leaving auto mode is allowed in auto mode.
    const leave = await t.call({
      method: 'POST',
      url: `/api/${String(g)}/${SN}/DeviceCommand`,
      token: operator,
      payload: { Key: 'ControlMode', Value: 0 },
    });
    expect(leave.statusCode).toBe(200);
  });

  it('refuses history, commands and live config of devices the caller may not reach', async () => {
    const otherAdmin = await createTenant(t.app.ctx.db, { groupName: 'Third Co', code: 'third', adminAccount: 'thirdadmin' });
    const third = await t.login('thirdadmin', otherAdmin.password);
    const calls = [
      { method: 'GET', url: `/api/${String(otherAdmin.groupId)}/${SN}/DeviceHisData?BeginTime=2024-01-01`, status: 404 },
      { method: 'GET', url: `/api/${String(g)}/${SN}/DeviceHisData?BeginTime=2024-01-01`, status: 403 },
      { method: 'GET', url: `/api/DeviceHis/GetLatestDeviceHis?devicesn=${SN}`, status: 404 },
      { method: 'GET', url: `/api/device/${SN}/DeviceHisData/Latest`, status: 404 },
      { method: 'GET', url: `/api/device/${SN}/DeviceLog`, status: 404 },
      {
        method: 'POST',
        url: `/api/${String(otherAdmin.groupId)}/${SN}/DeviceCommand`,
        payload: { Key: 'LiftPump1Run', Value: 1 },
        status: 404,
      },
      { method: 'GET', url: `/api/${String(g)}/DeviceMonitorData`, status: 403 },
    ] as const;
    for (const { status, ...call } of calls) {
      expect((await t.call({ ...call, token: third })).statusCode, `${call.method} ${call.url}`).toBe(status);
    }
    const mine = await t.json<{ DeviceSn: string }[]>({
      method: 'GET',
      url: `/api/${String(otherAdmin.groupId)}/DeviceMonitorData`,
      token: third,
    });
    expect(mine.data).toEqual([]);
    // The operator may view but the unassigned device is beyond their grants.
    expect(
      (await t.call({ method: 'GET', url: '/api/DeviceHis/GetLatestDeviceHis?devicesn=SLA0000UNASG', token: operator }))
        .statusCode,
    ).toBe(404);
    expect((await t.call({ method: 'GET', url: '/api/Mqtt/Stats', token: operator })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: `/api/${String(g)}/${SN}/DeviceHisData?BeginTime=2024-01-01` })).statusCode).toBe(
      401,
    );
    const live = await t.json<{ Path: string; Username: string; Subscriptions: string[] }>({
      method: 'GET',
      url: '/api/Mqtt/Config',
      token: operator,
    });
    expect(live.data).toMatchObject({
      Path: '/mqtt',
      Username: 'operator',
      Subscriptions: expect.arrayContaining([`sluice/${String(g)}/+/data`]) as unknown,
    });
  });

  it('answers the external broker hooks (EMQX HTTP auth and ACL) only with the shared secret', async () => {
    const hook = (url: string, payload: object, secret?: string) =>
      t.call({ method: 'POST', url, payload, headers: secret ? { 'x-mqtt-hook-secret': secret } : {} });
    const device = { clientid: SN, username: SN, password: secretOf(SN) };
    expect((await hook('/api/mqtt/auth', device)).statusCode).toBe(403);
    expect((await hook('/api/mqtt/auth', device, 'wrong-secret-0123456789')).statusCode).toBe(403);
    expect((await hook('/api/mqtt/auth', device, HOOK_SECRET)).json()).toEqual({ result: 'allow', is_superuser: false });
    expect((await hook('/api/mqtt/auth', { ...device, password: 'nope' }, HOOK_SECRET)).json()).toEqual({ result: 'deny' });
    expect(
      (await hook('/api/mqtt/auth', { clientid: 'console-1', username: 'operator', password: operator }, HOOK_SECRET)).json(),
    ).toMatchObject({ result: 'allow' });
    const acl = async (username: string, topicName: string, action: string) =>
      (await hook('/api/mqtt/acl', { clientid: 'x', username, topic: topicName, action }, HOOK_SECRET)).json<{ result: string }>()
        .result;
    expect(await acl(SN, topic('data'), 'publish')).toBe('allow');
    expect(await acl(SN, topic('data', SN2), 'publish')).toBe('deny');
    expect(await acl(SN, topic('cmd'), 'subscribe')).toBe('allow');
    expect(await acl('operator', topic('data'), 'subscribe')).toBe('allow');
    expect(await acl('operator', topic('data'), 'publish')).toBe('deny');
    expect(await acl('operator', topic('data', 'SLB000000001', otherG), 'subscribe')).toBe('deny');
    // An external broker cannot filter a wildcard per user: operators with project grants subscribe device by device.
    expect(await acl('operator', `sluice/${String(g)}/+/data`, 'subscribe')).toBe('deny');
    expect(await acl('admin', `sluice/${String(g)}/+/data`, 'subscribe')).toBe('allow');
  });
});
