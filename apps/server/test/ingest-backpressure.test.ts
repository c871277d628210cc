/**
 * Back-pressure: the ingest writer holds at most INGEST_QUEUE_POINTS points. A burst from many
 * devices, each with many messages in flight, far beyond that bound is taken as the database
 * commits — the writer never holds more than the bound, messages wait (unacknowledged) for
 * room — and every acknowledged point is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { connect, waitFor } from './mqtt-helpers.ts';
import { buildDevice, type BuiltDevice } from './factories.ts';

const BOUND = 1000;
const DEVICES = 12;
const MESSAGES = 25;
const POINTS = 100;

describe.each(databaseKinds)('ingest back-pressure on %s', (kind) => {
  let t: TestApp;
  let url: string;
  const devices: BuiltDevice[] = [];
  const clients: MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { INGEST_QUEUE_POINTS: String(BOUND), MAX_UNDEFINED_KEYS: '2000' });
    for (let i = 0; i < DEVICES; i++) devices.push(await buildDevice(t.app.ctx, { groupId: 1 }));
    await t.app.live.start();
    url = `mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`;
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await t.close();
  });

  const storedPoints = async (sns: string[]) => {
    const row = await t.app.ctx.db
      .selectFrom('telemetry_raw')
      .innerJoin('telemetry_series', 'telemetry_series.id', 'telemetry_raw.series_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('telemetry_series.device_sn', 'in', sns)
      .executeTakeFirstOrThrow();
    return row.n;
  };

  it('never holds more than the bound and stores every acknowledged point of a burst far beyond it', async () => {
    const base = Date.now() - 3_600_000;
    let acked = 0;
    await Promise.all(
      devices.map(async (device) => {
        const client = await connect(url, { clientId: device.sn, username: device.sn, password: device.secret });
        clients.push(client);
        // Every message at once: the device does not wait for acknowledgements.
        for (let m = 0; m < MESSAGES; m++) {
          const values: Record<string, number> = { Time: base + m * 1000 };
          for (let p = 0; p < POINTS; p++) values[`K${String(p)}`] = m + p / 100;
          client.publish(`sluice/1/${device.sn}/data`, JSON.stringify(values), { qos: 1 }, (error) => {
            if (!error) acked += 1;
          });
        }
      }),
    );
    await waitFor(() => acked === DEVICES * MESSAGES, 'every message acknowledged');
    const { stats } = t.app.live.writer;
    // The burst (30,000 points) did meet the bound, and the writer kept to it.
    expect(stats.waited).toBeGreaterThan(0);
    expect(stats.peakPoints).toBeLessThanOrEqual(BOUND);
    expect(t.app.live.writer.backlog).toBe(0);
    expect(await storedPoints(devices.map((d) => d.sn))).toBe(DEVICES * MESSAGES * POINTS);
  });

  it('takes a message larger than the whole bound alone', async () => {
    const device = await buildDevice(t.app.ctx, { groupId: 1 });
    const client = await connect(url, { clientId: device.sn, username: device.sn, password: device.secret });
    clients.push(client);
    const values: Record<string, number> = { Time: Date.now() - 60_000 };
    for (let p = 0; p < BOUND + 200; p++) values[`K${String(p)}`] = p;
    await client.publishAsync(`sluice/1/${device.sn}/data`, JSON.stringify(values), { qos: 1 });
    expect(await storedPoints([device.sn])).toBe(BOUND + 200);
  });
});
