/**
 * Commands to a device against the embedded broker: each value is checked on the server against
 * the device's data point (its own, else its type's control) before anything is published, and
 * a command the device never answers times out in the device log.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEVICE_LOG_STATE } from '@sluice/shared/telemetry.schema';
import type { MqttClient } from 'mqtt';
import { ADMIN, createTestApp, databaseKinds, type Body, type Errors, type TestApp } from './harness.ts';
import { connect, inbox, waitFor } from './mqtt-helpers.ts';
import { hashDeviceSecret } from '../src/modules/devices/device-credentials.ts';
import { newDeviceRow } from '../src/modules/devices/devices.repository.ts';
import type { Db } from '../src/db/database.ts';

const SN = 'SLC000000001';
const SECRET = 'control-device-secret';

/** A library data point of the group; its id. */
async function libraryPoint(
  db: Db,
  groupId: number,
  p: { key: string; name: string; type: string; format?: string; unit?: string },
): Promise<number> {
  const row = await db
    .insertInto('data_defines')
    .values({
      group_id: groupId,
      data_key: p.key,
      data_name: p.name,
      data_type: p.type,
      format: p.format ?? '',
      unit: p.unit ?? '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A blower controller: a type whose controls define the on-time (shown as a time, in seconds,
 * the library allowing 1 s) and the dosing frequency (HZ, the library allowing 60), and a
 * device of that type whose own data points are the DO set-point, the control mode and a
 * fault flag.
 */
async function blowerController(db: Db, groupId: number): Promise<void> {
  const onTime = await libraryPoint(db, groupId, {
    key: 'BlowerOnTime',
    name: 'Blower on time',
    type: 'textbox',
    format: '{"Min":1,"Max":86400,"Step":1}',
    unit: 's',
  });
  const rate = await libraryPoint(db, groupId, {
    key: 'DosingRate',
    name: 'Dosing frequency',
    type: 'textbox',
    format: '{"Min":0,"Max":60}',
    unit: 'HZ',
  });
  await libraryPoint(db, groupId, { key: 'DOSet', name: 'Library DO set-point', type: 'textbox' });
  const type = await db
    .insertInto('device_types')
    .values({ group_id: groupId, type_name: 'Blower controller' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const module = await db
    .insertInto('type_modules')
    .values({ group_id: groupId, type_id: type.id, module_name: 'Aeration' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('type_module_controls')
    .values([
      {
        group_id: groupId,
        type_id: type.id,
        module_id: module.id,
        control_key: 'BlowerOnTime',
        control_name: 'On time',
        data_define_id: onTime,
        show_type: 'time',
      },
      {
        group_id: groupId,
        type_id: type.id,
        module_id: module.id,
        control_key: 'DosingRate',
        control_name: 'Dosing frequency',
        data_define_id: rate,
        show_type: 'input',
      },
    ])
    .execute();
  await db
    .insertInto('devices')
    .values(
      newDeviceRow({
        group_id: groupId,
        device_sn: SN,
        device_name: 'Blower controller 1',
        secret_hash: hashDeviceSecret(SECRET),
        type_id: type.id,
      }),
    )
    .execute();
  const point = (data_key: string, data_name: string, data_type: string, format = '', unit = '') => ({
    group_id: groupId,
    device_sn: SN,
    panel_id: null,
    data_key,
    data_name,
    data_type,
    format,
    unit,
  });
  await db
    .insertInto('device_data_defines')
    .values([
      point('DOSet', 'DO set-point', 'textbox', '{"Min":0,"Max":8,"Step":0.1,"Decimals":1}', 'mg/L'),
      point('ControlMode', 'Control mode', 'enum', '{"0":"Manual","1":"Auto","2":"Self-check"}'),
      point('BlowerFault', 'Blower fault', 'boolean2', '{"0":"Normal","1":"Fault"}'),
      point('Baud', 'Baud rate', 'select', '{"1200":"1200","9600":"9600"}'),
    ])
    .execute();
}

describe.each(databaseKinds)('device commands on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let g: number;
  let device: MqttClient;
  let received: { topic: string; payload: string }[];
  /** What the server published on event topics, seen at the broker. */
  const events: { Type: string; Id?: string; Key?: string; Success?: boolean; Message?: string }[] = [];

  const topic = (name: string) => `sluice/${String(g)}/${SN}/${name}`;
  const command = (Key: string, Value: unknown, lang?: string) =>
    t.call({
      method: 'POST',
      url: `/api/${String(g)}/${SN}/DeviceCommand`,
      token: admin,
      payload: { Key, Value },
      ...(lang ? { lang } : {}),
    });

  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0', MQTT_PORT: '0', HOST: '127.0.0.1' });
    await t.app.live.start();
    t.app.live.broker?.aedes.on('publish', (packet) => {
      if (packet.topic.endsWith('/event')) events.push(JSON.parse(packet.payload.toString()) as (typeof events)[number]);
    });
    admin = await t.login(ADMIN.account, ADMIN.password);
    g = (await t.json<{ GroupId: number }>({ method: 'GET', url: '/api/user/myinfo', token: admin })).data.GroupId;
    await blowerController(t.app.ctx.db, g);
    device = await connect(`mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`, {
      clientId: SN,
      username: SN,
      password: SECRET,
    });
    received = inbox(device);
    await device.subscribeAsync(topic('cmd'), { qos: 1 });
    await device.publishAsync(topic('data'), JSON.stringify({ ControlMode: 0, DOSet: 2 }), { qos: 1 });
    await waitFor(
      async () =>
        (await t.app.ctx.db.selectFrom('devices').select('online').where('device_sn', '=', SN).executeTakeFirstOrThrow())
          .online === 1,
      'the device online',
    );
  });

  afterAll(async () => {
    await device.endAsync(true).catch(() => undefined);
    await t.close();
  });

  it('refuses values outside the data point, naming the field and the limit in the caller’s language, and publishes nothing', async () => {
    const refusals: { key: string; value: unknown; field: string; en: string; zh: string }[] = [
      {
        key: 'DOSet',
        value: 99999999999,
        field: 'Value',
        en: 'DO set-point (DOSet): The value entered cannot be greater than 8 mg/L',
        zh: 'DO set-point（DOSet）：输入值不能大于 8 mg/L',
      },
      {
        key: 'DOSet',
        value: 2.55,
        field: 'Value',
        en: 'DO set-point (DOSet): The value must go in steps of 0.1 from 0',
        zh: 'DO set-point（DOSet）：输入值须从 0 起按 0.1 的步长取值',
      },
      {
        key: 'DOSet',
        value: 'lots',
        field: 'Value',
        en: 'DO set-point (DOSet): Please enter a number',
        zh: 'DO set-point（DOSet）：请输入数字',
      },
      // The type's control governs a key the device has no data point of.
      {
        key: 'BlowerOnTime',
        value: 10,
        field: 'Value',
        en: 'On time (BlowerOnTime): The value entered cannot be less than 10 seconds',
        zh: 'On time（BlowerOnTime）：输入值不能小于 10 秒',
      },
      {
        key: 'DosingRate',
        value: 55,
        field: 'Value',
        en: 'Dosing frequency (DosingRate): The value entered cannot be greater than 50 HZ',
        zh: 'Dosing frequency（DosingRate）：输入值不能大于 50 HZ',
      },
      {
        key: 'ControlMode',
        value: 7,
        field: 'Value',
        en: 'Control mode (ControlMode): The value must be one of: 0, 1, 2',
        zh: 'Control mode（ControlMode）：取值须为以下之一：0, 1, 2',
      },
      {
        key: 'Baud',
        value: 4800,
        field: 'Value',
        en: 'Baud rate (Baud): The value must be one of: 1200, 9600',
        zh: 'Baud rate（Baud）：取值须为以下之一：1200, 9600',
      },
      {
        key: 'BlowerFault',
        value: 0,
        field: 'Key',
        en: 'The data point Blower fault (BlowerFault) is read-only',
        zh: '数据点 Blower fault（BlowerFault）为只读',
      },
      {
        key: 'NoSuchKey',
        value: 1,
        field: 'Key',
        en: 'The device has no data point “NoSuchKey”',
        zh: '设备没有数据点“NoSuchKey”',
      },
    ];
    for (const r of refusals) {
      for (const [lang, message] of [
        ['en-US', r.en],
        ['zh-CN', r.zh],
      ] as const) {
        const res = await command(r.key, r.value, lang);
        const what = `${r.key} = ${JSON.stringify(r.value)} (${lang})`;
        expect(res.statusCode, what).toBe(400);
        const body = res.json<Body<Errors>>();
        expect(body.data.errors, what).toEqual([{ field: r.field, message }]);
        expect(body.message, what).toBe(`${r.field}: ${message}`);
      }
    }
    expect(await t.app.ctx.db.selectFrom('device_logs').selectAll().where('device_sn', '=', SN).execute()).toEqual([]);

    // A value within every limit goes out. Commands reach the device in the order they were
    // published (QoS 1, one session), so when this one has arrived nothing before it was sent.
    const sent = await command('DOSet', '2.5');
    expect(sent.statusCode).toBe(200);
    const commandId = sent.json<Body<{ CommandId: string; OldValue: string; NewValue: string }>>().data.CommandId;
    await waitFor(() => received.some((m) => m.payload.includes(commandId)), 'the accepted command at the device');
    expect(received.map((m) => JSON.parse(m.payload) as unknown)).toEqual([
      { Id: commandId, Key: 'DOSet', Value: 2.5, Time: expect.any(Number) as number },
    ]);
  });

  it('sends values at the limits, as numbers where the data point is a number or a numeric option', async () => {
    received.length = 0;
    const accepted: [string, unknown, number][] = [
      ['DOSet', 8, 8],
      ['BlowerOnTime', 11, 11],
      ['DosingRate', 50, 50],
      ['ControlMode', '2', 2],
      ['Baud', '9600', 9600],
    ];
    for (const [key, value, sent] of accepted) {
      const res = await command(key, value);
      expect(res.statusCode, `${key} = ${JSON.stringify(value)}: ${res.body}`).toBe(200);
      expect(res.json<Body<{ NewValue: string }>>().data.NewValue).toBe(String(sent));
    }
    await waitFor(() => received.length === accepted.length, 'the accepted commands');
    expect(received.map((m) => (JSON.parse(m.payload) as { Key: string; Value: unknown }).Value)).toEqual(
      accepted.map(([, , sent]) => sent),
    );
  });

  it('checks the value before the device’s state: a bad value to an offline device is still a bad value', async () => {
    await t.app.ctx.db.updateTable('devices').set({ online: 0 }).where('device_sn', '=', SN).execute();
    try {
      expect((await command('DOSet', 9)).statusCode).toBe(400);
      expect((await command('DOSet', 3)).statusCode).toBe(409);
    } finally {
      await t.app.ctx.db.updateTable('devices').set({ online: 1 }).where('device_sn', '=', SN).execute();
    }
  });

  const logOf = async (commandId: string) => {
    const log = await t.json<{ CommandId: string; State: number; Time: number | null }[]>({
      method: 'GET',
      url: `/api/device/${SN}/DeviceLog?PageSize=100`,
      token: admin,
    });
    return log.data.find((l) => l.CommandId === commandId);
  };

  it('marks a command the device does not answer as timed out after COMMAND_TIMEOUT (10 s), and still records a late answer', async () => {
    const res = await command('DOSet', 3);
    expect(res.statusCode).toBe(200);
    const { CommandId, SendTime } = res.json<Body<{ CommandId: string; SendTime: number }>>().data;

    // The clock is the test's: a moment before the time-out nothing changes, at it the command times out.
    // (Commands earlier tests left unanswered time out along the way.)
    const expiredIds = async (now: number) => (await t.app.live.commands.expireOverdue(now)).map((r) => r.command_id);
    expect(await expiredIds(SendTime + 9_999)).not.toContain(CommandId);
    expect(await logOf(CommandId)).toMatchObject({ State: DEVICE_LOG_STATE.sent, Time: null });
    expect(await expiredIds(SendTime + 10_000)).toContain(CommandId);
    expect(await logOf(CommandId)).toMatchObject({ State: DEVICE_LOG_STATE.timedOut, Time: null });
    await waitFor(() => events.some((e) => e.Type === 'timeout' && e.Id === CommandId), 'the time-out event');
    expect(await expiredIds(SendTime + 60_000)).not.toContain(CommandId);

    // The device answers after all: the log tells what really happened.
    await device.publishAsync(topic('ack'), JSON.stringify({ Id: CommandId, Success: true, Value: 3 }), { qos: 1 });
    await waitFor(async () => (await logOf(CommandId))?.State === DEVICE_LOG_STATE.done, 'the late acknowledgement');
  });

  it('times a command out by itself: its timer falls due at COMMAND_TIMEOUT after sending', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let commandId: string;
    try {
      const res = await command('DOSet', 4);
      expect(res.statusCode).toBe(200);
      commandId = res.json<Body<{ CommandId: string }>>().data.CommandId;
      await vi.advanceTimersByTimeAsync(9_000);
      expect((await logOf(commandId))?.State).toBe(DEVICE_LOG_STATE.sent);
      await vi.advanceTimersByTimeAsync(1_000);
    } finally {
      vi.useRealTimers();
    }
    await waitFor(async () => (await logOf(commandId))?.State === DEVICE_LOG_STATE.timedOut, 'the time-out');
  });

  it('leaves an answered command done', async () => {
    const res = await command('DOSet', 5);
    const { CommandId, SendTime } = res.json<Body<{ CommandId: string; SendTime: number }>>().data;
    await device.publishAsync(topic('ack'), JSON.stringify({ Id: CommandId, Success: false, Message: 'valve stuck' }), {
      qos: 1,
    });
    await waitFor(async () => (await logOf(CommandId))?.State === DEVICE_LOG_STATE.refusedByDevice, 'the refusal');
    // Consoles hear the refusal with the device's reason.
    await waitFor(() => events.some((e) => e.Type === 'ack' && e.Id === CommandId), 'the ack event');
    expect(events.find((e) => e.Type === 'ack' && e.Id === CommandId)).toMatchObject({ Success: false, Message: 'valve stuck' });
    const expired = await t.app.live.commands.expireOverdue(SendTime + 10_000);
    expect(expired.map((r) => r.command_id)).not.toContain(CommandId);
    expect(await logOf(CommandId)).toMatchObject({ State: DEVICE_LOG_STATE.refusedByDevice });
  });
});
