/**
 * Live connections follow the session: a browser console authenticates to the embedded broker
 * with the session cookie of its WebSocket upgrade (from the console's own origin only), and its
 * connections close at once when the session ends — sign-out, a disabled user, a password
 * change, a deleted user. Real MQTT-over-WebSocket clients (mqtt.js) against the real broker.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { ADMIN, createTestApp, type Body, type TestApp } from './harness.ts';
import { closed, connect, connectRefused, subscribeQos } from './mqtt-helpers.ts';
import { hashPassword } from '../src/auth/password.ts';

const PASSWORD = 'Live12345';

describe('live connections and the session', () => {
  let t: TestApp;
  let ws: string;
  let origin: string;
  let admin: string;
  let filter: string;
  const clients: MqttClient[] = [];

  /** A signed-in user of the first group: its id and the token of a fresh session. */
  const user = async (account: string) => {
    const id = await t.app.ctx.users.insert({
      group_id: 1,
      account,
      user_name: account,
      email: '',
      phone: '',
      user_type: 0,
      remark: '',
      password_hash: await hashPassword(PASSWORD),
      status: 1,
    });
    return { id, account, token: await t.login(account, PASSWORD) };
  };

  /** A console as a browser opens it: no password, the session cookie and the page's origin on the upgrade. */
  const browserConsole = async (account: string, token: string, pageOrigin = origin) => {
    const client = await connect(ws, {
      username: account,
      wsOptions: { headers: { cookie: `token=${token}`, origin: pageOrigin } },
    });
    clients.push(client);
    return client;
  };
  /** A console of another kind of client: the token as password. */
  const tokenConsole = async (account: string, token: string) => {
    const client = await connect(ws, { username: account, password: token });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await createTestApp('sqlite', { DEMO: '0', MQTT_PORT: '0', HOST: '127.0.0.1' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    origin = address;
    ws = `${address.replace('http', 'ws')}/mqtt`;
    admin = await t.login(ADMIN.account, ADMIN.password);
    filter = t.app.live.topics.groupFilter('data', 1);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true).catch(() => undefined)));
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets a browser console in with the cookie of its upgrade, from the console’s own origin only', async () => {
    const someone = await user('cookieuser');
    const client = await browserConsole(someone.account, someone.token);
    expect(await subscribeQos(client, filter)).toBe(0);
    // Another site's page cannot use the user's cookie (cross-site WebSocket hijacking).
    const hijack = await connectRefused(ws, {
      username: someone.account,
      wsOptions: { headers: { cookie: `token=${someone.token}`, origin: 'https://evil.example' } },
    });
    expect(hijack).toMatch(/Bad username or password/);
    const noSession = await connectRefused(ws, { username: someone.account, wsOptions: { headers: { origin } } });
    expect(noSession).toMatch(/Bad username or password/);
  });

  it('closes a console at once when its user signs out, and lets it back in only with a new session', async () => {
    const someone = await user('signsout');
    const browser = await browserConsole(someone.account, someone.token);
    await subscribeQos(browser, filter);
    const bye = closed(browser);
    const out = await t.call({
      method: 'GET',
      url: '/api/user/logout',
      headers: { cookie: `token=${someone.token}`, 'sec-fetch-site': 'same-origin' },
    });
    expect(out.statusCode).toBe(200);
    expect(await bye).toBe(true);
    expect(
      await connectRefused(ws, {
        username: someone.account,
        wsOptions: { headers: { cookie: `token=${someone.token}`, origin } },
      }),
    ).toMatch(/Bad username or password/);
    const fresh = await t.login(someone.account, PASSWORD);
    expect((await browserConsole(someone.account, fresh)).connected).toBe(true);
  });

  it('closes only the session signed out of, not the user’s other sessions', async () => {
    const someone = await user('twotabs');
    const other = await t.login(someone.account, PASSWORD);
    const first = await tokenConsole(someone.account, someone.token);
    const second = await tokenConsole(someone.account, other);
    const bye = closed(first);
    await t.call({ method: 'GET', url: '/api/user/logout', token: someone.token });
    expect(await bye).toBe(true);
    expect(second.connected).toBe(true);
    expect(await subscribeQos(second, filter)).toBe(0);
  });

  it('closes every console of a user who is disabled, has the password set, or is deleted', async () => {
    const changes = [
      (id: number) => ({ method: 'PUT' as const, url: '/api/user/status', payload: { Id: id, Status: 2 } }),
      (id: number) => ({ method: 'PUT' as const, url: '/api/user/password', payload: { Id: id, Password: 'Other12345' } }),
      (id: number) => ({ method: 'DELETE' as const, url: `/api/user/${String(id)}` }),
    ];
    for (const [i, change] of changes.entries()) {
      const someone = await user(`closed${String(i)}`);
      const browser = await browserConsole(someone.account, someone.token);
      const other = await tokenConsole(someone.account, await t.login(someone.account, PASSWORD));
      const bye = Promise.all([closed(browser), closed(other)]);
      const res = await t.call({ ...change(someone.id), token: admin });
      expect(res.statusCode, res.json<Body>().message).toBe(200);
      expect(await bye, `change ${String(i)}`).toEqual([true, true]);
    }
  });
});
