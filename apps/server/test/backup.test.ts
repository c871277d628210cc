/**
 * npm run db:backup / db:restore: a consistent copy of the embedded SQLite database taken while
 * the server runs and a device streams into it, and the copy put back with the server stopped.
 * The commands run as real processes with the server's configuration.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';
import { connect } from './mqtt-helpers.ts';
import { buildDevice, buildType } from './factories.ts';
import { openDatabase } from '../src/db/database.ts';

const command = fileURLToPath(new URL('../src/admin/backup.ts', import.meta.url));

const run = (env: Record<string, string>, ...args: string[]) =>
  new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', command, ...args], {
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => {
      resolve({ code, output });
    });
  });

const count = (file: string, table: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return (db.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('backing up and restoring the embedded database', () => {
  let t: TestApp;
  let device: MqttClient;
  let running = true;

  beforeAll(async () => {
    t = await createTestApp('sqlite', { MQTT_PORT: '0', HOST: '127.0.0.1' });
    await t.app.live.start();
  });
  afterAll(async () => {
    await device.endAsync(true).catch(() => undefined);
    if (running) await t.app.close();
    await t.close().catch(() => undefined);
  });

  it('copies the database consistently while a device streams into it, and puts the copy back with the server stopped', async () => {
    const { db } = t.app.ctx;
    const { group_id: groupId } = await db
      .selectFrom('users')
      .select('group_id')
      .where('account', '=', ADMIN.account)
      .executeTakeFirstOrThrow();
    const type = await buildType(db, { groupId, points: [{ key: 'Seq', type: 'readable' }] });
    const built = await buildDevice(t.app.ctx, { groupId, typeId: type.id });
    device = await connect(`mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`, {
      clientId: built.sn,
      username: built.sn,
      password: built.secret,
    });
    const topic = `sluice/${String(groupId)}/${built.sn}/data`;
    const base = Date.now() - 3_600_000;
    let acked = 0;
    const streaming = { stop: false };
    const stream = (async () => {
      for (let seq = 0; !streaming.stop; seq++) {
        await device.publishAsync(topic, JSON.stringify({ Time: base + seq * 1000, Seq: seq }), { qos: 1 });
        acked += 1;
      }
    })();
    while (acked < 50) await new Promise((r) => setTimeout(r, 20));

    const env = { DATA_DIR: t.dataDir };
    const copy = path.join(t.dataDir, 'copy.db');
    const ackedBefore = acked;
    const backup = await run(env, '--to', copy);
    const ackedAfter = acked;
    streaming.stop = true;
    await stream;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('uploads');
    // With uploads in a bucket, the backup says so instead.
    const inBucket = await run({ ...env, STORAGE: 's3', S3_BUCKET: 'sluice-uploads' }, '--to', path.join(t.dataDir, 'copy2.db'));
    expect(inBucket.code, inBucket.output).toBe(0);
    expect(inBucket.output).toContain('in the bucket sluice-uploads');
    // The copy holds what was committed before the command started, and nothing after it finished.
    const stored = count(copy, 'telemetry_raw');
    expect(stored).toBeGreaterThanOrEqual(ackedBefore);
    expect(stored).toBeLessThanOrEqual(ackedAfter + 1);
    expect(count(copy, 'devices')).toBe(1);
    // An existing file is never overwritten.
    expect((await run(env, '--to', copy)).code).toBe(1);

    // A device added after the backup; the restore must take the database back to the copy.
    await buildDevice(t.app.ctx, { groupId });
    const refused = await run(env, '--from', copy);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain('stop it first');

    await device.endAsync(true);
    await t.app.close();
    running = false;
    const restored = await run(env, '--from', copy);
    expect(restored.code, restored.output).toBe(0);
    expect(readdirSync(t.dataDir).some((f) => f.startsWith('sluice.db.before-restore-'))).toBe(true);
    expect(count(path.join(t.dataDir, 'sluice.db'), 'devices')).toBe(1);
    // The server opens the restored database (its migrations are all there).
    const database = await openDatabase({ dataDir: t.dataDir });
    const points = await database.db
      .selectFrom('telemetry_raw')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(points.n).toBe(stored);
    await database.close();
  });

  it('refuses a file that is not a Sluice database, and PostgreSQL (its own tools)', async () => {
    const env = { DATA_DIR: t.dataDir };
    const notDb = path.join(t.dataDir, 'not.db');
    new DatabaseSync(notDb).close();
    const bad = await run(env, '--from', notDb);
    expect(bad.code).toBe(1);
    expect(bad.output).toContain('not a Sluice database');
    const pg = await run({ ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, '--to', path.join(t.dataDir, 'x.db'));
    expect(pg.code).toBe(1);
    expect(pg.output).toContain('pg_dump');
    expect(existsSync(path.join(t.dataDir, 'x.db'))).toBe(false);
  });
});
