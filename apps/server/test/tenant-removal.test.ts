/**
 * Removing a tenant (DELETE group/{id}): only the platform administrator, only with the group's
 * code typed again, never the platform's own group; then every row of the group goes in one
 * transaction, its sessions end, its connected devices are disconnected, and no other tenant's
 * row changes. On SQLite and PostgreSQL, with the real broker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { sql } from 'kysely';
import { ADMIN, createTestApp, databaseKinds, fieldsOf, type Body, type TestApp, type Users } from './harness.ts';
import {
  buildClient,
  buildFullType,
  buildSites,
  buildTenant,
  buildUser,
  buildWarnCode,
  buildWarnType,
  unique,
} from './factories.ts';
import { declaredSchema } from './schema.ts';
import { closed, connect, waitFor } from './mqtt-helpers.ts';
import { deletionOrder } from '../src/modules/groups/tenant-removal.repository.ts';

describe('the order of removal', () => {
  it('deletes the rows that refer to others before those they refer to', () => {
    const refs = new Map([
      ['warn_codes', new Set(['warn_types', 'groups'])],
      ['warn_types', new Set(['groups'])],
      ['type_statistics', new Set(['data_defines', 'device_types'])],
      ['data_defines', new Set<string>()],
      ['device_types', new Set<string>()],
      ['devices', new Set<string>()],
    ]);
    const order = deletionOrder(refs);
    expect(order.indexOf('warn_codes')).toBeLessThan(order.indexOf('warn_types'));
    expect(order.indexOf('type_statistics')).toBeLessThan(order.indexOf('data_defines'));
    expect(order.indexOf('type_statistics')).toBeLessThan(order.indexOf('device_types'));
    expect([...order].sort()).toEqual([...refs.keys()].sort());
  });
});

describe.each(databaseKinds)('removing a tenant on %s', (kind) => {
  let t: TestApp;
  let u: Users;
  const devices: MqttClient[] = [];
  const groupTables = Object.entries(declaredSchema())
    .filter(([, columns]) => 'group_id' in columns)
    .map(([table]) => table);

  /** Rows per table of every group but `groupId`, and of `groupId`. */
  const census = async (groupId: number) => {
    const others = new Map<string, string>();
    const its = new Map<string, number>();
    for (const table of groupTables) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)} where group_id <> ${groupId}`.execute(
        t.app.ctx.db,
      );
      others.set(
        table,
        rows.rows
          .map((row) => JSON.stringify(row))
          .sort()
          .join('\n'),
      );
      const mine = await sql<{
        n: number | string;
      }>`select count(*) as n from ${sql.table(table)} where group_id = ${groupId}`.execute(t.app.ctx.db);
      its.set(table, Number(mine.rows[0]?.n ?? 0));
    }
    const sessions = await t.app.ctx.db.selectFrom('sessions').select('token_hash').orderBy('token_hash').execute();
    return { others, its, sessions: sessions.map((s) => s.token_hash) };
  };

  /** A tenant holding users, sites, a connected device with history, types, alarms' codes, a client and notifications. */
  const fullTenant = async () => {
    const { db, secrets } = t.app.ctx;
    const tenant = await buildTenant(db);
    const groupId = tenant.groupId;
    const bossToken = await t.login(tenant.account, tenant.password);
    const operator = await buildUser(db, { groupId, roles: ['Operator'] });
    const operatorToken = await t.login(operator.account, operator.password);
    const type = await buildFullType(db, { groupId });
    const warnType = await buildWarnType(db, { groupId });
    await buildWarnCode(db, { groupId, warnTypeId: warnType, dataKey: 'Inflow' });
    await buildClient(db, { groupId });
    const sn = `SLRM${unique('').slice(-8).toUpperCase().padStart(8, '0')}`;
    const sites = await buildSites(t.app.ctx, {
      groupId,
      tree: {
        client: 'Client node',
        projects: [{ name: 'Project', stations: [{ name: 'Station', devices: [{ sn, typeId: type.id }] }] }],
      },
    });
    const { id: channel } = await db
      .insertInto('notify_channels')
      .values({
        group_id: groupId,
        name: 'Webhook',
        kind: 'webhook',
        url: 'https://hooks.example.cn/a',
        secret: secrets.seal('x'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('notify_rules')
      // Of no warn type: no delivery is queued while the test counts rows.
      .values({ group_id: groupId, name: 'None', channel_id: channel, type_ids: '987654', project_ids: '' })
      .execute();
    const device = await connect(`mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`, {
      clientId: sn,
      username: sn,
      password: sites.devices.get(sn)?.secret ?? '',
      reconnectPeriod: 0,
    });
    devices.push(device);
    await device.publishAsync(`sluice/${String(groupId)}/${sn}/data`, JSON.stringify({ Inflow: 12.5 }), { qos: 1 });
    await waitFor(
      async () =>
        (await db.selectFrom('telemetry_series').select('id').where('group_id', '=', groupId).executeTakeFirst()) !== undefined,
      'the device’s history stored',
    );
    return { tenant, groupId, bossToken, operatorToken, device };
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0', MQTT_PORT: '0', HOST: '127.0.0.1' });
    await t.app.live.start();
    u = await t.signInUsers();
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.endAsync(true).catch(() => undefined)));
    await t.close();
  });

  it('tells the platform administrator what a group holds, and no one else', async () => {
    const { groupId, bossToken } = await fullTenant();
    const url = `/api/group/${String(groupId)}/contents`;
    const contents = await t.json<{ Users: number; Devices: number; Sites: number; Clients: number }>({
      method: 'GET',
      url,
      token: u.admin,
    });
    expect(contents.data).toEqual({ Users: 2, Devices: 1, Sites: 3, Clients: 1 });
    expect((await t.call({ method: 'GET', url, token: bossToken })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/group/987654/contents', token: u.admin })).statusCode).toBe(404);
  });

  it('removes a group and all it holds once its code is typed again: sessions end, devices disconnect, other tenants untouched', async () => {
    const { tenant, groupId, bossToken, operatorToken, device } = await fullTenant();
    const url = `/api/group/${String(groupId)}`;
    const before = await census(groupId);
    expect(before.its.get('devices')).toBe(1);
    expect(before.its.get('telemetry_series')).toBeGreaterThan(0);

    // Refused: a wrong code (naming the field, in the caller's language), the group's own administrator, no session.
    const wrong = await t.call({ method: 'DELETE', url, token: u.admin, payload: { Code: 'not-it' }, lang: 'zh-CN' });
    expect(wrong.statusCode).toBe(400);
    expect(fieldsOf(wrong)).toEqual(['Code']);
    expect(wrong.json<Body>().message).toBe(`Code: 请输入集团编码“${tenant.code}”以确认`);
    expect((await t.call({ method: 'DELETE', url, token: bossToken, payload: { Code: tenant.code } })).statusCode).toBe(403);
    expect((await t.call({ method: 'DELETE', url, payload: { Code: tenant.code } })).statusCode).toBe(401);
    const missing = await t.call({ method: 'DELETE', url, token: u.admin, payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(fieldsOf(missing)).toEqual(['Code']);
    expect(await census(groupId)).toEqual(before);

    const removed = await t.call({ method: 'DELETE', url, token: u.admin, payload: { Code: tenant.code.toUpperCase() } });
    expect(removed.statusCode).toBe(200);
    expect(await closed(device)).toBe(true);
    const after = await census(groupId);
    expect([...after.its].filter(([, n]) => n > 0)).toEqual([]);
    expect(after.others).toEqual(before.others);
    // The tenant's sessions are gone with its users; everyone else's stay.
    expect(before.sessions.filter((s) => !after.sessions.includes(s))).toHaveLength(2);
    expect(after.sessions.every((s) => before.sessions.includes(s))).toBe(true);
    const { db } = t.app.ctx;
    const left = await db
      .selectFrom('telemetry_raw')
      .select('series_id')
      .where('series_id', 'not in', db.selectFrom('telemetry_series').select('id'))
      .execute();
    expect(left).toEqual([]);
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token: bossToken })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token: operatorToken })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url, token: u.admin })).statusCode).toBe(404);
    // Its administrator cannot sign in; its code is free for a new group.
    expect(
      (await t.call({ method: 'POST', url: '/api/User', payload: { Account: tenant.account, Password: tenant.password } }))
        .statusCode,
    ).not.toBe(200);
    expect((await t.call({ method: 'DELETE', url, token: u.admin, payload: { Code: tenant.code } })).statusCode).toBe(404);
  });

  it('never removes the platform’s own group', async () => {
    const mine = await t.json<{ GroupId: number }>({ method: 'GET', url: '/api/user/myinfo', token: u.admin });
    const group = await t.json<{ Code: string }>({
      method: 'GET',
      url: `/api/group/${String(mine.data.GroupId)}`,
      token: u.admin,
    });
    const res = await t.call({
      method: 'DELETE',
      url: `/api/group/${String(mine.data.GroupId)}`,
      token: u.admin,
      payload: { Code: group.data.Code },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json<Body>().message).toBe('The platform’s own group cannot be deleted');
    expect(
      (await t.call({ method: 'POST', url: '/api/User', payload: { Account: ADMIN.account, Password: ADMIN.password } }))
        .statusCode,
    ).toBe(200);
  });
});
