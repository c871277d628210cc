/**
 * The audit trail (issue 22) through the API, on the real databases: each kind of write leaves
 * its entry — who, from where, which tenant, which record, before and after with secrets masked
 * — and a refused write leaves none and changes nothing; the audit calls keep tenants apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_MASK, type AuditEntryDetailDto, type AuditEntryDto } from '@sluice/shared/audit.schema';
import { ADMIN, OPERATOR, createTestApp, databaseKinds, type Body, type TestApp, type Users } from './harness.ts';
import {
  buildClient,
  buildDevice,
  buildFullType,
  buildProject,
  buildRole,
  buildUser,
  buildWarnCode,
  buildWarnType,
} from './factories.ts';
import { AppError } from '../src/http/errors.ts';

interface Row {
  id: number;
  group_id: number | null;
  user_id: number | null;
  account: string;
  address: string;
  action: string;
  resource_kind: string;
  resource_id: string;
  owner_kind: string;
  owner_id: string;
  route: string;
  before: unknown;
  after: unknown;
  changed: string[];
}

describe.each(databaseKinds)('the audit trail on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let g: number;
  let mark = 0;
  /** A device type with data points, modules and controls (DOSet among them). */
  let fullType: { id: number };

  /** The entries written since the last call (oldest first). */
  const newEntries = async (): Promise<Row[]> => {
    await t.app.ctx.audit.settle();
    const rows = await t.app.ctx.db.selectFrom('audit_log').selectAll().where('id', '>', mark).orderBy('id').execute();
    mark = rows.at(-1)?.id ?? mark;
    return rows.map((r) => ({
      ...r,
      before: r.before === null ? null : (JSON.parse(r.before) as unknown),
      after: r.after === null ? null : (JSON.parse(r.after) as unknown),
      changed: JSON.parse(r.changed) as string[],
    }));
  };
  const settle = async () => {
    await newEntries();
  };
  /** The one entry a call wrote. */
  const onlyEntry = async (): Promise<Row> => {
    const rows = await newEntries();
    expect(rows, 'one entry').toHaveLength(1);
    return rows[0] as Row;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, {}, (app) => {
      // A call that writes and is then refused: everything it wrote goes, and no entry is left.
      app.post(
        '/api/test/writes-then-refuses',
        { config: { access: 'admin', audit: { subject: { kind: 'client' } } } },
        async () => {
          await buildClient(app.ctx.db, { groupId: 1, name: 'Never kept' });
          throw new AppError(409, 'error.conflict');
        },
      );
    });
    users = await t.signInUsers();
    g = 1;
    fullType = await buildFullType(t.app.ctx.db, { groupId: g, name: 'Lift station' });
    await settle();
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = users.admin) =>
    t.call({ method, url, token, ...(payload ? { payload } : {}) });

  it('records a sign-in with the account and address, a refused one with the reason, and a sign-out', async () => {
    const token = await t.login(OPERATOR.account, OPERATOR.password);
    const signIn = await onlyEntry();
    expect(signIn).toMatchObject({ action: 'signIn', resource_kind: 'session', account: OPERATOR.account, group_id: g });
    expect(signIn.address).toBe('127.0.0.1');
    expect(signIn.user_id).toBeGreaterThan(0);
    expect((signIn.after as Record<string, unknown>).Token).toBe(AUDIT_MASK);

    const refused = await t.call({
      method: 'POST',
      url: '/api/User',
      payload: { Account: OPERATOR.account, Password: 'wrong1234' },
    });
    expect(refused.statusCode).toBe(401);
    const failure = await onlyEntry();
    expect(failure).toMatchObject({ action: 'signInFailed', account: OPERATOR.account, group_id: g, user_id: null });
    expect(failure.after).toEqual({ Account: OPERATOR.account, Reason: 'auth.badCredentials' });
    // An account no one has belongs to no tenant: only the platform administrator reads it.
    await t.call({ method: 'POST', url: '/api/User', payload: { Account: 'nobody123', Password: 'wrong1234' } });
    expect(await onlyEntry()).toMatchObject({ action: 'signInFailed', account: 'nobody123', group_id: null });

    expect((await call('GET', '/api/user/logout', undefined, token)).statusCode).toBe(200);
    expect(await onlyEntry()).toMatchObject({ action: 'signOut', account: OPERATOR.account, resource_kind: 'session' });
  });

  it("records a change of an operator's role with the roles before and after", async () => {
    const operator = await buildUser(t.app.ctx.db, { groupId: g, roles: ['Operator'] });
    const engineers = await buildRole(t.app.ctx.db, { groupId: g, name: 'Engineers', operates: ['device.view'] });
    const res = await call('POST', '/api/UserRole/SaveUserRole', { UserId: operator.id, RoleIds: [engineers] });
    expect(res.statusCode).toBe(200);
    const entry = await onlyEntry();
    expect(entry).toMatchObject({
      action: 'update',
      resource_kind: 'user',
      resource_id: String(operator.id),
      account: ADMIN.account,
      route: 'POST /api/UserRole/SaveUserRole',
    });
    expect(entry.changed).toEqual(['Roles']);
    expect((entry.before as { Roles: string[] }).Roles).toEqual(['Operator']);
    expect((entry.after as { Roles: string[] }).Roles).toEqual(['Engineers']);
  });

  /** Each kind of write: the call, and what its entry must say. */
  const kinds: {
    name: string;
    run: () => Promise<{ statusCode: number }>;
    expect: Partial<Row>;
    check?: (entry: Row) => void;
  }[] = [
    {
      name: 'a user added (before null, password masked)',
      run: () =>
        call('POST', '/api/user/adduser', {
          Account: 'newperson1',
          UserName: 'New person',
          Password: 'Secret12345',
          PasswordAgain: 'Secret12345',
          UserType: 0,
        }),
      expect: { action: 'create', resource_kind: 'user' },
      check: (e) => {
        expect(e.before).toBeNull();
        expect(e.after).toMatchObject({ Account: 'newperson1', Password: AUDIT_MASK });
        expect(JSON.stringify(e.after)).not.toContain('argon2');
      },
    },
    {
      name: 'a role created',
      run: () => call('POST', `/api/group/${String(g)}/Role`, { Name: 'Inspectors', IsAdmin: false }),
      expect: { action: 'create', resource_kind: 'role' },
      check: (e) => {
        expect(e.after).toMatchObject({ Name: 'Inspectors' });
      },
    },
    {
      name: 'a menu added',
      run: () => call('POST', '/api/SysMenu/AddMenu', { Name: 'Reports', ParentId: 0, MenuType: 0 }),
      expect: { action: 'create', resource_kind: 'menu' },
    },
    {
      name: 'a station added',
      run: () => call('POST', `/api/${String(g)}/project`, { Name: 'North works', ProjectType: 0, Position: '119.6,30.6' }),
      expect: { action: 'create', resource_kind: 'project' },
      check: (e) => {
        expect(e.after).toMatchObject({ Name: 'North works' });
      },
    },
    {
      name: "a device's type changed (before and after TypeId, owner itself)",
      run: async () => {
        const device = await buildDevice(t.app.ctx, { groupId: g, sn: 'SLAUDIT00001' });
        await settle();
        return call('PUT', `/api/${String(g)}/Device/Type`, { DeviceSn: device.sn, TypeId: fullType.id });
      },
      expect: { action: 'update', resource_kind: 'device', resource_id: 'SLAUDIT00001' },
      check: (e) => {
        expect(e.changed).toEqual(['TypeId']);
        expect((e.before as { TypeId: number | null }).TypeId).toBeNull();
        expect(typeof (e.after as { TypeId: number }).TypeId).toBe('number');
      },
    },
    {
      name: "a device's new secret (masked, marked changed)",
      run: () => call('PUT', `/api/${String(g)}/Device/Credential`, { DeviceSn: 'SLAUDIT00001' }),
      expect: { action: 'update', resource_kind: 'device', resource_id: 'SLAUDIT00001', changed: ['Secret'] },
      check: (e) => {
        expect((e.before as { Secret: string }).Secret).toBe(AUDIT_MASK);
        expect((e.after as { Secret: string }).Secret).toBe(AUDIT_MASK);
      },
    },
    {
      name: "a device type's module (a part, belonging to its type)",
      run: () => call('POST', `/api/type/${String(fullType.id)}/TypeModule`, { ModuleName: 'Dosing', ModuleType: '', Sn: 3 }),
      expect: { action: 'create', resource_kind: 'typeModule', owner_kind: 'deviceType' },
      check: (e) => {
        expect(e.owner_id).toMatch(/^\d+$/);
      },
    },
    {
      name: 'a SIM provider account (its password and app secret masked)',
      run: () =>
        call('POST', '/api/simboss', {
          SimAccount: 'acct1',
          SimPassword: 'pass-9876',
          AppId: 'app1',
          AppSecret: 'very-secret-1',
        }),
      expect: { action: 'create', resource_kind: 'simAccount' },
      check: (e) => {
        expect(JSON.stringify(e.after)).not.toMatch(/pass-9876|very-secret-1/);
      },
    },
    {
      name: 'the quiet hours (a setting)',
      run: () => call('PUT', '/api/NotifySettings/QuietHours', { Enabled: true, Start: '22:00', End: '06:00' }),
      expect: { action: 'update', resource_kind: 'notifySettings', resource_id: '1' },
      check: (e) => {
        expect(e.after).toMatchObject({ Enabled: true, Start: '22:00', End: '06:00' });
      },
    },
    {
      name: 'a repair reported (a record, belonging to its station)',
      run: async () => {
        const station = await buildProject(t.app.ctx.db, { groupId: g, kind: 'project', name: 'Repair works' });
        await settle();
        return call('POST', '/api/RepairAdd', { ProjectId: station, RepairTitle: 'Pump noisy' });
      },
      expect: { action: 'create', resource_kind: 'repair', owner_kind: 'project' },
    },
  ];

  it.each(kinds.map((k) => [k.name, k] as const))('records %s', async (_name, k) => {
    await settle();
    const res = await k.run();
    expect(res.statusCode).toBeLessThan(300);
    const entry = await onlyEntry();
    expect(entry).toMatchObject({ account: ADMIN.account, group_id: g, address: '127.0.0.1', ...k.expect });
    k.check?.(entry);
  });

  it('records a command to a device with the point’s value before and the value sent', async () => {
    const device = await buildDevice(t.app.ctx, { groupId: g, sn: 'SLAUDIT00002', typeId: fullType.id, online: true });
    await t.app.ctx.db
      .insertInto('device_latest')
      .values({ device_sn: device.sn, group_id: g, ts: Date.now(), data: JSON.stringify({ DOSet: 2 }), updated_at: Date.now() })
      .execute();
    await settle();
    const res = await call('POST', `/api/${String(g)}/${device.sn}/DeviceCommand`, { Key: 'DOSet', Value: 3 });
    expect(res.statusCode).toBe(200);
    const entry = await onlyEntry();
    expect(entry).toMatchObject({
      action: 'command',
      resource_kind: 'command',
      owner_kind: 'device',
      owner_id: device.sn,
      before: { DOSet: '2' },
      after: { DOSet: '3' },
      changed: ['DOSet'],
    });
  });

  it('records the handling of an alarm, before (not handled) and after (handled, with the comment)', async () => {
    const device = await buildDevice(t.app.ctx, { groupId: g, sn: 'SLAUDIT00003' });
    await buildWarnCode(t.app.ctx.db, {
      groupId: g,
      warnTypeId: await buildWarnType(t.app.ctx.db, { groupId: g }),
      code: 'AU01',
      description: 'Pump fault',
    });
    const added = await call('POST', '/api/Warn/WarnAdd', { DeviceSn: device.sn, Code: 'AU01' });
    expect(added.statusCode).toBe(201);
    const raised = await onlyEntry();
    expect(raised).toMatchObject({ action: 'create', resource_kind: 'alarm', owner_kind: 'device', owner_id: device.sn });
    const id = added.json<Body<{ Id: number }>>().data.Id;
    const handled = await call('PUT', `/api/${device.sn}/Warn`, { Id: id, Comments: 'reset the breaker' });
    expect(handled.statusCode).toBe(200);
    const entry = await onlyEntry();
    expect(entry).toMatchObject({ action: 'handle', resource_kind: 'alarm', resource_id: String(id) });
    expect(entry.before).toMatchObject({ State: 0 });
    expect(entry.after).toMatchObject({ State: 1, Comments: 'reset the breaker' });
  });

  it('leaves no entry for a refused write, and nothing of what it wrote', async () => {
    await settle();
    const clientsBefore = await t.app.ctx.db.selectFrom('clients').select('id').execute();
    const refusals = [
      // 400: validation
      await call('POST', '/api/user/adduser', { Account: 'x' }),
      // 403: no permission
      await call('POST', '/api/Client/Add', { ClientName: 'Refused client' }, users.operator),
      // 404: no such record
      await call('DELETE', '/api/user/999999'),
      // 409: taken
      await call('POST', '/api/user/adduser', {
        Account: OPERATOR.account,
        UserName: 'Again',
        Password: 'Secret12345',
        PasswordAgain: 'Secret12345',
        UserType: 0,
      }),
      // Wrote, then refused.
      await call('POST', '/api/test/writes-then-refuses', {}),
    ];
    expect(refusals.map((r) => r.statusCode)).toEqual([400, 403, 404, 409, 409]);
    expect(await newEntries()).toEqual([]);
    expect(await t.app.ctx.db.selectFrom('clients').select('id').execute()).toEqual(clientsBefore);
  });

  it('gives the platform administrator every tenant, a tenant administrator their own, and refuses others', async () => {
    // The other tenant's administrator signed in (signInUsers): an entry of that tenant.
    const list = (token: string, query = '') =>
      t.json<AuditEntryDto[]>({ method: 'GET', url: `/api/AuditLog?PageSize=100${query}`, token });
    const platform = await list(users.admin);
    const groups = new Set(platform.data.map((e) => e.GroupId));
    expect(groups.has(g)).toBe(true);
    expect(groups.has(users.other.groupId)).toBe(true);
    const narrowed = await list(users.admin, `&GroupId=${String(users.other.groupId)}`);
    expect(new Set(narrowed.data.map((e) => e.GroupId))).toEqual(new Set([users.other.groupId]));

    const own = await list(users.otherAdmin);
    expect(own.success).toBe(true);
    expect(own.data.length).toBeGreaterThan(0);
    expect(own.data.every((e) => e.GroupId === users.other.groupId)).toBe(true);
    // Another tenant's entries: refused by filter, not found by id.
    const foreign = await t.call({ method: 'GET', url: `/api/AuditLog?GroupId=${String(g)}`, token: users.otherAdmin });
    expect(foreign.statusCode).toBe(403);
    const someOfOurs = platform.data.find((e) => e.GroupId === g);
    const byId = await t.call({ method: 'GET', url: `/api/AuditLog/${String(someOfOurs?.Id)}`, token: users.otherAdmin });
    expect(byId.statusCode).toBe(404);
    // An operator without audit.view.
    expect((await t.call({ method: 'GET', url: '/api/AuditLog', token: users.operator })).statusCode).toBe(403);
    // A user whose role holds audit.view (not an administrator) reads the tenant's entries.
    const auditor = await buildUser(t.app.ctx.db, {
      groupId: g,
      roles: [await buildRole(t.app.ctx.db, { groupId: g, operates: ['audit.view'] })],
    });
    const auditorToken = await t.login(auditor.account, auditor.password);
    const read = await list(auditorToken);
    expect(read.data.length).toBeGreaterThan(0);
    expect(read.data.every((e) => e.GroupId === g)).toBe(true);
  });

  it('filters by time, user, kind, record (with what belongs to it), action and search, and orders', async () => {
    const device = 'SLAUDIT00001';
    const history = await t.json<AuditEntryDto[]>({
      method: 'GET',
      url: `/api/AuditLog?ResourceKind=device&ResourceId=${device}&PageSize=100`,
      token: users.admin,
    });
    expect(history.data.length).toBeGreaterThanOrEqual(2);
    expect(history.data.every((e) => e.ResourceId === device || e.OwnerId === device)).toBe(true);
    // Newest first by default.
    const times = history.data.map((e) => e.At);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const typeHistory = await t.json<AuditEntryDto[]>({
      method: 'GET',
      url: '/api/AuditLog?ResourceKind=typeModule&PageSize=100',
      token: users.admin,
    });
    expect(typeHistory.data.length).toBe(1);
    const owner = typeHistory.data[0];
    const byOwner = await t.json<AuditEntryDto[]>({
      method: 'GET',
      url: `/api/AuditLog?ResourceKind=deviceType&ResourceId=${owner?.OwnerId ?? ''}`,
      token: users.admin,
    });
    expect(byOwner.data.map((e) => e.Id)).toContain(owner?.Id);

    const signIns = await t.json<AuditEntryDto[]>({
      method: 'GET',
      url: `/api/AuditLog?Action=signInFailed&Account=${OPERATOR.account}`,
      token: users.admin,
    });
    expect(signIns.data.length).toBeGreaterThan(0);
    expect(signIns.data.every((e) => e.Action === 'signInFailed' && e.Account === OPERATOR.account)).toBe(true);

    const future = await t.json<AuditEntryDto[]>({
      method: 'GET',
      url: `/api/AuditLog?Begin=${String(Date.now() + 60_000)}`,
      token: users.admin,
    });
    expect(future.count).toBe(0);
    const searched = await t.json<AuditEntryDto[]>({
      method: 'GET',
      url: '/api/AuditLog?Search=north works',
      token: users.admin,
    });
    expect(searched.data.map((e) => e.ResourceName)).toEqual(['North works']);
    const bad = await t.call({ method: 'GET', url: '/api/AuditLog?Begin=yesterday-ish', token: users.admin, lang: 'zh-CN' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Begin');
  });

  it('shows one entry with before and after, secrets masked', async () => {
    const entries = await t.json<AuditEntryDto[]>({
      method: 'GET',
      url: '/api/AuditLog?ResourceKind=simAccount',
      token: users.admin,
    });
    const id = entries.data[0]?.Id ?? 0;
    const one = await t.json<AuditEntryDetailDto>({ method: 'GET', url: `/api/AuditLog/${String(id)}`, token: users.admin });
    expect(one.data.Before).toBeNull();
    expect(one.data.After).toMatchObject({ SimAccount: 'acct1' });
    expect(JSON.stringify(one.data)).not.toContain('pass-9876');
  });

  it('exports the selection as CSV and as an Excel workbook in the caller’s language', async () => {
    const csv = await t.call({
      method: 'GET',
      url: '/api/AuditLog/Export?Format=csv&ResourceKind=user',
      token: users.admin,
      lang: 'zh-CN',
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('时间,租户,账号,用户,地址,操作,对象类型,对象编号,对象名称,所属,变更字段,变更前,变更后,接口');
    expect(lines.some((l) => l.includes('修改') && l.includes('用户') && l.includes('Roles'))).toBe(true);
    expect(csv.body).not.toContain('Secret12345');

    const xlsx = await t.call({ method: 'GET', url: '/api/AuditLog/Export?Format=xlsx', token: users.admin });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).getCell(1).value).toBe('Time');
    expect(sheet?.rowCount).toBeGreaterThan(5);
  });

  it('has no call that changes or deletes an entry', () => {
    const writes = t.app.routeTable.filter(
      (r) => /auditlog/i.test(r.url) && r.method.split(',').some((m) => m !== 'GET' && m !== 'HEAD'),
    );
    expect(writes).toEqual([]);
  });

  it('keeps the change of an administrator-only setting in the tenant of the group changed', async () => {
    await settle();
    const res = await call('PUT', '/api/group/watermark', { Watermark: false });
    expect(res.statusCode).toBe(200);
    const entry = await onlyEntry();
    expect(entry).toMatchObject({ resource_kind: 'group', resource_id: String(g), changed: ['Watermark'] });
    await call('PUT', '/api/group/watermark', { Watermark: true });
    await settle();
  });
});
