/**
 * What one instance caches of a device is forgotten when another instance changes it: two
 * servers on one PostgreSQL database. A secret replaced through B is refused at once by A's
 * broker hook (without the change feed A would accept it for up to a minute, from its live
 * directory). A device's alarms opened or cleared by B's ingestion are read again by A at the
 * device's next message (with a shared subscription its messages come to either instance):
 * without the feed A would trust its own minute-old view, miss a code that came back or open a
 * second alarm for one B had opened. A device B saw online and A took offline (its will came to
 * A) is online again when its next message reaches B, not when one happens to reach A. Needs
 * TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createPgDatabase, createTestApp, type TestApp } from './harness.ts';
import { buildDevice, buildType, buildWarnCode, buildWarnType } from './factories.ts';
import { waitFor } from './mqtt-helpers.ts';
import type { ScratchDatabase } from './scratch.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('TEST_DATABASE_URL is not set: the cross-instance cache suite is skipped');

const HOOK = 'hook-secret-0123456789';

describe.skipIf(!pgUrl)('caches across two servers on one PostgreSQL database', () => {
  let scratch: ScratchDatabase;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    scratch = await createPgDatabase();
    const env = { DATABASE_URL: scratch.url, MQTT_HOOK_SECRET: HOOK };
    a = await createTestApp('sqlite', env);
    b = await createTestApp('sqlite', env);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await scratch.drop();
  });

  const authAtA = async (username: string, password: string) =>
    (
      await a.call({
        method: 'POST',
        url: '/api/mqtt/auth',
        headers: { 'x-mqtt-hook-secret': HOOK },
        payload: { clientid: username, username, password },
      })
    ).json<{ result: string }>().result;

  it("forgets a device's old secret on A when B replaces it", async () => {
    const { db } = a.app.ctx;
    const { group_id: groupId } = await db
      .selectFrom('users')
      .select('group_id')
      .where('account', '=', ADMIN.account)
      .executeTakeFirstOrThrow();
    const device = await buildDevice(a.app.ctx, { groupId });
    // A has the device and its secret in its directory now.
    expect(await authAtA(device.sn, device.secret)).toBe('allow');
    const heard: unknown[] = [];
    a.app.live.changes.onChange((change) => heard.push(change));

    const token = await b.login(ADMIN.account, ADMIN.password);
    const res = await b.call({
      method: 'PUT',
      url: `/api/${String(groupId)}/Device/Credential`,
      token,
      payload: { DeviceSn: device.sn },
    });
    expect(res.statusCode, res.body).toBe(200);
    const secret = res.json<{ data: { Password: string } }>().data.Password;

    // A hears of the change (after its own handler has forgotten the device) and refuses the old
    // secret at once, not when its cache would have expired a minute later.
    await waitFor(() => heard.some((c) => JSON.stringify(c) === JSON.stringify({ device: device.sn })), 'A to hear of it');
    expect(await authAtA(device.sn, device.secret)).toBe('deny');
    expect(await authAtA(device.sn, secret)).toBe('allow');
  });

  it("reads a device's alarms again on A when B opened or cleared them", async () => {
    const { db } = a.app.ctx;
    const { group_id: groupId } = await db
      .selectFrom('users')
      .select('group_id')
      .where('account', '=', ADMIN.account)
      .executeTakeFirstOrThrow();
    const type = await buildType(db, { groupId });
    const code = await buildWarnCode(db, { groupId, warnTypeId: await buildWarnType(db, { groupId }) });
    const device = await buildDevice(a.app.ctx, { groupId, typeId: type.id });
    let heardOnA = 0;
    a.app.live.changes.onChange((change) => {
      if (JSON.stringify(change) === JSON.stringify({ alarms: device.sn })) heardOnA += 1;
    });
    let at = Date.now() - 60_000;
    const codes = async (on: typeof a, list: string[]) => {
      at += 1000;
      const outcome = await on.app.live.ingestion.handle(
        {
          address: { kind: 'error', deviceSn: device.sn, groupId },
          payload: Buffer.from(JSON.stringify({ Time: at, Codes: list })),
          retained: false,
        },
        at,
      );
      expect(outcome.ok).toBe(true);
    };
    const active = async () =>
      (
        await db.selectFrom('warns').select(['id', 'code']).where('device_sn', '=', device.sn).where('active', '=', 1).execute()
      ).map((w) => w.code);
    const heard = async (count: number) => {
      await waitFor(() => heardOnA >= count, 'A to hear of the alarms B changed');
    };

    // A opens the code; B, at the device's next message, clears it.
    await codes(a, [code]);
    await codes(b, []);
    expect(await active()).toEqual([]);
    await heard(1);
    // The code comes back, to A: it opens again (A's own view still held it open).
    await codes(a, [code]);
    expect(await active()).toEqual([code]);

    // A reads the device's alarms with none open; B opens the code; the same code reaches A: one alarm, not two.
    await codes(a, []);
    expect(await active()).toEqual([]);
    const before = heardOnA;
    await codes(b, [code]);
    await heard(before + 1);
    await codes(a, [code]);
    expect(await active()).toEqual([code]);
  });

  it('brings a device online on B when A took it offline', async () => {
    const { db } = a.app.ctx;
    const { group_id: groupId } = await db
      .selectFrom('users')
      .select('group_id')
      .where('account', '=', ADMIN.account)
      .executeTakeFirstOrThrow();
    const device = await buildDevice(a.app.ctx, { groupId });
    let heardOnB = false;
    b.app.live.changes.onChange((change) => {
      if (JSON.stringify(change) === JSON.stringify({ offline: device.sn })) heardOnB = true;
    });
    const status = async (on: typeof a, online: 0 | 1) => {
      const outcome = await on.app.live.ingestion.handle({
        address: { kind: 'status', deviceSn: device.sn, groupId },
        payload: Buffer.from(JSON.stringify({ Online: online })),
        retained: false,
      });
      expect(outcome.ok).toBe(true);
    };
    const isOnline = async () =>
      (await db.selectFrom('devices').select('online').where('device_sn', '=', device.sn).executeTakeFirstOrThrow()).online;

    await status(b, 1);
    expect(await isOnline()).toBe(1);
    // Its will reaches A.
    await status(a, 0);
    expect(await isOnline()).toBe(0);
    await waitFor(() => heardOnB, 'B to hear that the device went offline');
    // It comes back, and its first message reaches B.
    await status(b, 1);
    expect(await isOnline()).toBe(1);
  });
});
