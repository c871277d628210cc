/**
 * What one instance caches of a device is forgotten when another instance changes it: two
 * servers on one PostgreSQL database. A secret replaced through B is refused at once by A's
 * broker hook (without the change feed A would accept it for up to a minute, from its live
 * directory). A device's alarms opened or cleared by B's ingestion are read again by A at the
 * device's next message (with a shared subscription its messages come to either instance):
 * without the feed A would trust its own minute-old view, miss a code that came back or open a
 * second alarm for one B had opened. A device B saw online and A took offline (its will came to
 * A) is online again when its next message reaches B, not when one happens to reach A. Needs
 * TEST_DATABASE_URL. A data logger connected to A's HJ 212 listener, and the forwarding links A
 * (the job leader) holds, show on B as they are: connected, counted, last sent — and no longer
 * connected once they close.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createPgDatabase, createTestApp, type TestApp } from './harness.ts';
import type { Hj212ForwardDto, Hj212LoggerDto } from '@sluice/shared/hj212.schema';
import { HJ212_CN } from '@sluice/shared/hj212';
import { Hj212Platform } from '@sluice/simulator/hj212-platform';
import { buildDevice, buildType, buildWarnCode, buildWarnType } from './factories.ts';
import { LoggerLink, newLoggerDevice } from './hj212-helpers.ts';
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
    // The same SECRET_KEY on both, as docs/deploy.md requires: a link's password sealed by one is opened by the other.
    const env = {
      DATABASE_URL: scratch.url,
      MQTT_HOOK_SECRET: HOOK,
      HJ212_FORWARD_GRACE: '0',
      SECRET_KEY: randomBytes(32).toString('hex'),
    };
    a = await createTestApp('sqlite', env);
    b = await createTestApp('sqlite', env);
  });
  /** The group of the administrator both servers share. */
  const adminGroup = async () =>
    (await a.app.ctx.db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow())
      .group_id;

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
    const groupId = await adminGroup();
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
    const groupId = await adminGroup();
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
    const groupId = await adminGroup();
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

  it('shows on B the HJ 212 logger connected to A and the forwarding link A holds', async () => {
    const groupId = await adminGroup();
    const tokenA = await a.login(ADMIN.account, ADMIN.password);
    const tokenB = await b.login(ADMIN.account, ADMIN.password);
    const sn = await newLoggerDevice(a, groupId, tokenA, 'XINSTLOGGER1', 'lp1');
    const port = await a.app.hj212.listener.listen(0, '127.0.0.1');
    const platform = await Hj212Platform.start();
    const logger = await LoggerLink.open(port);
    try {
      const onB = async () =>
        (await b.json<Hj212LoggerDto>({ method: 'GET', url: `/api/${String(groupId)}/${sn}/Hj212Logger`, token: tokenB })).data;
      expect(await onB()).toMatchObject({ Connected: false, Received: 0 });
      const at = Math.floor((Date.now() - 5 * 60_000) / 60_000) * 60_000;
      await logger.upload({ mn: 'XINSTLOGGER1', pw: 'lp1' }, HJ212_CN.minute, at, [[['w01018-Avg', '20']]]);
      expect(await onB()).toMatchObject({ Connected: true, Received: 1, Stored: 1 });

      // A forwards (it would lead the jobs; here the test runs its turn): B lists the link as connected.
      const created = await b.call({
        method: 'POST',
        url: '/api/Hj212Forward',
        token: tokenB,
        payload: {
          Name: 'Bureau',
          DeviceSn: sn,
          Host: '127.0.0.1',
          Port: platform.port,
          Mn: 'XPLAT01',
          Password: 'pp1',
          Codes: 'w01018',
          Kinds: 'minute',
          MinuteInterval: 1,
          StartAt: at - 60_000,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const linkOnB = async () =>
        (await b.json<Hj212ForwardDto[]>({ method: 'GET', url: '/api/Hj212Forward', token: tokenB })).data.find(
          (l) => l.DeviceSn === sn,
        );
      expect(await linkOnB()).toMatchObject({ Connected: false, LastSent: null });
      await a.app.hj212.forwarder.tick();
      expect(platform.received.length).toBeGreaterThan(0);
      const link = await linkOnB();
      expect(link).toMatchObject({ Connected: true, Backlog: 0, LastError: '' });
      expect(link?.LastSent).not.toBeNull();

      // The logger hangs up and A stops forwarding: B says so.
      logger.close();
      await waitFor(async () => !(await onB()).Connected, 'B to see the logger gone');
      await a.app.hj212.forwarder.stop();
      expect(await linkOnB()).toMatchObject({ Connected: false });
    } finally {
      logger.close();
      await platform.close();
    }
  });
});
