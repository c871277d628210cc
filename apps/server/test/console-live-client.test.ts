/**
 * The console's own live client (apps/web/src/lib/live: MqClient and LiveStore) against the real
 * server's broker over WebSocket: the configuration of GET /api/Mqtt/Config, values, alarm codes
 * and states into the store, once-only handlers, refusals, and resubscribing after a reconnect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { TopicCodec, type TopicTemplates } from '@sluice/shared/device-protocol';
import type { MqttConfigDto } from '@sluice/shared/telemetry.schema';
import { ADMIN, OPERATOR, createTestApp, type TestApp } from './harness.ts';
import { connect, waitFor } from './mqtt-helpers.ts';
import { buildDevice, buildProject, buildUser, defaultRole } from './factories.ts';
import { MqClient, NO_HANDLER, topicMatches, type MqLog } from '../../web/src/lib/live/mq-client.ts';
import { LiveStore } from '../../web/src/lib/live/live-store.ts';

const SN = 'SL0000000102';

function recordingLog(): MqLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(m),
    warn: (m, detail) => lines.push(detail === undefined ? m : `${m}: ${JSON.stringify(detail)}`),
  };
}

describe('the console live client', () => {
  let t: TestApp;
  let ws: string;
  let tcp: string;
  let admin: string;
  let operator: string;
  let config: MqttConfigDto;
  const devices: MqttClient[] = [];
  const consoles: MqClient[] = [];

  /** The mqtt.js clients the console clients made, to cut their connections as a network loss would. */
  const made: MqttClient[] = [];
  const client = (log: MqLog = recordingLog()) => {
    const c = new MqClient((url, options) => {
      const m = mqtt.connect(url, options);
      made.push(m);
      return m;
    }, log);
    consoles.push(c);
    return c;
  };
  const options = (password: string, username = config.Username) => ({
    url: ws,
    username,
    password,
    connectTimeoutMs: config.ConnectTimeout,
    keepaliveSeconds: config.KeepAlive,
    clean: config.Clean,
    reconnectPeriodMs: 200,
  });
  const secrets = new Map<string, string>();
  const device = async (sn = SN) => {
    const c = await connect(tcp, { clientId: sn, username: sn, password: secrets.get(sn) ?? '' });
    devices.push(c);
    return c;
  };
  const topic = (kind: string, sn = SN) => `sluice/${String(config.GroupId)}/${sn}/${kind}`;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { MQTT_PORT: '0', HOST: '127.0.0.1' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    tcp = `mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`;
    admin = await t.login(ADMIN.account, ADMIN.password);
    // A station the operator's role reaches, with one online device.
    const db = t.app.ctx.db;
    const operatorRole = await defaultRole(db, 1, 'Operator');
    const project = await buildProject(db, { groupId: 1, roles: [{ roleId: operatorRole }] });
    const station = await buildProject(db, { groupId: 1, parentId: project });
    secrets.set(SN, (await buildDevice(t.app.ctx, { groupId: 1, sn: SN, projectId: station, online: true })).secret);
    await buildUser(db, { groupId: 1, ...OPERATOR, roles: [operatorRole] });
    operator = await t.login(OPERATOR.account, OPERATOR.password);
    config = (await t.call({ method: 'GET', url: '/api/Mqtt/Config', token: admin })).json<{ data: MqttConfigDto }>().data;
    ws = `${address.replace('http', 'ws')}${config.Path}`;
  });

  afterAll(async () => {
    for (const c of consoles) c.end();
    await Promise.all(devices.map((d) => d.endAsync(true).catch(() => undefined)));
    await t.close();
  });

  it('matches topics against filters as MQTT does', () => {
    expect(topicMatches('sluice/1/+/data', 'sluice/1/SL1/data')).toBe(true);
    expect(topicMatches('sluice/1/+/data', 'sluice/1/SL1/error')).toBe(false);
    expect(topicMatches('sluice/#', 'sluice/1/SL1/data')).toBe(true);
    expect(topicMatches('sluice/1/+', 'sluice/1/SL1/data')).toBe(false);
  });

  it('connects with the session token, and takes values, alarm codes and states into the store', async () => {
    const store = new LiveStore();
    const codec = new TopicCodec(config.Topics as TopicTemplates);
    const mq = client();
    const states: boolean[] = [];
    mq.onStateChange((connected) => states.push(connected));
    for (const filter of config.Subscriptions) {
      await mq.subscribe(filter, (payload, at, retained) => {
        const address = codec.parse(at);
        if (address) store.receive(address.kind, address.deviceSn, payload, retained);
      });
    }
    await mq.connect(options(admin));
    expect(mq.connected).toBe(true);
    expect(states).toEqual([true]);

    const pump = await device();
    await waitFor(async () => {
      await pump.publishAsync(topic('data'), JSON.stringify({ Time: Date.now(), Inflow: 7.25, LiftPump1Run: true }), {
        qos: 1,
      });
      return store.device(SN).data.Inflow === 7.25;
    }, 'the value in the store');
    expect(store.device(SN).data.LiftPump1Run).toBe(1);

    let notified = 0;
    const off = store.subscribeDevice(SN, () => (notified += 1));
    await pump.publishAsync(topic('error'), JSON.stringify({ Codes: ['E101'] }), { qos: 1 });
    await waitFor(() => store.device(SN).state === 2, 'online with warning');
    expect(store.device(SN).codes).toContain('E101');
    await pump.publishAsync(topic('error'), JSON.stringify({ Codes: [] }), { qos: 1 });
    await waitFor(() => store.device(SN).state === 1, 'the warning cleared');
    expect(store.device(SN).codes).toEqual([]);
    expect(notified).toBeGreaterThan(0);
    off();

    await pump.publishAsync(topic('status'), JSON.stringify({ Online: 0 }), { qos: 1, retain: true });
    await waitFor(() => store.device(SN).state === 0, 'offline');
    expect(store.stateSnapshot().get(SN)).toBe(0);
    await pump.publishAsync(topic('status'), JSON.stringify({ Online: 1 }), { qos: 1, retain: true });
    await waitFor(() => store.device(SN).state === 1, 'online again');
  });

  it('refuses a subscription without a handler, and calls a once-only handler once', async () => {
    const mq = client();
    await mq.connect(options(operator, OPERATOR.account));
    await expect(mq.subscribe(topic('data'), undefined as never)).rejects.toThrow(NO_HANDLER);
    const once: unknown[] = [];
    const always: unknown[] = [];
    await mq.subscribe(topic('data'), (p) => once.push(p), { once: true });
    await mq.subscribe(topic('data'), (p) => always.push(p));
    const pump = await device();
    await waitFor(async () => {
      await pump.publishAsync(topic('data'), JSON.stringify({ Time: Date.now(), Inflow: always.length }), { qos: 1 });
      return always.length >= 3;
    }, 'three messages');
    expect(once).toHaveLength(1);
  });

  it('rejects a connection with a bad token with the broker’s message, and logs a refused subscription', async () => {
    await expect(client().connect(options('not-a-token'))).rejects.toThrow(/Not authorized|Bad username or password/i);
    const log = recordingLog();
    const mq = client(log);
    await mq.connect(options(operator, OPERATOR.account));
    await expect(mq.subscribe('sluice/999999/+/data', () => undefined)).rejects.toThrow(/refused|Subscribe error/);
    expect(log.lines.some((l) => l.startsWith('Message queue: subscribe failed'))).toBe(true);
  });

  it('logs the connection loss, reconnects, subscribes to every topic again and keeps receiving', async () => {
    const log = recordingLog();
    const mq = client(log);
    const received: unknown[] = [];
    const changes: [boolean, boolean][] = [];
    mq.onStateChange((connected, reconnected) => changes.push([connected, reconnected]));
    await mq.subscribe(topic('data'), (p) => received.push(p));
    await mq.connect(options(admin));
    made.at(-1)?.stream.destroy();
    await waitFor(() => changes.some(([c]) => !c), 'the drop');
    await waitFor(() => changes.at(-1)?.[0] === true, 'the reconnect');
    expect(changes.at(-1)).toEqual([true, true]);
    expect(log.lines).toContain('Message queue: connection lost');
    const pump = await device();
    await waitFor(async () => {
      await pump.publishAsync(topic('data'), JSON.stringify({ Time: Date.now(), AfterReconnect: 1 }), { qos: 1 });
      return received.some((p) => (p as Record<string, unknown>).AfterReconnect === 1);
    }, 'a message after the reconnect');
  });
});
