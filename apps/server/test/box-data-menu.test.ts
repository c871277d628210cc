/**
 * Box data (/sys/boxData) is in one menu: System Configure, for a new group from DEFAULT_MENUS and
 * for a group made before it by migration 0024, granted to the administrator roles only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { buildTenant, defaultRole } from './factories.ts';
import { up as addBoxDataMenu } from '../src/db/migrations/0024-box-data-menu.ts';

describe.each(databaseKinds)('the box data menu on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const boxDataMenus = (groupId: number) =>
    t.app.ctx.db
      .selectFrom('sys_menus as m')
      .innerJoin('sys_menus as p', 'p.id', 'm.parent_id')
      .select(['m.id', 'm.name', 'm.router', 'p.name as parent'])
      .where('m.group_id', '=', groupId)
      .where('m.url', '=', '/sys/boxData')
      .execute();
  const grantedTo = async (menuId: number) =>
    (await t.app.ctx.db.selectFrom('role_menus').select('role_id').where('menu_id', '=', menuId).execute()).map((r) => r.role_id);

  it('is under System Configure for a new group, for its administrators', async () => {
    const tenant = await buildTenant(t.app.ctx.db);
    const menus = await boxDataMenus(tenant.groupId);
    expect(menus).toEqual([
      expect.objectContaining({
        name: 'Box data',
        parent: 'System Configure',
        router: JSON.stringify({ path: '/sys/boxData', componentUrl: 'sys/boxData' }),
      }),
    ]);
    const admin = await defaultRole(t.app.ctx.db, tenant.groupId, 'Administrator');
    const operator = await defaultRole(t.app.ctx.db, tenant.groupId, 'Operator');
    const roles = await grantedTo(menus[0]?.id ?? 0);
    expect(roles).toContain(admin);
    expect(roles).not.toContain(operator);
  });

  it('is added once to a group made before it', async () => {
    const db = t.app.ctx.db;
    const tenant = await buildTenant(db);
    const [seeded] = await boxDataMenus(tenant.groupId);
    await db
      .deleteFrom('role_menus')
      .where('menu_id', '=', seeded?.id ?? 0)
      .execute();
    await db
      .deleteFrom('sys_menus')
      .where('id', '=', seeded?.id ?? 0)
      .execute();

    await addBoxDataMenu(db as unknown as Kysely<unknown>);
    await addBoxDataMenu(db as unknown as Kysely<unknown>);
    const menus = await boxDataMenus(tenant.groupId);
    expect(menus).toHaveLength(1);
    expect(menus[0]?.parent).toBe('System Configure');
    expect(await grantedTo(menus[0]?.id ?? 0)).toEqual([await defaultRole(db, tenant.groupId, 'Administrator')]);
  });
});
