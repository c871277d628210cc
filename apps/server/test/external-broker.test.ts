/**
 * The whole pipeline through an external broker (a Mosquitto process on a free port, when the
 * binary is installed): the server ingests through a shared subscription, publishes commands
 * there, and picks up again after the broker restarts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { connect, inbox, mosquittoBinary, waitFor } from './mqtt-helpers.ts';
import { freePort } from './scratch.ts';
import { buildDevice, buildType } from './factories.ts';

const binary = mosquittoBinary();
if (!binary) console.warn('Mosquitto is not installed (apt-get install mosquitto): the external-broker suite is skipped');

const SN = 'SL0000000201';

describe.skipIf(!binary).each(databaseKinds)('the pipeline through Mosquitto on %s', (kind) => {
  let t: TestApp;
  let broker: ChildProcess;
  let url: string;
  let conf: string;
  let token: string;
  let g: number;
  const clients: MqttClient[] = [];

  const startBroker = async () => {
    broker = spawn(binary ?? 'mosquitto', ['-c', conf], { stdio: 'ignore' });
    await waitFor(
      () =>
        connect(url, { clientId: `probe-${String(Date.now())}` }).then(
          (c) => c.endAsync().then(() => true),
          () => false,
        ),
      'Mosquitto',
    );
  };
  const stopBroker = async () => {
    const exited = new Promise((r) => broker.once('exit', r));
    broker.kill('SIGTERM');
    await exited;
  };

  beforeAll(async () => {
    const port = await freePort();
    url = `mqtt://127.0.0.1:${String(port)}`;
    t = await createTestApp(kind, { MQTT_URL: url, MQTT_USERNAME: 'sluice-server', MQTT_PASSWORD: 'server-secret-123' });
    conf = path.join(t.dataDir, 'mosquitto.conf');
    await writeFile(conf, `listener ${String(port)} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
    await startBroker();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    token = await t.login(ADMIN.account, ADMIN.password);
    g = (await t.call({ method: 'GET', url: '/api/user/myinfo', token })).json<{ data: { GroupId: number } }>().data.GroupId;
    // A device of a type whose data points take the test's values and a command.
    const db = t.app.ctx.db;
    const type = await buildType(db, {
      groupId: g,
      points: [
        { key: 'Counter', type: 'readable' },
        { key: 'LiftPump1Run', type: 'boolean' },
        { key: 'ControlMode', type: 'enum', format: '{"0":"manual","1":"auto","2":"self-check"}' },
      ],
    });
    await buildDevice(t.app.ctx, { groupId: g, sn: SN, typeId: type.id });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    await t.close();
    await stopBroker();
  });

  const stored = async (key: string) => {
    const res = await t.call({
      method: 'GET',
      url: `/api/${String(g)}/${SN}/DeviceHisData?BeginTime=${String(Date.now() - 3_600_000)}&Keys=${key}&Type=raw`,
      token,
    });
    return res.json<{ data: { Series: { Points: [number, number][] }[] } }>().data.Series[0]?.Points ?? [];
  };

  it('ingests what devices publish there, and sends commands there', async () => {
    // Mosquitto does the devices' authentication here (anonymous in this test).
    const device = await connect(url, { clientId: SN, reconnectPeriod: 500 });
    clients.push(device);
    const commands = inbox(device);
    await device.subscribeAsync(`sluice/${String(g)}/${SN}/cmd`, { qos: 1 });
    for (let i = 0; i < 20; i++)
      await device.publishAsync(
        `sluice/${String(g)}/${SN}/data`,
        JSON.stringify({ Time: Date.now() - 1000 + i, Counter: i, ControlMode: 0 }),
        { qos: 1 },
      );
    await waitFor(async () => (await stored('Counter')).length === 20, 'twenty stored points');
    await waitFor(
      async () =>
        (await t.app.ctx.db.selectFrom('devices').select('online').where('device_sn', '=', SN).executeTakeFirstOrThrow())
          .online === 1,
      'online',
    );

    const sent = await t.call({
      method: 'POST',
      url: `/api/${String(g)}/${SN}/DeviceCommand`,
      token,
      payload: { Key: 'LiftPump1Run', Value: 1 },
    });
    expect(sent.statusCode).toBe(200);
    const command = await waitFor(() => commands[0], 'the command at the device');
    const id = (JSON.parse(command.payload) as { Id: string }).Id;
    await device.publishAsync(`sluice/${String(g)}/${SN}/ack`, JSON.stringify({ Id: id, Success: true }), { qos: 1 });
    await waitFor(
      async () =>
        (await t.app.ctx.db.selectFrom('device_logs').select('state').where('command_id', '=', id).executeTakeFirstOrThrow())
          .state === 1,
      'the acknowledgement',
    );

    await device.publishAsync(`sluice/${String(g)}/${SN}/status`, JSON.stringify({ Online: 0 }), { qos: 1, retain: true });
    await waitFor(
      async () =>
        (await t.app.ctx.db.selectFrom('devices').select('online').where('device_sn', '=', SN).executeTakeFirstOrThrow())
          .online === 0,
      'offline',
    );
  });

  it('resubscribes and goes on ingesting after the broker restarts, not ready meanwhile', async () => {
    expect((await t.call({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await stopBroker();
    const down = await waitFor(async () => {
      const res = await t.call({ method: 'GET', url: '/readyz' });
      return res.statusCode === 503 && res.json<{ broker: string }>();
    }, 'not ready without the broker');
    expect(down.broker).toMatch(/connections to the external broker are down/);
    await startBroker();
    await waitFor(async () => (await t.call({ method: 'GET', url: '/readyz' })).statusCode === 200, 'ready again');
    const device = await connect(url, { clientId: `${SN}-2` });
    clients.push(device);
    await waitFor(async () => {
      await device.publishAsync(`sluice/${String(g)}/${SN}/data`, JSON.stringify({ AfterRestart: 1 }), { qos: 1 });
      return (await stored('AfterRestart')).length > 0;
    }, 'data after the restart');
  });
});
