/**
 * A console's live data over WebSocket: each MQTT packet the broker sends it travels as one
 * WebSocket message. (mqtt-packet writes a packet in pieces; the broker's WebSocket stream sent
 * each piece as a message of its own, one socket write and loop turn each — three or four a
 * message for a console watching a fleet.) A raw WebSocket client, to see the messages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { MqttClient } from 'mqtt';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';
import { buildDevice } from './factories.ts';
import { connect, waitFor } from './mqtt-helpers.ts';

/** MQTT's remaining length: 7 bits a byte, low first. */
function remainingLength(n: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 128;
    bytes.push(byte);
  } while (n > 0);
  return bytes;
}
const text = (s: string) => {
  const b = Buffer.from(s);
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 255]), b]);
};
const packet = (first: number, body: Buffer) => Buffer.concat([Buffer.from([first, ...remainingLength(body.length)]), body]);

describe('MQTT over WebSocket', () => {
  let t: TestApp;
  let wsUrl: string;
  let mqttUrl: string;
  let token: string;
  let g: number;
  const devices: MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp('sqlite', { DEMO: '0', MQTT_PORT: '0', HOST: '127.0.0.1', MAX_UNDEFINED_KEYS: '100' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    wsUrl = `${address.replace('http', 'ws')}/mqtt`;
    mqttUrl = `mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`;
    token = await t.login(ADMIN.account, ADMIN.password);
    g = (await t.json<{ GroupId: number }>({ method: 'GET', url: '/api/user/myinfo', token })).data.GroupId;
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.endAsync(true)));
    await t.close();
  });

  it('sends a console each packet as one WebSocket message', async () => {
    // (A console sees the devices visible to its user when it connected.)
    const built = await buildDevice(t.app.ctx, { groupId: g });
    const viewer = new WebSocket(wsUrl, 'mqtt');
    const frames: Buffer[] = [];
    viewer.on('message', (data: Buffer) => frames.push(data));
    await new Promise((resolve, reject) => {
      viewer.once('open', resolve);
      viewer.once('error', reject);
    });
    // CONNECT (MQTT 3.1.1, clean session, user name and the session token as password), then SUBSCRIBE.
    const connectBody = Buffer.concat([
      text('MQTT'),
      Buffer.from([4, 0x80 | 0x40 | 0x02, 0, 60]),
      text('frames-console'),
      text(ADMIN.account),
      text(token),
    ]);
    viewer.send(packet(0x10, connectBody));
    await waitFor(() => frames.length >= 1, 'CONNACK');
    expect([...(frames[0] ?? [])]).toEqual([0x20, 2, 0, 0]);
    viewer.send(
      packet(0x82, Buffer.concat([Buffer.from([0, 1]), text(t.app.live.topics.groupFilter('data', g)), Buffer.from([0])])),
    );
    await waitFor(() => frames.length >= 2, 'SUBACK');
    expect(frames[1]?.[0]).toBe(0x90);

    const device = await connect(mqttUrl, { clientId: built.sn, username: built.sn, password: built.secret });
    devices.push(device);
    const payload = JSON.stringify({ Time: Date.now(), Flow: 12.5, Cod: 31 });
    await device.publishAsync(`sluice/${String(g)}/${built.sn}/data`, payload, { qos: 1 });

    await waitFor(() => frames.length >= 3, 'the data message');
    const publish = frames[2] ?? Buffer.alloc(0);
    // A PUBLISH, whole: its remaining length is what follows its fixed header in this one message.
    expect(publish[0]).toBe(0x30);
    const topic = `sluice/${String(g)}/${built.sn}/data`;
    const body = Buffer.concat([text(topic), Buffer.from(payload)]);
    expect(publish.equals(packet(0x30, body))).toBe(true);
    viewer.close();
  });
});
