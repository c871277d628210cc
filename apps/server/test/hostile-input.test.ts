/**
 * Input the fuzz pass (api-fuzz.test.ts) found answered with a server error on PostgreSQL: ids
 * and sort numbers beyond its 32-bit integer columns, and texts holding NUL, which no text column
 * stores. Each is refused as a field error in the caller's language and reaches no query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';

describe.each(databaseKinds)('hostile input on %s', (kind) => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp(kind);
    token = await t.login(ADMIN.account, ADMIN.password);
  });
  afterAll(async () => {
    await t.close();
  });

  const refused = async (options: Parameters<TestApp['call']>[0], field: string, lang = 'en-US') => {
    const res = await t.call({ ...options, token, lang });
    expect(res.statusCode, res.body).toBe(400);
    const errors = res.json<{ data: { errors: { field: string; message: string }[] } }>().data.errors;
    expect(errors.map((e) => e.field)).toContain(field);
    return errors.find((e) => e.field === field)?.message ?? '';
  };

  it('refuses ids beyond the largest record id, in a body, a path and a list', async () => {
    const body = { Id: 2_147_483_648, ModuleName: 'Blowers', ModuleType: '', Sn: 1 };
    expect(await refused({ method: 'PUT', url: '/api/type/1/TypeModule', payload: body }, 'Id')).toMatch(/2147483647/);
    await refused({ method: 'DELETE', url: '/api/1/ModuleOperate/8640000000000000' }, 'id');
    await refused(
      { method: 'POST', url: '/api/UserRole/SaveUserRole', payload: { UserId: 1, RoleIds: [7_161_700_711_137_280] } },
      'RoleIds.0',
    );
  });

  it('refuses a panel sort number beyond the sort range', async () => {
    const payload = { deviceSn: 'SL0000000001', typeId: 1, PanelName: 'Pumps', Sn: 8_919_431_335_903_232 };
    await refused({ method: 'POST', url: '/api/AddPanel', payload }, 'Sn');
  });

  it('refuses a text holding NUL, naming the field in the caller’s language', async () => {
    const payload = { DataDefineId: 1, ParentId: 0, Name: 'a\u0000b', Value: '', SchemaType: '' };
    expect(await refused({ method: 'POST', url: '/api/type/1/TypeSchema', payload }, 'Name')).toMatch(/NUL/);
    expect(await refused({ method: 'POST', url: '/api/type/1/TypeSchema', payload }, 'Name', 'zh-CN')).toMatch(/空字符/);
    await refused({ method: 'GET', url: '/api/Type', query: { Name: 'x\u0000' } }, 'Name');
  });
});
