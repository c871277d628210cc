import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, OPERATOR, createTestApp, databaseKinds, type Body, type TestApp } from './harness.ts';
import { createTenant } from '../src/modules/groups/tenancy.service.ts';
import { buildUser } from './factories.ts';

describe.each(databaseKinds)('account calls on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    await buildUser(t.app.ctx.db, { groupId: 1, ...OPERATOR, userName: '张工 Zhang', roles: ['Operator'] });
  });
  afterAll(async () => {
    await t.close();
  });

  it('signs in with the right password and returns a token that works', async () => {
    const res = await t.call({ method: 'POST', url: '/api/User', payload: { Account: 'ADMIN', Password: ADMIN.password } });
    expect(res.statusCode).toBe(200);
    const body = res.json<Body<{ Token: string; IsAdmin: boolean; ExpiresAt: number }>>();
    expect(body.success).toBe(true);
    expect(body.data.IsAdmin).toBe(true);
    expect(body.data.ExpiresAt - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    const me = await t.call({ method: 'GET', url: '/api/user/myinfo', token: body.data.Token });
    expect(me.json<Body<{ Account: string; Roles: { Name: string }[]; GroupName: string }>>().data).toMatchObject({
      Account: 'admin',
      Roles: [{ Name: 'Administrator' }],
      GroupName: 'Sluice',
    });
  });

  it('accepts the legacy lower-case login keys', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/user',
      payload: { account: OPERATOR.account, password: OPERATOR.password },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers an unknown account and a wrong password alike, in the caller’s language', async () => {
    const wrong = await t.call({
      method: 'POST',
      url: '/api/User',
      payload: { Account: 'operator', Password: 'nope12345' },
      lang: 'zh-CN',
    });
    const unknown = await t.call({
      method: 'POST',
      url: '/api/User',
      payload: { Account: 'ghost', Password: 'nope12345' },
      lang: 'zh-CN',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json<Body>().message).toBe('账号或密码错误');
    expect(unknown.json<Body>().message).toBe(wrong.json<Body>().message);
  });

  it('names the missing fields on bad input', async () => {
    const res = await t.call({ method: 'POST', url: '/api/User', payload: { Account: '' }, lang: 'en-US' });
    expect(res.statusCode).toBe(400);
    const body = res.json<Body<{ errors: { field: string; message: string }[] }>>();
    expect(body.data.errors.map((e) => e.field)).toEqual(['Account', 'Password']);
    expect(body.message).toContain('Password: Required');
  });

  it('slows one address that tries many accounts', async () => {
    for (let i = 0; i < 21; i++) {
      await t.call({
        method: 'POST',
        url: '/api/User',
        payload: { Account: `someone${i}`, Password: 'guess1234' },
        remoteAddress: '10.9.9.9',
      });
    }
    const res = await t.call({
      method: 'POST',
      url: '/api/User',
      payload: { Account: OPERATOR.account, Password: OPERATOR.password },
      remoteAddress: '10.9.9.9',
    });
    expect(res.statusCode).toBe(429);
    const elsewhere = await t.call({
      method: 'POST',
      url: '/api/User',
      payload: { Account: OPERATOR.account, Password: OPERATOR.password },
      remoteAddress: '10.9.9.8',
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('requires a session for myinfo and revokes the token on logout', async () => {
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo' })).statusCode).toBe(401);
    const token = await t.login(OPERATOR.account, OPERATOR.password);
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/user/logout', token })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token })).statusCode).toBe(401);
  });

  it('tells each user the operates they may use: the operator its role’s, the administrator all', async () => {
    const me = async (token: string) =>
      (await t.call({ method: 'GET', url: '/api/user/myinfo', token })).json<Body<{ IsAdmin: boolean; Operates: string[] }>>()
        .data;
    const operator = await t.login(OPERATOR.account, OPERATOR.password);
    const mine = await me(operator);
    expect(mine.IsAdmin).toBe(false);
    expect(mine.Operates).toEqual([
      'client.view',
      'device.control',
      'device.view',
      'project.view',
      'records.enter',
      'records.view',
    ]);
    // What myinfo says is what the server enforces.
    expect((await t.call({ method: 'GET', url: '/api/Client', token: operator })).statusCode).toBe(200);
    const add = await t.call({ method: 'POST', url: '/api/Client/Add', token: operator, payload: { ClientName: 'Nope' } });
    expect(add.statusCode).toBe(403);

    const admin = await me(await t.login(ADMIN.account, ADMIN.password));
    expect(admin.IsAdmin).toBe(true);
    expect(admin.Operates).toEqual(
      expect.arrayContaining(['client.manage', 'user.manage', 'role.manage', 'menu.manage', 'system.manage', 'device.control']),
    );
    expect(admin.Operates).not.toEqual(mine.Operates);
  });

  it('exchanges a token for a fresh one and revokes the old', async () => {
    const token = await t.login(OPERATOR.account, OPERATOR.password);
    const res = await t.call({ method: 'POST', url: '/api/user/UserUpdateToken', token });
    const fresh = res.json<Body<{ Token: string }>>().data.Token;
    expect(fresh).not.toBe(token);
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token: fresh })).statusCode).toBe(200);
  });

  it('answers the legacy GetUser with account and token parameters', async () => {
    const token = await t.login(OPERATOR.account, OPERATOR.password);
    const res = await t.call({ method: 'GET', url: `/api/user/GetUser?account=operator&token=${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body<{ Account: string }>>().data.Account).toBe('operator');
    const other = await t.call({ method: 'GET', url: `/api/user/GetUser?account=admin&token=${token}` });
    expect(other.statusCode).toBe(401);
  });

  it('edits the own profile with the mobile and landline rules, changing nothing on bad input', async () => {
    const token = await t.login(OPERATOR.account, OPERATOR.password);
    const bad = await t.call({
      method: 'PUT',
      url: '/api/user',
      token,
      lang: 'zh-CN',
      payload: { UserName: 'New', Phone: '12345678901', Email: 'x@y.cn' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Body>().message).toMatch(/^Phone: /);
    const unchanged = await t.call({ method: 'GET', url: '/api/user/myinfo', token });
    expect(unchanged.json<Body<{ UserName: string }>>().data.UserName).toBe('张工 Zhang');

    const landline = await t.call({
      method: 'PUT',
      url: '/api/user',
      token,
      payload: { UserName: 'Zhang Wei', Phone: '0755-12345678', Email: '' },
    });
    expect(landline.statusCode).toBe(200);
    const mobile = await t.call({
      method: 'PUT',
      url: '/api/user',
      token,
      payload: { UserName: 'Zhang Wei', Phone: '13912345678', Email: 'zw@example.cn' },
    });
    expect(mobile.json<Body<{ Phone: string; Email: string }>>().data).toMatchObject({
      Phone: '13912345678',
      Email: 'zw@example.cn',
    });
    const badEmail = await t.call({
      method: 'PUT',
      url: '/api/user',
      token,
      lang: 'en-US',
      payload: { UserName: 'Zhang Wei', Email: 'not-mail' },
    });
    expect(badEmail.json<Body>().message).toBe('Email: Enter a valid e-mail address');
  });

  it('changes the own password only with the old one, then signs out everywhere', async () => {
    await t.app.ctx.users.insert({
      group_id: 1,
      account: 'changer',
      user_name: 'c',
      email: '',
      phone: '',
      user_type: 0,
      remark: '',
      password_hash: await (await import('../src/auth/password.ts')).hashPassword('Changer123'),
      status: 1,
    });
    const token = await t.login('changer', 'Changer123');
    const wrongOld = await t.call({
      method: 'POST',
      url: '/api/user/password',
      token,
      payload: { OldPassword: 'nope', Password: 'Better456', PasswordAgain: 'Better456' },
    });
    expect(wrongOld.statusCode).toBe(400);
    const mismatch = await t.call({
      method: 'POST',
      url: '/api/user/password',
      token,
      lang: 'en-US',
      payload: { oldPassword: 'Changer123', Password: 'Better456', PasswordAgain: 'Better457' },
    });
    expect(mismatch.json<Body>().message).toBe('PasswordAgain: The two passwords differ');
    const weak = await t.call({
      method: 'POST',
      url: '/api/user/password',
      token,
      lang: 'en-US',
      payload: { oldPassword: 'Changer123', Password: 'onlyletters', PasswordAgain: 'onlyletters' },
    });
    expect(weak.json<Body>().message).toBe('Password: Must contain both letters and digits');
    const done = await t.call({
      method: 'POST',
      url: '/api/user/password',
      token,
      payload: { oldPassword: 'Changer123', Password: 'Better456', PasswordAgain: 'Better456' },
    });
    expect(done.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token })).statusCode).toBe(401);
    await expect(t.login('changer', 'Changer123')).rejects.toThrow();
    await t.login('changer', 'Better456');
  });

  it('lets only an administrator set another user’s password, and only in the own group', async () => {
    const admin = await t.login(ADMIN.account, ADMIN.password);
    const operator = await t.login(OPERATOR.account, OPERATOR.password);
    const operatorId = (await t.call({ method: 'GET', url: '/api/user/myinfo', token: operator })).json<Body<{ Id: number }>>()
      .data.Id;
    const refused = await t.call({
      method: 'PUT',
      url: '/api/user/password',
      token: operator,
      payload: { Id: operatorId, Password: 'Hacked123' },
    });
    expect(refused.statusCode).toBe(403);

    const other = await createTenant(t.app.ctx.db, {
      groupName: `Other ${kind}`,
      code: `other-${kind}`,
      adminAccount: `other${kind}`,
    });
    const crossGroup = await t.call({
      method: 'PUT',
      url: '/api/user/password',
      token: admin,
      payload: { Id: other.adminId, Password: 'Hacked123' },
    });
    expect(crossGroup.statusCode).toBe(404);
    await t.login(`other${kind}`, other.password);

    const ok = await t.call({
      method: 'PUT',
      url: '/api/user/password',
      token: admin,
      payload: { Id: operatorId, Password: 'Reset1234' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token: operator })).statusCode).toBe(401);
    await t.login(OPERATOR.account, 'Reset1234');
    await t.call({
      method: 'PUT',
      url: '/api/user/password',
      token: admin,
      payload: { Id: operatorId, Password: OPERATOR.password },
    });
  });

  it('keeps each user’s theme and language on the server', async () => {
    const token = await t.login(OPERATOR.account, OPERATOR.password);
    const bad = await t.call({ method: 'PUT', url: '/api/user/config', token, payload: { Theme: 'purple' } });
    expect(bad.statusCode).toBe(400);
    await t.call({ method: 'PUT', url: '/api/user/config', token, payload: { Theme: 'dark' } });
    await t.call({ method: 'PUT', url: '/api/user/config', token, payload: { Language: 'zh-CN' } });
    const again = await t.login(OPERATOR.account, OPERATOR.password);
    const me = await t.call({ method: 'GET', url: '/api/user/myinfo', token: again });
    expect(me.json<Body<{ Config: unknown }>>().data.Config).toEqual({ Theme: 'dark', Language: 'zh-CN' });
  });

  it('refuses a disabled user’s live session', async () => {
    const token = await t.login(OPERATOR.account, OPERATOR.password);
    const me = (await t.call({ method: 'GET', url: '/api/user/myinfo', token })).json<Body<{ Id: number; GroupId: number }>>()
      .data;
    await t.app.ctx.users.update(me.Id, me.GroupId, { status: 2 });
    expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token })).statusCode).toBe(401);
    await t.app.ctx.users.update(me.Id, me.GroupId, { status: 1 });
  });
});
