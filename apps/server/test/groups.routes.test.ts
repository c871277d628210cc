import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN, OPERATOR, createTestApp, databaseKinds, multipartFile, PNG, type Body, type TestApp } from './harness.ts';
import { buildUser } from './factories.ts';

describe.each(databaseKinds)('group calls on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = await t.login(ADMIN.account, ADMIN.password);
    await buildUser(t.app.ctx.db, { groupId: 1, ...OPERATOR, roles: ['Operator'] });
    operator = await t.login(OPERATOR.account, OPERATOR.password);
  });
  afterAll(async () => {
    await t.close();
  });

  it('lets only a platform administrator add a group, whose administrator can then sign in', async () => {
    const body = { GroupName: 'River Town 河镇', Account: 'rivertown', Code: 'river', Description: 'second tenant' };
    expect((await t.call({ method: 'POST', url: '/api/Group/Add', token: operator, payload: body })).statusCode).toBe(403);
    const res = await t.call({ method: 'POST', url: '/api/Group/Add', token: admin, payload: body });
    expect(res.statusCode).toBe(201);
    const created = res.json<Body<{ Id: number; Password: string }>>().data;
    const token = await t.login('rivertown', created.Password);
    const me = await t.call({ method: 'GET', url: '/api/user/myinfo', token });
    expect(me.json<Body<{ GroupId: number; IsAdmin: boolean; IsPlatformAdmin: boolean }>>().data).toMatchObject({
      GroupId: created.Id,
      IsAdmin: true,
      IsPlatformAdmin: false,
    });
    const duplicate = await t.call({
      method: 'POST',
      url: '/api/Group/Add',
      token: admin,
      payload: { ...body, Account: 'another1' },
    });
    expect(duplicate.statusCode).toBe(409);
  });

  it('finds groups by name: everyone sees only their own, the platform administrator all', async () => {
    const mine = await t.call({ method: 'GET', url: '/api/Group/FindByName?Name=', token: operator });
    expect(mine.json<Body<{ GroupName: string }[]>>().data.map((g) => g.GroupName)).toEqual(['Sluice']);
    const all = await t.call({ method: 'GET', url: '/api/Group/FindByName?Name=&pageSize=50', token: admin });
    expect(all.json<Body>().count).toBeGreaterThanOrEqual(2);
    const search = await t.call({ method: 'GET', url: '/api/Group/FindByName?Name=河镇', token: admin });
    expect(search.json<Body<{ Code: string }[]>>().data.map((g) => g.Code)).toEqual(['river']);
  });

  it('refuses another group’s record to a group member', async () => {
    const all = (await t.call({ method: 'GET', url: '/api/Group/FindByName', token: admin })).json<
      Body<{ Id: number; Code: string }[]>
    >().data;
    const river = all.find((g) => g.Code === 'river');
    expect(river).toBeDefined();
    expect((await t.call({ method: 'GET', url: `/api/group/${String(river?.Id)}`, token: operator })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/group/1', token: operator })).statusCode).toBe(200);
  });

  it('accepts a PNG logo and serves it back as image/png', async () => {
    const upload = multipartFile(PNG, 'logo.png', 'image/png');
    const res = await t.call({ method: 'PUT', url: '/api/group/logo', token: admin, ...upload });
    expect(res.statusCode).toBe(200);
    const url = res.json<Body<{ Logo: string }>>().data.Logo;
    const file = await t.call({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.rawPayload.equals(PNG)).toBe(true);
    const group = await t.call({ method: 'GET', url: '/api/group/1', token: operator });
    expect(group.json<Body<{ Logo: string }>>().data.Logo).toBe(url);
  });

  it('refuses a renamed executable, an oversize logo and a non-administrator, storing nothing', async () => {
    const folder = path.join(t.dataDir, 'uploads', 'group-logo');
    const before = await readdir(folder);
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(200)]);
    const renamed = await t.call({
      method: 'PUT',
      url: '/api/group/logo',
      token: admin,
      lang: 'en-US',
      ...multipartFile(exe, 'logo.png', 'image/png'),
    });
    expect(renamed.statusCode).toBe(415);
    expect(renamed.json<Body>().message).toBe('Wrong file type: only png are supported');
    const huge = Buffer.concat([PNG, Buffer.alloc(300 * 1024)]);
    const oversize = await t.call({
      method: 'PUT',
      url: '/api/group/logo',
      token: admin,
      ...multipartFile(huge, 'big.png', 'image/png'),
    });
    expect(oversize.statusCode).toBe(413);
    const byOperator = await t.call({
      method: 'PUT',
      url: '/api/group/logo',
      token: operator,
      ...multipartFile(PNG, 'logo.png'),
    });
    expect(byOperator.statusCode).toBe(403);
    const none = await t.call({ method: 'PUT', url: '/api/group/logo', token: admin, payload: {} });
    expect(none.statusCode).toBe(400);
    expect(await readdir(folder)).toEqual(before);
  });

  it('serves no file outside the uploads folder', async () => {
    for (const url of [
      '/uploads/../sluice.db',
      '/uploads/group-logo/..%2F..%2Fsluice.db',
      '/uploads/%2e%2e/sluice.db',
      '/uploads/sluice.db',
    ]) {
      const res = await t.call({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
