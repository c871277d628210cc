/**
 * Two Sluice servers on one PostgreSQL database and an external Mosquitto, as real processes:
 * devices publish to the broker; the servers ingest through the shared subscription and together
 * store every acknowledged point exactly once; a console signed in on B sees the live data and
 * alarms the servers ingested; a command sent through B reaches the device and its answer is seen
 * on A; killing A loses no acknowledged point (its persistent session's messages are delivered
 * when it comes back) and B keeps serving meanwhile. Needs TEST_DATABASE_URL and Mosquitto;
 * skipped, saying why, without them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { ADMIN, createPgDatabase } from './harness.ts';
import { connect, inbox, mosquittoBinary, startMosquitto, waitFor, type Mosquitto } from './mqtt-helpers.ts';
import { freePort, type ScratchDatabase } from './scratch.ts';
import { buildDevice, buildType, buildWarnCode, buildWarnType } from './factories.ts';
import { openDatabase } from '../src/db/database.ts';
import { createContext } from '../src/app-context.ts';
import { loadConfig } from '../src/config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const binary = mosquittoBinary();
const skipReason = !process.env.TEST_DATABASE_URL
  ? 'TEST_DATABASE_URL is not set'
  : !binary
    ? 'Mosquitto is not installed (apt-get install mosquitto)'
    : undefined;
if (skipReason) console.warn(`${skipReason}: the two-instance suite (PostgreSQL + Mosquitto + two servers) is skipped`);

interface Server {
  port: number;
  child: ChildProcess;
  env: Record<string, string>;
}

function spawnServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.on('data', () => undefined);
  return child;
}

async function ready(port: number): Promise<void> {
  await waitFor(
    async () => {
      const res = await fetch(`http://127.0.0.1:${String(port)}/readyz`).catch(() => undefined);
      return res?.status === 200;
    },
    `the server on ${String(port)} to be ready`,
  );
}

describe.skipIf(skipReason !== undefined)('two servers, PostgreSQL and an external broker', () => {
  let scratch: ScratchDatabase;
  let broker: Mosquitto;
  let brokerUrl: string;
  let a: Server;
  let b: Server;
  const dirs: string[] = [];
  const clients: MqttClient[] = [];

  const start = async (name: string, pgUrl: string): Promise<Server> => {
    const dataDir = await mkdtemp(path.join(tmpdir(), `sluice-two-${name}-`));
    dirs.push(dataDir);
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: pgUrl,
      MQTT_URL: brokerUrl,
      DEMO: '0',
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'error',
      LEADER_RETRY_SECONDS: '1',
      WEB_DIST: path.join(dataDir, 'no-console'),
    };
    const child = spawnServer(env);
    await ready(port);
    return { port, child, env };
  };

  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- the answer's shape is the caller's to name
  const api = async <T>(server: Server, method: string, route: string, body?: unknown, token?: string) => {
    const res = await fetch(`http://127.0.0.1:${String(server.port)}/api${route}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { success: boolean; data: T; count?: number } };
  };
  const signIn = async (server: Server) =>
    (await api<{ Token: string; GroupId: number }>(server, 'POST', '/User', { Account: ADMIN.account, Password: ADMIN.password }))
      .body.data;

  beforeAll(async () => {
    scratch = await createPgDatabase();
    // Anonymous here: the devices' authentication at the broker is not what this suite tests.
    broker = await startMosquitto(['max_queued_messages 100000']);
    brokerUrl = broker.url;
    // One after the other: the first migrates the new database.
    a = await start('a', scratch.url);
    b = await start('b', scratch.url);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    for (const server of [a, b]) server.child.kill('SIGKILL');
    await broker.stop();
    await scratch.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('store every acknowledged point once, serve live data, alarms and commands across instances, and survive losing one', async () => {
    const adminA = await signIn(a);
    const adminB = await signIn(b);
    const g = adminA.GroupId;
    // A device of a type with the points the test sends and commands, and a warn code (built in the shared database).
    const database = await openDatabase({ dataDir: dirs[0] ?? tmpdir(), databaseUrl: scratch.url });
    let sn: string;
    try {
      const ctx = createContext(
        loadConfig({ DATABASE_URL: scratch.url, DATA_DIR: dirs[0] ?? tmpdir() }),
        database.db,
        'postgres',
      );
      const type = await buildType(database.db, {
        groupId: g,
        points: [
          { key: 'Seq', type: 'readable' },
          { key: 'LiftPump1Run', type: 'boolean' },
        ],
      });
      await buildWarnCode(database.db, {
        groupId: g,
        warnTypeId: await buildWarnType(database.db, { groupId: g }),
        code: 'E101',
      });
      sn = (await buildDevice(ctx, { groupId: g, typeId: type.id })).sn;
    } finally {
      await database.close();
    }

    // The console of a user signed in on B: its live client subscribes at the broker B names.
    const config = await api<{ Url?: string }>(b, 'GET', '/Mqtt/Config', undefined, adminB.Token);
    expect(config.status).toBe(200);
    const console_ = await connect(brokerUrl, { clientId: `console-${String(Date.now())}` });
    clients.push(console_);
    const seen = inbox(console_);
    await console_.subscribeAsync([`sluice/${String(g)}/+/data`, `sluice/${String(g)}/+/event`], { qos: 0 });

    const device = await connect(brokerUrl, { clientId: sn, reconnectPeriod: 500 });
    clients.push(device);
    device.on('error', () => undefined);
    const commands = inbox(device);
    await device.subscribeAsync(`sluice/${String(g)}/${sn}/cmd`, { qos: 1 });
    const topic = `sluice/${String(g)}/${sn}/data`;
    const base = Date.now() - 3_600_000;
    const acked = new Set<number>();
    let sent = 0;
    const publish = async (count: number) => {
      const batch = [];
      for (let i = 0; i < count; i++) {
        const seq = sent++;
        batch.push(
          device.publishAsync(topic, JSON.stringify({ Time: base + seq * 1000, Seq: seq }), { qos: 1 }).then(() => {
            acked.add(seq);
          }),
        );
      }
      await Promise.all(batch);
    };
    const storedSeqs = async (server: Server, token: string) => {
      const res = await api<{ Series: { Points: [number, number][] }[] }>(
        server,
        'GET',
        `/${String(g)}/${sn}/DeviceHisData?BeginTime=${String(base - 1)}&EndTime=${String(base + sent * 1000 + 1)}&Keys=Seq&Type=raw&MaxPoints=100000`,
        undefined,
        token,
      );
      return (res.body.data.Series[0]?.Points ?? []).map((p) => p[1]);
    };

    // Both servers ingest through the shared subscription.
    await publish(400);
    await waitFor(async () => (await storedSeqs(b, adminB.Token)).length === acked.size, 'every point stored');
    const once = await storedSeqs(a, adminA.Token);
    expect(new Set(once).size).toBe(once.length);
    expect([...acked].every((seq) => once.includes(seq))).toBe(true);
    const metrics = async (server: Server) => {
      const res = await fetch(`http://127.0.0.1:${String(server.port)}/readyz`);
      return res.status;
    };
    expect([await metrics(a), await metrics(b)]).toEqual([200, 200]);

    // The console signed in on B has the live data, and the alarm opened by whichever server took the error message.
    await waitFor(() => seen.some((m) => m.topic === topic), 'live data at the console');
    await device.publishAsync(`sluice/${String(g)}/${sn}/error`, JSON.stringify({ Codes: ['E101'] }), { qos: 1 });
    await waitFor(
      () => seen.some((m) => m.topic.endsWith('/event') && m.payload.includes('"warn"') && m.payload.includes(sn)),
      'the alarm event at the console',
    );
    const alarms = await waitFor(async () => {
      const res = await api<unknown[]>(b, 'GET', `/Warn?PageNo=1&PageSize=10&DeviceSn=${sn}`, undefined, adminB.Token);
      return (res.body.count ?? 0) > 0 && res.body.count;
    }, 'the alarm listed on B');
    expect(alarms).toBeGreaterThan(0);

    // A command through B reaches the device; its answer is seen on A.
    const command = await waitFor(async () => {
      const res = await api<{ CommandId: string }>(
        b,
        'POST',
        `/${String(g)}/${sn}/DeviceCommand`,
        { Key: 'LiftPump1Run', Value: 1 },
        adminB.Token,
      );
      return res.status === 200 ? res.body : undefined;
    }, 'the command accepted by B');
    expect(command.success).toBe(true);
    const received = await waitFor(() => commands[0], 'the command at the device');
    const id = (JSON.parse(received.payload) as { Id: string }).Id;
    await device.publishAsync(`sluice/${String(g)}/${sn}/ack`, JSON.stringify({ Id: id, Success: true }), { qos: 1 });
    await waitFor(async () => {
      const res = await api<{ CommandId: string; State: number }[]>(
        a,
        'GET',
        `/${String(g)}/${sn}/DeviceLog?PageNo=1&PageSize=20`,
        undefined,
        adminA.Token,
      );
      return res.body.data.some((row) => row.CommandId === id && row.State === 1);
    }, 'the acknowledgement seen on A');

    // A is killed mid-stream; B goes on serving and ingesting its share.
    const streaming = publish(400);
    await waitFor(() => acked.size >= 600, 'the stream under way');
    a.child.kill('SIGKILL');
    await streaming;
    const atKill = (await storedSeqs(b, adminB.Token)).length;
    await publish(100);
    expect((await fetch(`http://127.0.0.1:${String(b.port)}/readyz`)).status).toBe(200);
    await waitFor(async () => (await storedSeqs(b, adminB.Token)).length > atKill, 'B storing after A died');
    // Mosquitto keeps A's share (what it had sent A unacknowledged, and A's turn of the shared
    // subscription since) in A's persistent sessions. A comes back (same host, port and data
    // directory: the same sessions) and stores it.
    a = { ...a, child: spawnServer(a.env) };
    await ready(a.port);
    const all = await waitFor(async () => {
      const stored = await storedSeqs(b, adminB.Token);
      return stored.length >= acked.size && stored;
    }, 'every acknowledged point stored');
    expect([...acked].filter((seq) => !all.includes(seq))).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(sent);
  }, 600_000);
});
