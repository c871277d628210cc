import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { connect, waitFor } from './mqtt-helpers.ts';
import { buildDevice, buildType } from './factories.ts';

const TOKEN = 'metrics-token-0123456789';

/** The value of one sample in a Prometheus text exposition, e.g. `sluice_mqtt_messages_total{kind="data"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics without METRICS_TOKEN', () => {
  it('are off: /metrics answers 404 and says which setting turns them on', async () => {
    const t = await createTestApp('sqlite');
    try {
      const res = await t.call({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('METRICS_TOKEN');
      expect(res.body).not.toContain('sluice_');
    } finally {
      await t.close();
    }
  });
});

describe.each(databaseKinds)('metrics on %s', (kind) => {
  let t: TestApp;
  let device: MqttClient;
  let g: number;
  let sn: string;
  const scrape = async () => {
    const res = await t.call({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { METRICS_TOKEN: TOKEN, MQTT_PORT: '0', HOST: '127.0.0.1' });
    await t.app.live.start();
    const token = await t.login(ADMIN.account, ADMIN.password);
    g = (await t.call({ method: 'GET', url: '/api/user/myinfo', token })).json<{ data: { GroupId: number } }>().data.GroupId;
    const type = await buildType(t.app.ctx.db, { groupId: g, points: [{ key: 'Level', type: 'readable' }] });
    const built = await buildDevice(t.app.ctx, { groupId: g, typeId: type.id });
    sn = built.sn;
    device = await connect(`mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`, {
      clientId: sn,
      username: sn,
      password: built.secret,
    });
  });
  afterAll(async () => {
    await device.endAsync(true);
    await t.close();
  });

  it('refuses a scrape without the token or with another', async () => {
    expect((await t.call({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await t.call({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('sluice_');
  });

  it('counts what devices send and what the server stores, by topic kind', async () => {
    // The broker registers the device's connection just after its CONNACK.
    await waitFor(async () => sample(await scrape(), 'sluice_mqtt_connected_devices') === 1, 'the device counted connected');
    for (let i = 0; i < 3; i++)
      await device.publishAsync(`sluice/${String(g)}/${sn}/data`, JSON.stringify({ Time: Date.now() - 10_000 + i, Level: i }), {
        qos: 1,
      });
    await device.publishAsync(`sluice/${String(g)}/${sn}/error`, JSON.stringify({ Codes: [] }), { qos: 1 });
    // QoS 1 is acknowledged after the commit: everything is counted by now.
    const after = await scrape();
    expect(sample(after, 'sluice_mqtt_messages_total{kind="data"}')).toBe(3);
    expect(sample(after, 'sluice_mqtt_messages_total{kind="error"}')).toBe(1);
    expect(sample(after, 'sluice_ingest_points_total')).toBe(3);
    expect(sample(after, 'sluice_ingest_messages_total')).toBe(3);
    expect(sample(after, 'sluice_ingest_batch_commit_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'sluice_alarm_evaluations_total{source="error"}')).toBe(1);
    expect(sample(after, 'sluice_ingest_queue_points')).toBe(0);
  });

  it('times HTTP requests by route pattern, not by raw URL', async () => {
    const token = await t.login(ADMIN.account, ADMIN.password);
    const url = `/api/${String(g)}/${sn}/DeviceHisData?BeginTime=${String(Date.now() - 60_000)}&Keys=Level&Type=raw`;
    expect((await t.call({ method: 'GET', url, token })).statusCode).toBe(200);
    const text = await scrape();
    const lines = text.split('\n').filter((l) => l.startsWith('sluice_http_request_duration_seconds_count{'));
    expect(lines.some((l) => l.includes('route="/api/:kind/:deviceSn/DeviceHisData"') && l.includes('status="200"'))).toBe(true);
    expect(text).not.toContain(sn);
  });
});
