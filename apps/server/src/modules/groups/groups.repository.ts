/** Tenants. */
import { sql } from 'kysely';
import type { GroupDto } from '@sluice/shared/group.schema';
import type { Db } from '../../db/database.ts';
import type { Insertable, Selectable } from 'kysely';
import type { GroupTable, SysMenuTable } from '../../db/tables.ts';

const toDto = (row: Selectable<GroupTable>): GroupDto => ({
  Id: row.id,
  GroupName: row.group_name,
  Account: row.account,
  Code: row.code,
  Description: row.description,
  Logo: row.logo,
  Watermark: row.watermark === 1,
});

export class GroupsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async get(id: number): Promise<GroupDto | undefined> {
    const row = await this.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toDto(row);
  }

  /** Whether a platform administrator belongs to the group (such a group is never removed). */
  async holdsPlatformAdmin(id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('group_id', '=', id)
      .where('is_platform_admin', '=', 1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async findByCode(code: string): Promise<GroupDto | undefined> {
    const row = await this.db
      .selectFrom('groups')
      .selectAll()
      .where(sql`lower(code)`, '=', code.toLowerCase())
      .executeTakeFirst();
    return row && toDto(row);
  }

  /** Whether another group (not `exceptId`) has this name or code, in any case. */
  async nameOrCodeTaken(name: string, code: string, exceptId?: number): Promise<boolean> {
    let query = this.db
      .selectFrom('groups')
      .select('id')
      .where((eb) => eb.or([eb(sql`lower(group_name)`, '=', name.toLowerCase()), eb(sql`lower(code)`, '=', code.toLowerCase())]));
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async update(
    id: number,
    changes: Partial<Pick<GroupTable, 'group_name' | 'code' | 'description'>> & { watermark?: number },
  ): Promise<boolean> {
    const result = await this.db.updateTable('groups').set(changes).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Groups whose name contains `name`; `onlyId` narrows the search to one group. */
  async findByName(
    name: string,
    page: { pageNo: number; pageSize: number },
    onlyId?: number,
  ): Promise<{ rows: GroupDto[]; count: number }> {
    let query = this.db.selectFrom('groups');
    if (name) query = query.where(sql`lower(group_name)`, 'like', `%${name.toLowerCase()}%`);
    if (onlyId !== undefined) query = query.where('id', '=', onlyId);
    const { count } = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('id')
      .limit(page.pageSize)
      .offset((page.pageNo - 1) * page.pageSize)
      .execute();
    return { rows: rows.map(toDto), count };
  }

  async insert(group: Omit<GroupTable, 'id' | 'created_at' | 'logo' | 'watermark'>, now = Date.now()): Promise<number> {
    const row = await this.db
      .insertInto('groups')
      .values({ ...group, logo: '', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async setLogo(id: number, logo: string): Promise<void> {
    await this.db.updateTable('groups').set({ logo }).where('id', '=', id).execute();
  }

  async insertRole(role: { group_id: number; name: string; is_admin: number }): Promise<number> {
    const row = await this.db
      .insertInto('roles')
      .values({ ...role, module_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  // ---- What a new tenant starts with ---------------------------------------------------------------

  /** A new group's HJ 212 pollutant codes. */
  async insertHj212Codes(
    groupId: number,
    codes: readonly { Code: string; DataKey: string; Name: string; Scale: number; Total: string }[],
  ) {
    await this.db
      .insertInto('hj212_codes')
      .values(
        codes.map((c) => ({
          group_id: groupId,
          code: c.Code,
          data_key: c.DataKey,
          name: c.Name,
          scale: c.Scale,
          total: c.Total,
        })),
      )
      .execute();
  }

  async insertModule(groupId: number, name: string, code: string): Promise<number> {
    return (
      await this.db
        .insertInto('modules')
        .values({ group_id: groupId, module_name: name, code })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async insertOperate(groupId: number, moduleId: number, name: string, code: string): Promise<number> {
    return (
      await this.db
        .insertInto('module_operates')
        .values({ group_id: groupId, module_id: moduleId, name, code })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async grantOperate(roleId: number, operateId: number): Promise<void> {
    await this.db.insertInto('role_operates').values({ role_id: roleId, operate_id: operateId }).execute();
  }

  async insertMenu(menu: Insertable<SysMenuTable>): Promise<number> {
    return (await this.db.insertInto('sys_menus').values(menu).returning('id').executeTakeFirstOrThrow()).id;
  }

  async grantMenu(roleId: number, menuId: number): Promise<void> {
    await this.db.insertInto('role_menus').values({ role_id: roleId, menu_id: menuId }).execute();
  }
}
