import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR, createTestApp, databaseKinds, fieldsOf, type Body, type CreatedTenant, type TestApp } from './harness.ts';

describe.each(databaseKinds)('administration on %s', (kind) => {
  let t: TestApp;
  let admin: string;
  let operator: string;
  let otherAdmin: string;
  let other: CreatedTenant;

  beforeAll(async () => {
    t = await createTestApp(kind);
    ({ admin, operator, other, otherAdmin } = await t.signInUsers());
  });
  afterAll(async () => {
    await t.close();
  });

  describe('access control', () => {
    it('refuses administrator calls to a normal user', async () => {
      const calls = [
        { method: 'GET', url: '/api/user' },
        { method: 'POST', url: '/api/user/adduser', payload: {} },
        { method: 'PUT', url: '/api/user/status', payload: { Id: 1, Status: 2 } },
        { method: 'DELETE', url: '/api/user/1' },
        { method: 'POST', url: '/api/UserRole/SaveUserRole', payload: { UserId: 1, RoleIds: [] } },
        { method: 'GET', url: '/api/group/1/Role' },
        { method: 'POST', url: '/api/group/1/Role', payload: { Name: 'x' } },
        { method: 'GET', url: '/api/Module' },
        { method: 'POST', url: '/api/RoleModuleOperate', payload: { RoleId: 1, OperateId: 1 } },
        { method: 'PUT', url: '/api/RoleSysMenu/AddOrUpdate', payload: { roleId: 1, menu: '1' } },
        { method: 'POST', url: '/api/SysMenu/AddMenu', payload: { Name: 'x', MenuType: 0 } },
        { method: 'POST', url: '/api/SysMenu/DeleteSysMenu', payload: { Id: 1 } },
        { method: 'POST', url: '/api/Client/Add', payload: { ClientName: 'x' } },
      ] as const;
      for (const call of calls) {
        const res = await t.call({ ...call, token: operator });
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(403);
      }
      // Operators may view clients.
      expect((await t.call({ method: 'GET', url: '/api/Client', token: operator })).statusCode).toBe(200);
    });

    it("refuses another group's users, roles, menus and clients, and changes nothing", async () => {
      const myUsers = await t.json<{ Id: number; Account: string }[]>({ method: 'GET', url: '/api/user', token: admin });
      const target = myUsers.data.find((u) => u.Account === 'operator');
      const myRoles = await t.json<{ Id: number }[]>({ method: 'GET', url: '/api/group/1/Role/AllRoles', token: admin });
      const roleId = myRoles.data[0]?.Id ?? 0;
      const client = await t.json<{ Id: number }>({
        method: 'POST',
        url: '/api/Client/Add',
        token: admin,
        payload: { ClientName: 'Secret client', ClientSn: 'S1' },
      });
      const menus = await t.json<{ Id: number }[]>({ method: 'GET', url: '/api/SysMenu/GetAllMenu', token: admin });
      const menuId = menus.data[0]?.Id ?? 0;
      const g = String(other.groupId);

      const attempts = [
        { method: 'PUT', url: '/api/user/status', payload: { Id: target?.Id, Status: 2 } },
        { method: 'DELETE', url: `/api/user/${String(target?.Id)}` },
        { method: 'PUT', url: '/api/user/password', payload: { Id: target?.Id, Password: 'Hacked123' } },
        { method: 'GET', url: `/api/UserRole/${String(target?.Id)}` },
        { method: 'POST', url: '/api/UserRole/SaveUserRole', payload: { UserId: target?.Id, RoleIds: [other.adminRoleId] } },
        { method: 'GET', url: `/api/group/${g}/Role/${String(roleId)}` },
        { method: 'DELETE', url: `/api/group/${g}/Role/${String(roleId)}` },
        { method: 'GET', url: `/api/RoleModuleOperate/${String(roleId)}` },
        { method: 'GET', url: `/api/RoleSysMenu/Get?roleId=${String(roleId)}` },
        { method: 'PUT', url: '/api/RoleSysMenu/AddOrUpdate', payload: { roleId: other.adminRoleId, menu: String(menuId) } },
        { method: 'PUT', url: '/api/SysMenu/UpdateSysMenu', payload: { Id: menuId, Name: 'Hijacked', MenuType: 0 } },
        { method: 'POST', url: '/api/SysMenu/DeleteSysMenu', payload: { Id: menuId } },
        { method: 'GET', url: `/api/Client/Get?id=${String(client.data.Id)}` },
        { method: 'PUT', url: '/api/Client/Update', payload: { Id: client.data.Id, ClientName: 'Hijacked' } },
        { method: 'POST', url: '/api/Client/Delete', payload: { Id: client.data.Id } },
      ] as const;
      for (const attempt of attempts) {
        const res = await t.call({ ...attempt, token: otherAdmin });
        expect([403, 404, 400], `${attempt.method} ${attempt.url}: ${res.body}`).toContain(res.statusCode);
        expect(res.json<Body>().success).toBe(false);
      }
      // Their own lists hold none of ours.
      const theirUsers = await t.json<{ Account: string }[]>({ method: 'GET', url: '/api/user', token: otherAdmin });
      expect(theirUsers.data.map((u) => u.Account)).toEqual(['otherboss']);
      const theirClients = await t.json<unknown[]>({ method: 'GET', url: '/api/Client/GetAll', token: otherAdmin });
      expect(theirClients.data).toEqual([]);
      // Nothing changed.
      await t.login(OPERATOR.account, OPERATOR.password);
      expect(
        (
          await t.json<{ ClientName: string }>({
            method: 'GET',
            url: `/api/Client/Get?id=${String(client.data.Id)}`,
            token: admin,
          })
        ).data.ClientName,
      ).toBe('Secret client');
      const menusAfter = await t.json<{ Id: number; Name: string }[]>({
        method: 'GET',
        url: '/api/SysMenu/GetAllMenu',
        token: admin,
      });
      expect(menusAfter.data.find((m) => m.Id === menuId)?.Name).toBe('Home');
    });
  });

  describe('users', () => {
    it('adds a user with the field rules of §5, naming each bad field', async () => {
      const bad = await t.call({
        method: 'POST',
        url: '/api/user/adduser',
        token: admin,
        lang: 'en-US',
        payload: {
          UserType: 0,
          Account: 'a!',
          Email: 'nope',
          Phone: '2345',
          UserName: '',
          Password: 'short',
          PasswordAgain: 'other',
        },
      });
      expect(bad.statusCode).toBe(400);
      const fields = fieldsOf(bad);
      expect(fields).toEqual(expect.arrayContaining(['Account', 'Email', 'Phone', 'UserName', 'Password']));
      const ok = await t.call({
        method: 'POST',
        url: '/api/user/adduser',
        token: admin,
        payload: {
          UserType: 0,
          Remark: 'night shift',
          account: 'patrol1',
          Email: 'p1@example.cn',
          Phone: '0571-88886666',
          UserName: 'Li Patrol',
          password: 'Patrol123',
          passwordagain: 'Patrol123',
        },
      });
      expect(ok.statusCode).toBe(201);
      await t.login('patrol1', 'Patrol123');
      // Roles picked in the same dialog: the new user holds them at once; another group's role is refused and adds no one.
      const roles = await t.json<{ Id: number; Name: string }[]>({
        method: 'GET',
        url: '/api/group/1/Role/AllRoles',
        token: admin,
      });
      const operatorRole = roles.data.find((r) => r.Name === 'Operator')?.Id ?? 0;
      const withRoles = await t.call({
        method: 'POST',
        url: '/api/user/adduser',
        token: admin,
        payload: {
          Account: 'patrol2',
          UserName: 'Wang Patrol',
          Password: 'Patrol123',
          PasswordAgain: 'Patrol123',
          RoleIds: [operatorRole],
        },
      });
      expect(withRoles.statusCode).toBe(201);
      const held = await t.json<{ Id: number }[]>({
        method: 'GET',
        url: `/api/UserRole/${String(withRoles.json<Body<{ Id: number }>>().data.Id)}`,
        token: admin,
      });
      expect(held.data.map((r) => r.Id)).toEqual([operatorRole]);
      const foreign = await t.call({
        method: 'POST',
        url: '/api/user/adduser',
        token: admin,
        lang: 'en-US',
        payload: {
          Account: 'patrol3',
          UserName: 'x',
          Password: 'Patrol123',
          PasswordAgain: 'Patrol123',
          RoleIds: [other.adminRoleId],
        },
      });
      expect(foreign.statusCode).toBe(400);
      expect(fieldsOf(foreign)).toEqual(['RoleIds']);
      expect(
        (await t.call({ method: 'POST', url: '/api/User', payload: { Account: 'patrol3', Password: 'Patrol123' } })).statusCode,
      ).not.toBe(200);
      const dup = await t.call({
        method: 'POST',
        url: '/api/user/adduser',
        token: admin,
        payload: { Account: 'PATROL1', UserName: 'x', Password: 'Patrol123', PasswordAgain: 'Patrol123' },
      });
      expect(dup.statusCode).toBe(409);
    });

    it('lists users paged, filtered, searched and sorted, with role names from one request', async () => {
      for (let i = 0; i < 12; i++) {
        await t.call({
          method: 'POST',
          url: '/api/user/adduser',
          token: admin,
          payload: {
            Account: `bulk${String(i).padStart(2, '0')}`,
            UserName: `Bulk ${String(i)}`,
            Password: 'Bulk12345',
            PasswordAgain: 'Bulk12345',
          },
        });
      }
      const page = await t.json<{ Account: string; RoleName: string }[]>({
        method: 'GET',
        url: '/api/user?PageNo=2&PageSize=5&OrderBy=Account&OrderType=asc',
        token: admin,
      });
      expect(page.data).toHaveLength(5);
      expect(page.count).toBeGreaterThanOrEqual(15);
      const search = await t.json<{ Account: string }[]>({
        method: 'GET',
        url: `/api/user?Search=${encodeURIComponent('bulk1')}&OrderBy=account`,
        token: admin,
      });
      expect(search.data.map((u) => u.Account)).toEqual(['bulk10', 'bulk11']);
      const withRoles = await t.json<{ Account: string; RoleName: string; IsAdmin: boolean }[]>({
        method: 'GET',
        url: '/api/user?Search=admin',
        token: admin,
      });
      expect(withRoles.data[0]).toMatchObject({ Account: 'admin', RoleName: 'Administrator', IsAdmin: true });
      const badSort = await t.call({ method: 'GET', url: '/api/user?OrderBy=password_hash', token: admin, lang: 'en-US' });
      expect(badSort.statusCode).toBe(400);
      expect(badSort.json<Body>().message).toMatch(/^OrderBy: /);
      const disabled = await t.json<unknown[]>({ method: 'GET', url: '/api/user?Status=2', token: admin });
      expect(disabled.data).toEqual([]);
    });

    it('disables a user, whose next request is refused, and enables again', async () => {
      const token = await t.login('bulk00', 'Bulk12345');
      const id = (await t.json<{ Id: number }[]>({ method: 'GET', url: '/api/user?Search=bulk00', token: admin })).data[0]?.Id;
      expect(
        (await t.call({ method: 'PUT', url: '/api/user/status', token: admin, payload: { Id: id, Status: 2 } })).statusCode,
      ).toBe(200);
      expect((await t.call({ method: 'GET', url: '/api/user/myinfo', token })).statusCode).toBe(401);
      const signIn = await t.call({ method: 'POST', url: '/api/User', payload: { Account: 'bulk00', Password: 'Bulk12345' } });
      expect(signIn.statusCode).toBe(403);
      const listed = await t.json<{ Valide: boolean; Status: number }[]>({
        method: 'GET',
        url: '/api/user?Status=2',
        token: admin,
      });
      expect(listed.data[0]).toMatchObject({ Status: 2, Valide: false });
      await t.call({ method: 'PUT', url: '/api/user/status', token: admin, payload: { Id: id, Status: 1 } });
      await t.login('bulk00', 'Bulk12345');
    });

    it('never deletes or disables yourself or the last administrator', async () => {
      const me = (await t.json<{ Id: number }>({ method: 'GET', url: '/api/user/myinfo', token: admin })).data.Id;
      expect((await t.call({ method: 'DELETE', url: `/api/user/${String(me)}`, token: admin })).statusCode).toBe(409);
      expect(
        (await t.call({ method: 'PUT', url: '/api/user/status', token: admin, payload: { Id: me, Status: 2 } })).statusCode,
      ).toBe(409);
      // A second administrator of the group (later tests sign in as it) may not delete the first,
      // who is the platform administrator.
      const bulk01 =
        (await t.json<{ Id: number }[]>({ method: 'GET', url: '/api/user?Search=bulk01', token: admin })).data[0]?.Id ?? 0;
      const adminRole = (
        await t.json<{ Id: number; IsAdmin: boolean }[]>({ method: 'GET', url: '/api/group/1/Role/AllRoles', token: admin })
      ).data.find((r) => r.IsAdmin)?.Id;
      await t.call({
        method: 'POST',
        url: '/api/UserRole/SaveUserRole',
        token: admin,
        payload: { UserId: bulk01, RoleIds: [adminRole] },
      });
      const deputy = await t.login('bulk01', 'Bulk12345');
      expect((await t.call({ method: 'DELETE', url: `/api/user/${String(me)}`, token: deputy })).statusCode).toBe(403);
      // In a tenant without the platform administrator a second administrator may remove the
      // first, but not itself once it is the last.
      const added = await t.json<{ Id: number }>({
        method: 'POST',
        url: '/api/user/adduser',
        token: otherAdmin,
        payload: { UserType: 0, Account: 'deputy', UserName: 'Deputy', Password: 'Deputy123', PasswordAgain: 'Deputy123' },
      });
      const id = added.data.Id;
      await t.call({
        method: 'POST',
        url: '/api/UserRole/SaveUserRole',
        token: otherAdmin,
        payload: { UserId: id, RoleIds: [other.adminRoleId] },
      });
      const second = await t.login('deputy', 'Deputy123');
      expect((await t.call({ method: 'DELETE', url: `/api/user/${String(other.adminId)}`, token: second })).statusCode).toBe(200);
      const last = await t.call({
        method: 'POST',
        url: '/api/UserRole/SaveUserRole',
        token: second,
        lang: 'en-US',
        payload: { UserId: id, RoleIds: [] },
      });
      expect(last.statusCode).toBe(409);
      expect(last.json<Body>().message).toContain('last administrator');
      const roles = await t.json<{ Name: string }[]>({ method: 'GET', url: `/api/UserRole/${String(id)}`, token: second });
      expect(roles.data.map((r) => r.Name)).toEqual(['Administrator']);
    });
  });

  describe('roles and permissions', () => {
    let token: string;
    beforeAll(async () => {
      token = await t.login('bulk01', 'Bulk12345');
    });

    it('sends Admin as 是/否 and IsAdmin as a boolean, and keeps names unique', async () => {
      const created = await t.call({ method: 'POST', url: '/api/group/1/Role', token, payload: { Name: 'Viewer', IsAdmin: 0 } });
      expect(created.statusCode).toBe(201);
      expect(created.json<Body>().data).toMatchObject({ Name: 'Viewer', IsAdmin: false, Admin: '否' });
      const all = await t.json<{ Name: string; Admin: string }[]>({ method: 'GET', url: '/api/group/1/Role/AllRoles', token });
      expect(all.data.find((r) => r.Name === 'Administrator')?.Admin).toBe('是');
      expect((await t.call({ method: 'POST', url: '/api/group/1/Role', token, payload: { Name: 'viewer' } })).statusCode).toBe(
        409,
      );
    });

    it('gives a role an operate, which lets its users make that call, and takes it away', async () => {
      const viewer = (
        await t.json<{ Id: number; Name: string }[]>({ method: 'GET', url: '/api/group/1/Role/AllRoles', token })
      ).data.find((r) => r.Name === 'Viewer');
      const operates = await t.json<{ Id: number; Code: string }[]>({ method: 'GET', url: '/api/1/ModuleOperate', token });
      const userView = operates.data.find((o) => o.Code === 'user.view');
      const patrol = (await t.json<{ Id: number }[]>({ method: 'GET', url: '/api/user?Search=patrol1', token })).data[0]?.Id;
      await t.call({
        method: 'POST',
        url: '/api/UserRole/SaveUserRole',
        token,
        payload: { UserId: patrol, RoleIds: [viewer?.Id] },
      });
      const patrolToken = await t.login('patrol1', 'Patrol123');
      expect((await t.call({ method: 'GET', url: '/api/user', token: patrolToken })).statusCode).toBe(403);
      await t.call({
        method: 'POST',
        url: '/api/RoleModuleOperate',
        token,
        payload: { roleId: viewer?.Id, operateId: userView?.Id },
      });
      expect((await t.call({ method: 'GET', url: '/api/user', token: patrolToken })).statusCode).toBe(200);
      expect((await t.call({ method: 'POST', url: '/api/user/adduser', token: patrolToken, payload: {} })).statusCode).toBe(403);
      const held = await t.json<{ Code: string }[]>({
        method: 'GET',
        url: `/api/RoleModuleOperate/${String(viewer?.Id)}`,
        token,
      });
      expect(held.data.map((o) => o.Code)).toEqual(['user.view']);
      await t.call({ method: 'DELETE', url: `/api/RoleModuleOperate/${String(viewer?.Id)}/${String(userView?.Id)}`, token });
      expect((await t.call({ method: 'GET', url: '/api/user', token: patrolToken })).statusCode).toBe(403);
    });

    it('refuses to delete a role in use or to demote the last admin role', async () => {
      const roles = (await t.json<{ Id: number; Name: string }[]>({ method: 'GET', url: '/api/group/1/Role/AllRoles', token }))
        .data;
      const viewer = roles.find((r) => r.Name === 'Viewer');
      const adminRole = roles.find((r) => r.Name === 'Administrator');
      expect((await t.call({ method: 'DELETE', url: `/api/group/1/Role/${String(viewer?.Id)}`, token })).statusCode).toBe(409);
      const demote = await t.call({
        method: 'PUT',
        url: '/api/group/1/Role',
        token,
        payload: { Id: adminRole?.Id, Name: 'Administrator', IsAdmin: false },
      });
      expect(demote.statusCode).toBe(409);
      const unused = await t.json<{ Id: number }>({ method: 'POST', url: '/api/group/1/Role', token, payload: { Name: 'Temp' } });
      expect((await t.call({ method: 'DELETE', url: `/api/group/1/Role/${String(unused.data.Id)}`, token })).statusCode).toBe(
        200,
      );
    });

    it('manages modules and their operates', async () => {
      const mod = await t.call({ method: 'POST', url: '/api/Module', token, payload: { ModuleName: 'Reports', Code: 'report' } });
      expect(mod.statusCode).toBe(201);
      const moduleId = mod.json<Body<{ Id: number }>>().data.Id;
      const op = await t.call({
        method: 'POST',
        url: '/api/1/ModuleOperate',
        token,
        payload: { ModuleId: moduleId, Name: 'Export', Code: 'report.export' },
      });
      expect(op.statusCode).toBe(201);
      const badModule = await t.call({
        method: 'POST',
        url: '/api/1/ModuleOperate',
        token,
        payload: { ModuleId: 99999, Name: 'X', Code: 'x.y' },
      });
      expect(badModule.statusCode).toBe(400);
      const listed = await t.json<{ Code: string }[]>({
        method: 'GET',
        url: `/api/1/ModuleOperate?ModuleId=${String(moduleId)}`,
        token,
      });
      expect(listed.data.map((o) => o.Code)).toEqual(['report.export']);
      expect((await t.call({ method: 'GET', url: '/api/2/ModuleOperate', token })).statusCode).toBe(403);
    });
  });

  describe('menus', () => {
    let token: string;
    beforeAll(async () => {
      token = await t.login('bulk01', 'Bulk12345');
    });

    it('gives each user the menu of their roles, with the parents of granted items', async () => {
      const all = await t.json<{ Id: number; Name: string; ParentId: number; Router: string }[]>({
        method: 'GET',
        url: '/api/SysMenu/GetAllMenu',
        token,
      });
      expect(all.data.length).toBeGreaterThan(20);
      const operatorMenu = await t.json<{ Name: string }[]>({ method: 'GET', url: '/api/SysMenu/GetUserMenu', token: operator });
      expect(operatorMenu.data.map((m) => m.Name)).toEqual([
        'Home',
        'Projects',
        'Stations',
        'Devices',
        'Notice Manager',
        'Field Records',
        'Notice center',
        'Water quality',
        'Repairs',
        'Inspections',
        'Monthly report',
      ]);

      const viewer = (
        await t.json<{ Id: number; Name: string }[]>({ method: 'GET', url: '/api/group/1/Role/AllRoles', token })
      ).data.find((r) => r.Name === 'Viewer');
      const userList = all.data.find((m) => m.Name === 'User list');
      const home = all.data.find((m) => m.Name === 'Home');
      const save = await t.call({
        method: 'PUT',
        url: '/api/RoleSysMenu/AddOrUpdate',
        token,
        payload: { roleId: viewer?.Id, menu: `${String(home?.Id)},${String(userList?.Id)}`, type: 1 },
      });
      expect(save.statusCode).toBe(200);
      expect(
        (await t.json<number[]>({ method: 'GET', url: `/api/RoleSysMenu/Get?roleId=${String(viewer?.Id)}`, token })).data,
      ).toEqual([home?.Id, userList?.Id].sort((a = 0, b = 0) => a - b));
      const patrol = await t.login('patrol1', 'Patrol123');
      const menu = await t.json<{ Name: string }[]>({ method: 'GET', url: '/api/SysMenu/GetUserMenu', token: patrol });
      expect(menu.data.map((m) => m.Name)).toEqual(['Home', 'User Manager', 'User list']);
      const sub = await t.json<{ Name: string }[]>({
        method: 'GET',
        url: `/api/SysMenu/GetSubMenu?menuId=${String(userList ? all.data.find((m) => m.Name === 'User Manager')?.Id : 0)}`,
        token: patrol,
      });
      expect(sub.data.map((m) => m.Name)).toEqual(['User list']);
      expect(JSON.parse(userList?.Router ?? '{}')).toEqual({ path: '/user/list', componentUrl: 'user/list' });
    });

    it('validates menus: router JSON, link menus need a router, parents are navigation menus', async () => {
      const badJson = await t.call({
        method: 'POST',
        url: '/api/SysMenu/AddMenu',
        token,
        lang: 'en-US',
        payload: { Name: 'Broken', MenuType: 1, Router: '{path:' },
      });
      expect(badJson.statusCode).toBe(400);
      expect(fieldsOf(badJson)[0]).toMatch(/^Router/);
      const noRouter = await t.call({
        method: 'POST',
        url: '/api/SysMenu/AddMenu',
        token,
        payload: { Name: 'Lost', MenuType: 1 },
      });
      expect(fieldsOf(noRouter)[0]).toBe('Router');
      const home = (
        await t.json<{ Id: number; Name: string }[]>({ method: 'GET', url: '/api/SysMenu/GetAllMenu', token })
      ).data.find((m) => m.Name === 'Home');
      const underLink = await t.call({
        method: 'POST',
        url: '/api/SysMenu/AddMenu',
        token,
        payload: { Name: 'Child', MenuType: 0, ParentId: home?.Id },
      });
      expect(underLink.statusCode).toBe(400);
      const nav = await t.json<{ Id: number }>({
        method: 'POST',
        url: '/api/SysMenu/AddMenu',
        token,
        payload: { Name: 'Reports', MenuType: 0, Icon: 'BarChartOutlined' },
      });
      const child = await t.call({
        method: 'POST',
        url: '/api/SysMenu/AddMenu',
        token,
        payload: {
          Name: 'Monthly',
          MenuType: 1,
          ParentId: nav.data.Id,
          Router: JSON.stringify({ path: '/reports/monthly', componentUrl: 'reports/monthly' }),
        },
      });
      expect(child.statusCode).toBe(201);
      expect(
        (await t.call({ method: 'POST', url: '/api/SysMenu/DeleteSysMenu', token, payload: { Id: nav.data.Id } })).statusCode,
      ).toBe(409);
      const subs = await t.json<{ Name: string }[]>({
        method: 'GET',
        url: `/api/SysMenu/GetSubMenu?menuId=${String(nav.data.Id)}`,
        token,
      });
      expect(subs.data.map((m) => m.Name)).toEqual(['Monthly']);
    });

    it('puts a menu under the parent named by the spec’s parentId, in AddMenu and UpdateSysMenu', async () => {
      const nav = await t.json<{ Id: number }>({
        method: 'POST',
        url: '/api/SysMenu/AddMenu',
        token,
        payload: { Name: 'Energy', MenuType: 0 },
      });
      const router = JSON.stringify({ path: '/energy/daily', componentUrl: 'energy/daily' });
      const added = await t.json<{ Id: number; ParentId: number }>({
        method: 'POST',
        url: '/api/SysMenu/AddMenu',
        token,
        payload: { Name: 'Daily energy', MenuType: 1, parentId: nav.data.Id, Router: router },
      });
      expect(added.data.ParentId).toBe(nav.data.Id);
      const subs = async () =>
        (await t.json<{ Name: string }[]>({ method: 'GET', url: `/api/SysMenu/GetSubMenu?menuId=${String(nav.data.Id)}`, token }))
          .data;
      expect((await subs()).map((m) => m.Name)).toEqual(['Daily energy']);

      // Moved to the top level, then back under its parent, with the spec's spelling.
      const top = await t.json<{ ParentId: number }>({
        method: 'PUT',
        url: '/api/SysMenu/UpdateSysMenu',
        token,
        payload: { Id: added.data.Id, Name: 'Daily energy', MenuType: 1, parentId: 0, Router: router },
      });
      expect(top.data.ParentId).toBe(0);
      expect(await subs()).toEqual([]);
      const back = await t.json<{ ParentId: number }>({
        method: 'PUT',
        url: '/api/SysMenu/UpdateSysMenu',
        token,
        payload: { Id: added.data.Id, Name: 'Daily energy', MenuType: 1, parentId: nav.data.Id, Router: router },
      });
      expect(back.data.ParentId).toBe(nav.data.Id);

      // A parentId that is a link menu is refused on its field, and nothing is added.
      const refused = await t.call({
        method: 'POST',
        url: '/api/SysMenu/AddMenu',
        token,
        payload: { Name: 'Under a link', MenuType: 0, parentId: added.data.Id },
      });
      expect(refused.statusCode).toBe(400);
      expect(fieldsOf(refused)).toEqual(['ParentId']);
      expect((await subs()).map((m) => m.Name)).toEqual(['Daily energy']);
    });
  });

  describe('clients', () => {
    it('adds, finds, edits and deletes clients with the phone rules', async () => {
      admin = await t.login('bulk01', 'Bulk12345');
      const bad = await t.call({
        method: 'POST',
        url: '/api/Client/Add',
        token: admin,
        lang: 'zh-CN',
        payload: { ClientName: 'Town', Telephone: '13812345678', Mobile: '0755-1234567' },
      });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad)).toEqual(['Telephone', 'Mobile']);
      const created = await t.json<{ Id: number }>({
        method: 'POST',
        url: '/api/Client/Add',
        token: admin,
        payload: {
          ClientName: '青山镇 Qingshan Town',
          ClientSn: 'QS-01',
          Linkman: 'Wang',
          Telephone: '0571-88886666',
          Mobile: '13912345678',
          Address: 'Qingshan',
          Description: '',
        },
      });
      const dup = await t.call({
        method: 'POST',
        url: '/api/Client/Add',
        token: admin,
        payload: { ClientName: 'Other', ClientSn: 'qs-01' },
      });
      expect(dup.statusCode).toBe(409);
      const all = await t.json<{ ClientName: string }[]>({ method: 'GET', url: '/api/Client/GetAll', token: operator });
      expect(all.data.map((c) => c.ClientName)).toContain('青山镇 Qingshan Town');
      const search = await t.json<unknown[]>({
        method: 'GET',
        url: `/api/Client?Search=${encodeURIComponent('qingshan，')}`,
        token: admin,
      });
      expect(search.count).toBe(0);
      const found = await t.json<unknown[]>({
        method: 'GET',
        url: `/api/Client?Search=${encodeURIComponent('Qingshan')}`,
        token: admin,
      });
      expect(found.count).toBe(1);
      const edited = await t.call({
        method: 'PUT',
        url: '/api/Client/Update',
        token: admin,
        payload: { Id: created.data.Id, ClientName: 'Qingshan', ClientSn: 'QS-01' },
      });
      expect(edited.json<Body<{ ClientName: string }>>().data.ClientName).toBe('Qingshan');
      expect(
        (await t.call({ method: 'POST', url: '/api/Client/Delete', token: admin, payload: { Id: created.data.Id } })).statusCode,
      ).toBe(200);
      expect(
        (await t.call({ method: 'GET', url: `/api/Client/Get?id=${String(created.data.Id)}`, token: admin })).statusCode,
      ).toBe(404);
    });

    it('clears an optional field sent as "" or null, and keeps one the body leaves out', async () => {
      type Client = {
        Id: number;
        ClientName: string;
        ClientSn: string;
        Linkman: string;
        Mobile: string;
        Address: string;
        Description: string;
      };
      const full = {
        ClientName: 'Clearable',
        ClientSn: 'CL-01',
        Linkman: 'Li',
        Mobile: '13912345678',
        Address: 'East gate',
        Description: 'Old note',
      };
      const created = await t.json<Client>({ method: 'POST', url: '/api/Client/Add', token: admin, payload: full });
      const id = created.data.Id;
      const update = (payload: Record<string, unknown>) =>
        t.call({
          method: 'PUT',
          url: '/api/Client/Update',
          token: admin,
          payload: { Id: id, ClientName: 'Clearable', ...payload },
        });
      const stored = async () =>
        (await t.json<Client>({ method: 'GET', url: `/api/Client/Get?id=${String(id)}`, token: admin })).data;

      const cleared = await update({ Description: '', Linkman: null, Mobile: '' });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json<Body<Client>>().data).toMatchObject({ Description: '', Linkman: '', Mobile: '' });
      // Left out: unchanged.
      expect(await stored()).toMatchObject({ ClientSn: 'CL-01', Address: 'East gate', Description: '', Linkman: '', Mobile: '' });

      // A bad value is still refused, naming the field, and changes nothing.
      const bad = await update({ Mobile: '12345', Address: '' });
      expect(bad.statusCode).toBe(400);
      expect(fieldsOf(bad)).toEqual(['Mobile']);
      expect((await stored()).Address).toBe('East gate');

      // On create, an absent field takes the column's default, the same empty text as '' (blanks trimmed).
      const bare = await t.json<Client>({
        method: 'POST',
        url: '/api/Client/Add',
        token: admin,
        payload: { ClientName: 'Bare', Description: '', Linkman: '   ' },
      });
      expect(bare.data).toMatchObject({ ClientSn: '', Linkman: '', Description: '' });
    });
  });
});
