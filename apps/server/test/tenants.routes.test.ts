/**
 * Issue 18 (tenants, registration, client page, avatar, watermark): the platform administrator
 * edits groups, a group's administrator activates or refuses registrations, avatars stay inside
 * their group, and a client's projects, stations, devices and statistics are found by its ClientId.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  createTestApp,
  databaseKinds,
  EXE,
  fieldsOf,
  multipartFile,
  PNG,
  JPEG,
  OTHER_TENANT,
  type Body,
  type TestApp,
  type Users,
} from './harness.ts';
import type { RegionStatisticsDto } from '@sluice/shared/statistics.schema';
import { buildClient, buildDevice, buildProject, defaultRole, unique } from './factories.ts';

interface Group {
  Id: number;
  GroupName: string;
  Code: string;
  Description: string;
  Logo: string;
  Watermark: boolean;
}

describe.each(databaseKinds)('tenants, registrations, avatars and clients on %s', (kind) => {
  let t: TestApp;
  let u: Users;
  let groupId: number;
  beforeAll(async () => {
    t = await createTestApp(kind);
    u = await t.signInUsers();
    groupId = (await t.json<{ GroupId: number }>({ method: 'GET', url: '/api/user/myinfo', token: u.admin })).data.GroupId;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('groups', () => {
    it('lets the platform administrator edit a group, and refuses everyone else', async () => {
      const body = {
        Id: u.other.groupId,
        GroupName: 'Other Water 2',
        Code: 'otherwater2',
        Description: 'renamed',
        Watermark: false,
      };
      for (const token of [u.operator, u.otherAdmin]) {
        const refused = await t.call({ method: 'PUT', url: '/api/Group/Update', token, payload: body });
        expect(refused.statusCode).toBe(403);
      }
      expect((await t.call({ method: 'PUT', url: '/api/Group/Update', payload: body })).statusCode).toBe(401);
      const res = await t.call({ method: 'PUT', url: '/api/Group/Update', token: u.admin, payload: body });
      expect(res.statusCode).toBe(200);
      const group = await t.json<Group>({ method: 'GET', url: `/api/group/${String(u.other.groupId)}`, token: u.otherAdmin });
      expect(group.data).toMatchObject({
        GroupName: 'Other Water 2',
        Code: 'otherwater2',
        Description: 'renamed',
        Watermark: false,
      });
      // Back as it was, so the other tests find the tenant by its code.
      await t.call({
        method: 'PUT',
        url: '/api/Group/Update',
        token: u.admin,
        payload: { ...body, GroupName: OTHER_TENANT.groupName, Code: OTHER_TENANT.code, Watermark: true },
      });
    });

    it('refuses a taken name, a bad code and an unknown group, naming the field', async () => {
      const own = (await t.json<Group>({ method: 'GET', url: `/api/group/${String(groupId)}`, token: u.admin })).data;
      const taken = await t.call({
        method: 'PUT',
        url: '/api/Group/Update',
        token: u.admin,
        lang: 'en-US',
        payload: { Id: u.other.groupId, GroupName: own.GroupName, Code: 'fresh-code' },
      });
      expect(taken.statusCode).toBe(409);
      expect(taken.json<Body>().message).toContain(own.GroupName);
      const badCode = await t.call({
        method: 'PUT',
        url: '/api/Group/Update',
        token: u.admin,
        payload: { Id: u.other.groupId, GroupName: 'X', Code: 'a b' },
      });
      expect(badCode.statusCode).toBe(400);
      expect(fieldsOf(badCode)).toContain('Code');
      const unknown = await t.call({
        method: 'PUT',
        url: '/api/Group/Update',
        token: u.admin,
        payload: { Id: 999999, GroupName: 'Nobody', Code: 'nobody' },
      });
      expect(unknown.statusCode).toBe(404);
      const after = (await t.json<Group>({ method: 'GET', url: `/api/group/${String(u.other.groupId)}`, token: u.admin })).data;
      expect(after.GroupName).toBe(OTHER_TENANT.groupName);
    });

    it("lets a group's administrator turn its own watermark off and on, not an operator", async () => {
      expect(
        (await t.call({ method: 'PUT', url: '/api/group/watermark', token: u.operator, payload: { Watermark: false } }))
          .statusCode,
      ).toBe(403);
      const off = await t.call({
        method: 'PUT',
        url: '/api/group/watermark',
        token: u.otherAdmin,
        payload: { Watermark: false },
      });
      expect(off.json<Body<Group>>().data).toMatchObject({ Id: u.other.groupId, Watermark: false });
      const mine = await t.json<Group>({ method: 'GET', url: `/api/group/${String(groupId)}`, token: u.operator });
      expect(mine.data.Watermark).toBe(true);
      const on = await t.call({ method: 'PUT', url: '/api/group/watermark', token: u.otherAdmin, payload: { Watermark: true } });
      expect(on.json<Body<Group>>().data.Watermark).toBe(true);
    });

    it("lets the platform administrator upload another group's logo; a group's administrator only their own", async () => {
      const upload = multipartFile(PNG, 'logo.png', 'image/png');
      const res = await t.call({
        method: 'PUT',
        url: `/api/group/logo?GroupId=${String(u.other.groupId)}`,
        token: u.admin,
        ...upload,
      });
      expect(res.statusCode).toBe(200);
      const logo = res.json<Body<{ Logo: string }>>().data.Logo;
      const other = await t.json<Group>({ method: 'GET', url: `/api/group/${String(u.other.groupId)}`, token: u.otherAdmin });
      expect(other.data.Logo).toBe(logo);
      const folder = path.join(t.dataDir, 'uploads', 'group-logo');
      const before = await readdir(folder);
      const refused = await t.call({
        method: 'PUT',
        url: `/api/group/logo?GroupId=${String(groupId)}`,
        token: u.otherAdmin,
        ...multipartFile(PNG, 'logo.png', 'image/png'),
      });
      expect(refused.statusCode).toBe(403);
      expect(await readdir(folder)).toEqual(before);
      const mine = await t.json<Group>({ method: 'GET', url: `/api/group/${String(groupId)}`, token: u.admin });
      expect(mine.data.Logo).not.toBe(logo);
    });
  });

  describe('registrations', () => {
    const register = (account: string, code = OTHER_TENANT.code) =>
      t.call({
        method: 'POST',
        url: '/api/user/Register',
        payload: { Code: code, Account: account, UserName: 'Applicant', Password: 'Apply12345', PasswordAgain: 'Apply12345' },
      });
    const pending = async (token: string) =>
      (await t.json<{ Id: number; Account: string }[]>({ method: 'GET', url: '/api/user?Status=0&PageSize=100', token })).data;
    const signIn = (account: string) =>
      t.call({ method: 'POST', url: '/api/User', lang: 'en-US', payload: { Account: account, Password: 'Apply12345' } });

    it('lists a registration as pending to its group only; activated, the applicant signs in', async () => {
      const account = unique('applicant').toLowerCase();
      expect((await register(account)).statusCode).toBe(202);
      const waiting = await signIn(account);
      expect(waiting.statusCode).toBe(403);
      expect(waiting.json<Body>().message).toBe('This account is not activated yet');
      const row = (await pending(u.otherAdmin)).find((r) => r.Account === account);
      expect(row).toBeDefined();
      expect((await pending(u.admin)).some((r) => r.Account === account)).toBe(false);
      const id = row?.Id ?? 0;
      // Another group's administrator cannot activate it, nor can anyone without user.manage.
      expect(
        (await t.call({ method: 'PUT', url: '/api/user/status', token: u.admin, payload: { Id: id, Status: 1 } })).statusCode,
      ).toBe(404);
      expect(
        (await t.call({ method: 'PUT', url: '/api/user/status', token: u.operator, payload: { Id: id, Status: 1 } })).statusCode,
      ).toBe(403);
      expect((await signIn(account)).statusCode).toBe(403);
      const activated = await t.call({
        method: 'PUT',
        url: '/api/user/status',
        token: u.otherAdmin,
        payload: { Id: id, Status: 1 },
      });
      expect(activated.statusCode).toBe(200);
      expect((await signIn(account)).statusCode).toBe(200);
      expect((await pending(u.otherAdmin)).some((r) => r.Account === account)).toBe(false);
    });

    it('refused, a registration is gone: the applicant cannot sign in and may register again', async () => {
      const account = unique('refused').toLowerCase();
      await register(account);
      const id = (await pending(u.otherAdmin)).find((r) => r.Account === account)?.Id ?? 0;
      expect((await t.call({ method: 'DELETE', url: `/api/user/${String(id)}`, token: u.admin })).statusCode).toBe(404);
      expect((await t.call({ method: 'DELETE', url: `/api/user/${String(id)}`, token: u.otherAdmin })).statusCode).toBe(200);
      expect((await signIn(account)).statusCode).toBe(401);
      await register(account);
      expect((await pending(u.otherAdmin)).some((r) => r.Account === account)).toBe(true);
    });
  });

  describe('avatars', () => {
    const upload = (token: string, file: Buffer, name: string, type: string) =>
      t.call({ method: 'POST', url: '/api/user/Picture', token, lang: 'en-US', ...multipartFile(file, name, type) });
    const folder = () => path.join(t.dataDir, 'uploads', 'avatar');
    const me = async (token: string) =>
      (await t.json<{ Id: number; Picture: string }>({ method: 'GET', url: '/api/user/myinfo', token })).data;

    it('keeps an uploaded avatar for the group: served with its type, private, never to another group or the public', async () => {
      const res = await upload(u.operator, PNG, 'me.png', 'image/png');
      expect(res.statusCode).toBe(200);
      const picture = res.json<Body<{ Picture: string }>>().data.Picture;
      const { Id } = await me(u.operator);
      expect(picture).toMatch(new RegExp(`^/api/user/Picture/${String(Id)}\\?v=[0-9a-f]{32}$`));
      const seen = await t.call({ method: 'GET', url: picture, token: u.admin });
      expect(seen.statusCode).toBe(200);
      expect(seen.headers['content-type']).toBe('image/png');
      expect(seen.headers['x-content-type-options']).toBe('nosniff');
      expect(seen.headers['cache-control']).toMatch(/^private/);
      expect(seen.rawPayload.equals(PNG)).toBe(true);
      expect((await t.call({ method: 'GET', url: picture, token: u.otherAdmin })).statusCode).toBe(404);
      expect((await t.call({ method: 'GET', url: picture })).statusCode).toBe(401);
      const [file] = await readdir(folder());
      expect((await t.call({ method: 'GET', url: `/uploads/avatar/${String(file)}` })).statusCode).toBe(404);
    });

    it('replaces the previous avatar (a JPEG now), and removes it on request', async () => {
      const before = await readdir(folder());
      const res = await upload(u.operator, JPEG, 'me.jpg', 'image/jpeg');
      expect(res.statusCode).toBe(200);
      const after = await readdir(folder());
      expect(after).toHaveLength(before.length);
      expect(after.some((f) => f.endsWith('.jpeg'))).toBe(true);
      const picture = (await me(u.operator)).Picture;
      expect((await t.call({ method: 'GET', url: picture, token: u.operator })).headers['content-type']).toBe('image/jpeg');
      const removed = await t.call({ method: 'DELETE', url: '/api/user/Picture', token: u.operator });
      expect(removed.json<Body<{ Picture: string }>>().data.Picture).toBe('');
      expect(await readdir(folder())).toHaveLength(before.length - 1);
      expect((await t.call({ method: 'GET', url: picture, token: u.operator })).statusCode).toBe(404);
    });

    it('refuses a program named .png, a picture over 2 MB and a caller without a session, storing nothing', async () => {
      const before = await readdir(folder()).catch(() => []);
      const exe = await upload(u.admin, EXE, 'me.png', 'image/png');
      expect(exe.statusCode).toBe(415);
      expect(exe.json<Body>().message).toBe('Wrong file type: only png, jpeg are supported');
      const big = await upload(u.admin, Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), 'big.png', 'image/png');
      expect(big.statusCode).toBe(413);
      const anonymous = await t.call({ method: 'POST', url: '/api/user/Picture', ...multipartFile(PNG, 'me.png', 'image/png') });
      expect(anonymous.statusCode).toBe(401);
      expect(await readdir(folder()).catch(() => [])).toEqual(before);
      expect((await me(u.admin)).Picture).toBe('');
    });
  });

  describe("a client's page", () => {
    it("finds a client's projects, their stations and devices by ClientId, within the group", async () => {
      const ctx = t.app.ctx;
      const client = await buildClient(ctx.db, { groupId });
      const project = await buildProject(ctx.db, { groupId, clientId: client });
      const station = await buildProject(ctx.db, { groupId, parentId: project });
      const elsewhere = await buildProject(ctx.db, { groupId, parentId: await buildProject(ctx.db, { groupId }) });
      const device = await buildDevice(ctx, { groupId, projectId: station });
      await buildDevice(ctx, { groupId, projectId: elsewhere });
      const g = String(groupId);
      const nodes = await t.json<{ Id: number }[]>({
        method: 'GET',
        url: `/api/${g}/project?ClientId=${String(client)}`,
        token: u.admin,
      });
      expect(nodes.data.map((n) => n.Id).sort()).toEqual([project, station].sort());
      const sites = await t.json<{ data: { Id: number }[] }>({
        method: 'GET',
        url: `/api/${g}/project/mySite?ClientId=${String(client)}`,
        token: u.admin,
      });
      expect(sites.data.data.map((n) => n.Id)).toEqual([station]);
      const devices = await t.json<{ DeviceSn: string }[]>({
        method: 'GET',
        url: `/api/${g}/Device/MyDevice?ClientId=${String(client)}`,
        token: u.admin,
      });
      expect(devices.data.map((d) => d.DeviceSn)).toEqual([device.sn]);
      // An operator without a grant on the project sees none of it; another group cannot ask at all.
      const operatorView = await t.json<unknown[]>({
        method: 'GET',
        url: `/api/${g}/project?ClientId=${String(client)}`,
        token: u.operator,
      });
      expect(operatorView.data).toEqual([]);
      expect(
        (await t.call({ method: 'GET', url: `/api/${g}/project?ClientId=${String(client)}`, token: u.otherAdmin })).statusCode,
      ).toBe(403);
      const otherG = String(u.other.groupId);
      const theirs = await t.json<unknown[]>({
        method: 'GET',
        url: `/api/${otherG}/Device/MyDevice?ClientId=${String(client)}`,
        token: u.otherAdmin,
      });
      expect(theirs.data).toEqual([]);
    });

    it("scopes the statistics panel's calls to a client, as far as the caller's roles reach, and refuses another group's client", async () => {
      const ctx = t.app.ctx;
      const client = await buildClient(ctx.db, { groupId });
      const operatorRole = await defaultRole(ctx.db, groupId, 'Operator');
      const granted = await buildProject(ctx.db, { groupId, clientId: client, roles: [{ roleId: operatorRole }] });
      const hidden = await buildProject(ctx.db, { groupId, clientId: client });
      const grantedStation = await buildProject(ctx.db, { groupId, parentId: granted });
      const hiddenStation = await buildProject(ctx.db, { groupId, parentId: hidden });
      await buildDevice(ctx, { groupId, projectId: grantedStation, online: true });
      await buildDevice(ctx, { groupId, projectId: hiddenStation });
      // Not the client's: a project of no client, granted to the operator too.
      const other = await buildProject(ctx.db, { groupId, roles: [{ roleId: operatorRole }] });
      await buildDevice(ctx, { groupId, projectId: await buildProject(ctx.db, { groupId, parentId: other }), online: true });
      const g = String(groupId);
      const c = String(client);

      const overview = async (token: string) =>
        (
          await t.json<{ Num: number; OnlineNum: number }>({
            method: 'GET',
            url: `/api/${g}/Device/OverView?ClientId=${c}`,
            token,
          })
        ).data;
      expect(await overview(u.admin)).toMatchObject({ Num: 2, OnlineNum: 1, OfflineNum: 1 });
      expect(await overview(u.operator)).toMatchObject({ Num: 1, OnlineNum: 1, OfflineNum: 0 });

      const region = async (token: string) =>
        (await t.json<RegionStatisticsDto>({ method: 'GET', url: `/api/Device/GetRegionStatisticsDevice?ClientId=${c}`, token }))
          .data;
      const all = await region(u.admin);
      expect(all.Sites.map((s) => s.ProjectId).sort()).toEqual([grantedStation, hiddenStation].sort());
      expect(all.Total).toMatchObject({ DeviceNum: 2, OnlineNum: 1 });
      const mine = await region(u.operator);
      expect(mine.Sites.map((s) => s.ProjectId)).toEqual([grantedStation]);
      expect(mine.Total).toMatchObject({ DeviceNum: 1, OnlineNum: 1 });
      const byProject = await t.json<RegionStatisticsDto>({
        method: 'GET',
        url: `/api/Device/GetRegionStatisticsDevice?ClientId=${c}&By=project`,
        token: u.admin,
      });
      expect(byProject.data.Sites.map((s) => s.ProjectId).sort()).toEqual([granted, hidden].sort());
      const range = 'Begin=2025-01-01&End=2025-01-02';
      expect(
        (await t.call({ method: 'GET', url: `/api/${g}/DeviceStatisticsData?${range}&ClientId=${c}`, token: u.operator }))
          .statusCode,
      ).toBe(200);

      // Another group's client, or none at all: not found, in every call.
      const theirs = String(await buildClient(ctx.db, { groupId: u.other.groupId }));
      for (const id of [theirs, '987654']) {
        for (const url of [
          `/api/${g}/Device/OverView?ClientId=${id}`,
          `/api/Device/GetRegionStatisticsDevice?ClientId=${id}`,
          `/api/${g}/DeviceStatisticsData?${range}&ClientId=${id}`,
          `/api/${g}/DeviceDiscreteStatistics?${range}&ClientId=${id}`,
        ])
          expect((await t.call({ method: 'GET', url, token: u.admin })).statusCode, url).toBe(404);
      }
      expect(
        (await t.call({ method: 'GET', url: `/api/${g}/Device/OverView?ClientId=${c}`, token: u.otherAdmin })).statusCode,
      ).toBe(403);
    });
  });
});
