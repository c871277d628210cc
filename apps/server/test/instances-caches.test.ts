/**
 * What one instance caches of a device (its secret in the live directory, which MQTT
 * authentication reads) is forgotten when another instance changes it: two servers on one
 * PostgreSQL database, a secret replaced through B, the old one refused at once by A's broker
 * hook (without the change feed A would accept it for up to a minute). Needs TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createPgDatabase, createTestApp, type TestApp } from './harness.ts';
import { buildDevice } from './factories.ts';
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
});
