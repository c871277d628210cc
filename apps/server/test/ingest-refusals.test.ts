/**
 * One bad message cannot block a device: whatever the server cannot use is acknowledged (the
 * device does not send it again), counted, and recorded in the device's log with the reason
 * (rate-limited), the connection stays and the device's next data gets through. A device may
 * create only MAX_UNDEFINED_KEYS keys without a definition. Real broker over TCP, real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { DEVICE_LOG_STATE } from '@sluice/shared/telemetry.schema';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { connect } from './mqtt-helpers.ts';
import { createTenant } from '../src/modules/groups/tenancy.service.ts';
import { hashDeviceSecret } from '../src/modules/devices/device-credentials.ts';
import { newDeviceRow } from '../src/modules/devices/devices.repository.ts';
import { REFUSAL_LIMITS } from '../src/modules/telemetry/refusal-log.ts';

interface Stats {
  Ingestion: { refused: number; refusedValues: number; refusedUndefinedKeys: number; stored: number };
}
interface LogRow {
  Key: string;
  NewValue: string;
  State: number;
  Message: string;
}

describe.each(databaseKinds)('ingestion that one bad message cannot block, on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let platform: string;
  let groupId: number;
  let tcp: string;
  let serial = 0;
  const clients: MqttClient[] = [];

  /** A device of its own (no type, no definitions), connected over TCP. */
  const newDevice = async () => {
    serial += 1;
    const sn = `SLR${String(serial).padStart(9, '0')}`;
    await t.app.ctx.db
      .insertInto('devices')
      .values(newDeviceRow({ group_id: groupId, device_sn: sn, device_name: sn, secret_hash: hashDeviceSecret(`${sn}-secret`) }))
      .execute();
    const client = await connect(tcp, { clientId: sn, username: sn, password: `${sn}-secret` });
    clients.push(client);
    const topic = `sluice/${String(groupId)}/${sn}/data`;
    /** Publishes with QoS 1 and answers when the PUBACK came. */
    const send = (payload: unknown) =>
      client.publishAsync(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), { qos: 1 });
    return { sn, client, send };
  };
  const stats = async () => (await t.json<Stats>({ method: 'GET', url: '/api/Mqtt/Stats', token: platform })).data.Ingestion;
  const deviceLog = async (sn: string) =>
    (await t.json<LogRow[]>({ method: 'GET', url: `/api/device/${sn}/DeviceLog?PageSize=100`, token })).data;
  const seriesOf = async (sn: string) =>
    (await t.app.ctx.db.selectFrom('telemetry_series').select('data_key').where('device_sn', '=', sn).execute()).map(
      (r) => r.data_key,
    );

  beforeAll(async () => {
    t = await createTestApp(kind, { MQTT_PORT: '0', HOST: '127.0.0.1', DEMO: '0' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    tcp = `mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`;
    const tenant = await createTenant(t.app.ctx.db, {
      groupName: 'Refusals Water',
      code: 'refusals',
      adminAccount: 'refusalboss',
    });
    groupId = tenant.groupId;
    token = await t.login('refusalboss', tenant.password);
    platform = await t.login(ADMIN.account, ADMIN.password);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await t.close();
  });

  it('acknowledges a Time from a nanosecond clock, records why, keeps the connection and takes the next data', async () => {
    const { sn, client, send } = await newDevice();
    const before = await stats();
    // 1.7e18: nanoseconds since 1970; 8.64e15 + 1: one past the last millisecond a Date can hold.
    await send({ Time: 1.7e18, Inflow: 1 });
    await send({ Time: 8.64e15 + 1, Inflow: 2 });
    await send({ Time: 8.64e15, Inflow: 3 });
    expect(client.connected).toBe(true);
    const good = Date.now() - 1000;
    await send({ Time: good, Inflow: 4 });

    const latest = await t.json<{ Data: Record<string, unknown>; Time: number }>({
      method: 'GET',
      url: `/api/DeviceHis/GetLatestDeviceHis?devicesn=${sn}`,
      token,
    });
    expect(latest.data).toMatchObject({ Time: good, Data: { Inflow: 4 } });
    const after = await stats();
    expect(after.refused - before.refused).toBe(3);

    const log = await deviceLog(sn);
    expect(log).toHaveLength(3);
    for (const row of log) {
      expect(row).toMatchObject({ Key: 'data', State: DEVICE_LOG_STATE.messageRefused });
      expect(row.Message).toMatch(/^Time \S+ is more than a day in the future$/);
    }
    expect(log.map((r) => r.NewValue)).toContain(JSON.stringify({ Time: 1.7e18, Inflow: 1 }));
  });

  it('refuses times before 2000-01-01 and more than a day ahead the same way', async () => {
    const { sn, client, send } = await newDevice();
    await send({ Time: '1970-01-01 08:00:05', Inflow: 1 });
    await send({ Time: 946_684_799, Inflow: 1 });
    await send({ Time: Date.now() + 25 * 3_600_000, Inflow: 1 });
    await send({ Time: Date.now() + 3_600_000, Inflow: 5 });
    expect(client.connected).toBe(true);
    const messages = (await deviceLog(sn)).map((r) => r.Message);
    expect(messages.filter((m) => m.endsWith('is before 2000-01-01'))).toHaveLength(2);
    expect(messages.filter((m) => m.endsWith('is more than a day in the future'))).toHaveLength(1);
    expect(messages).toHaveLength(3);
    expect(await seriesOf(sn)).toEqual(['Inflow']);
  });

  it('refuses text a database cannot hold (NUL) as a value, keeping the message’s other values', async () => {
    const { sn, send } = await newDevice();
    await send({ Note: 'a\u0000b', Level: 2 });
    expect(await seriesOf(sn)).toEqual(['Level']);
    const [row] = await deviceLog(sn);
    expect(row?.Message).toBe('1 value(s) refused: Note: text with a NUL character');
  });

  it('records refusals in the device log at a bounded rate, while counting every one', async () => {
    const { sn, client, send } = await newDevice();
    const before = await stats();
    for (let i = 0; i < 30; i++) await send(`not json ${String(i)}`);
    expect(client.connected).toBe(true);
    expect((await stats()).refused - before.refused).toBe(30);
    const log = await deviceLog(sn);
    expect(log).toHaveLength(REFUSAL_LIMITS.burst);
    expect(log.every((r) => r.Message === 'payload is not JSON')).toBe(true);

    // Some time later the device may have one more recorded, which tells how many were left out.
    const later = Date.now() + REFUSAL_LIMITS.everyMs;
    const address = { kind: 'data' as const, deviceSn: sn, groupId };
    await t.app.live.ingestion.handle({ address, payload: Buffer.from('still not json'), retained: false }, later);
    const [newest, ...rest] = await deviceLog(sn);
    expect(rest).toHaveLength(REFUSAL_LIMITS.burst);
    expect(newest).toMatchObject({
      NewValue: 'still not json',
      Message: `payload is not JSON (and ${String(30 - REFUSAL_LIMITS.burst)} more refused before, not recorded)`,
    });
  });

  it('lets a device create at most MAX_UNDEFINED_KEYS keys without a definition (200 by default)', async () => {
    const { sn, send } = await newDevice();
    await t.app.ctx.db
      .insertInto('device_data_defines')
      .values({ group_id: groupId, device_sn: sn, panel_id: null, data_key: 'Level', data_name: 'Level', data_type: 'readable' })
      .execute();
    t.app.live.directory.forget(sn);
    const before = await stats();
    // One 63 KB message with 5,000 keys once made 5,000 series.
    const flood: Record<string, number> = {};
    for (let i = 0; i < 5000; i++) flood[`K${String(i).padStart(5, '0')}_extra`] = i;
    expect(JSON.stringify(flood).length).toBeGreaterThan(60_000);
    await send(flood);
    expect((await seriesOf(sn)).length).toBe(200);
    const after = await stats();
    expect(after.refusedUndefinedKeys - before.refusedUndefinedKeys).toBe(4800);

    // Keys it has are still taken, and so are defined ones; new undefined ones are not.
    await send({ K00001_extra: -1, Level: 3, Fresh: 1 });
    const keys = await seriesOf(sn);
    expect(keys).toHaveLength(201);
    expect(keys).toContain('Level');
    expect(keys).not.toContain('Fresh');
    const latest = await t.json<{ Data: Record<string, unknown> }>({
      method: 'GET',
      url: `/api/DeviceHis/GetLatestDeviceHis?devicesn=${sn}`,
      token,
    });
    expect(latest.data.Data).toMatchObject({ K00001_extra: -1, Level: 3 });
    const [last] = await deviceLog(sn);
    expect(last?.Message).toBe('1 value(s) refused: Fresh: more than 200 data keys without a definition');
  });
});
