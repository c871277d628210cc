/**
 * The platform administrator (the first administrator, who creates tenants) is changed only by a
 * platform administrator; broker-wide counters are for platform administrators only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, databaseKinds, type Body, type TestApp } from './harness.ts';
import { hashPassword } from '../src/auth/password.ts';

/** A user of a group with the given role (the group's Administrator role when `admin`). */
async function addUser(t: TestApp, groupId: number, account: string, password: string, admin: boolean): Promise<number> {
  const id = await t.app.ctx.users.insert({
    group_id: groupId,
    account,
    user_name: account,
    email: '',
    phone: '',
    user_type: 0,
    remark: '',
    password_hash: await hashPassword(password),
    status: 1,
  });
  const role = await t.app.ctx.db
    .selectFrom('roles')
    .select('id')
    .where('group_id', '=', groupId)
    .where('is_admin', '=', admin ? 1 : 0)
    .executeTakeFirstOrThrow();
  await t.app.ctx.users.assignRole(id, role.id, groupId);
  return id;
}

describe.each(databaseKinds)('the platform administrator on %s', (kind) => {
  let t: TestApp;
  let platform: { id: number; groupId: number; token: string };
  let peer: { id: number; token: string };

  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0' });
    const row = await t.app.ctx.users.findByAccount(ADMIN.account);
    if (!row) throw new Error('no first administrator');
    platform = { id: row.id, groupId: row.group_id, token: await t.login(ADMIN.account, ADMIN.password) };
    const peerId = await addUser(t, platform.groupId, 'peeradmin', 'Peer12345', true);
    peer = { id: peerId, token: await t.login('peeradmin', 'Peer12345') };
  });
  afterAll(async () => {
    await t.close();
  });

  it('cannot be changed by another administrator of its group, and nothing changes', async () => {
    const attempts = [
      {
        method: 'PUT' as const,
        url: '/api/user/password',
        payload: { Id: platform.id, Password: 'Taken1234', PasswordAgain: 'Taken1234' },
      },
      { method: 'PUT' as const, url: '/api/user/status', payload: { Id: platform.id, Status: 2 } },
      { method: 'PUT' as const, url: '/api/user/Update', payload: { Id: platform.id, UserName: 'Taken', UserType: 0 } },
      { method: 'POST' as const, url: '/api/UserRole/SaveUserRole', payload: { UserId: platform.id, RoleIds: [] } },
      { method: 'DELETE' as const, url: `/api/user/${String(platform.id)}` },
    ];
    for (const attempt of attempts) {
      const res = await t.call({ ...attempt, token: peer.token, lang: 'en-US' });
      expect(res.statusCode, `${attempt.method} ${attempt.url}`).toBe(403);
      expect(res.json<Body>().message).toBe('Only a platform administrator may change the platform administrator’s account');
    }
    // The old password still works, the account is active and keeps its name and roles.
    const token = await t.login(ADMIN.account, ADMIN.password);
    const me = (await t.call({ method: 'GET', url: '/api/user/myinfo', token })).json<
      Body<{ Status: number; UserName: string; IsPlatformAdmin: boolean; Roles: unknown[] }>
    >().data;
    expect(me).toMatchObject({ Status: 1, UserName: ADMIN.account, IsPlatformAdmin: true });
    expect(me.Roles).toHaveLength(1);
    // Its session lives on: nothing revoked it.
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token: platform.token })).statusCode).toBe(200);
  });

  it('still lets the group administrator manage the other users, and the platform administrator manage everyone', async () => {
    const other = await addUser(t, platform.groupId, 'plainuser', 'Plain12345', false);
    const byPeer = await t.call({
      method: 'PUT',
      url: '/api/user/password',
      token: peer.token,
      payload: { Id: other, Password: 'Newer12345', PasswordAgain: 'Newer12345' },
    });
    expect(byPeer.statusCode).toBe(200);
    const byPlatform = await t.call({
      method: 'PUT',
      url: '/api/user/password',
      token: platform.token,
      payload: { Id: peer.id, Password: 'Peer54321', PasswordAgain: 'Peer54321' },
    });
    expect(byPlatform.statusCode).toBe(200);
    await t.login('peeradmin', 'Peer54321');
  });

  it('alone sees the broker-wide counters', async () => {
    const peerToken = await t.login('peeradmin', 'Peer54321');
    expect((await t.call({ method: 'GET', url: '/api/Mqtt/Stats', token: peerToken })).statusCode).toBe(403);
    const stats = await t.call({ method: 'GET', url: '/api/Mqtt/Stats', token: platform.token });
    expect(stats.statusCode).toBe(200);
    expect(stats.json<Body<{ Broker: string }>>().data.Broker).toBe('embedded');
  });
});
