/** App versions' SQL beyond the generic resource. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { AppVersionTable } from '../../db/tables.ts';

export type AppVersionRow = Selectable<AppVersionTable>;

export class AppVersionsRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** The id of a version of the group, or undefined. */
  async ownId(id: number, groupId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('app_versions')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.id;
  }

  byId(id: number): Promise<AppVersionRow> {
    return this.db.selectFrom('app_versions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async storageKey(id: number): Promise<string | undefined> {
    return (await this.db.selectFrom('app_versions').select('storage_key').where('id', '=', id).executeTakeFirst())?.storage_key;
  }

  async insert(row: Insertable<AppVersionTable>): Promise<number> {
    return (await this.db.insertInto('app_versions').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async update(id: number, values: Updateable<AppVersionTable>): Promise<void> {
    await this.db.updateTable('app_versions').set(values).where('id', '=', id).execute();
  }

  /** The enabled versions of an app type of the group. */
  enabledOfType(groupId: number, type: string): Promise<AppVersionRow[]> {
    return this.db
      .selectFrom('app_versions')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('app_type', '=', type)
      .where('state', '=', 1)
      .execute();
  }

  /** The id of the group a code names. */
  async groupIdByCode(code: string): Promise<number | undefined> {
    return (await this.db.selectFrom('groups').select('id').where('code', '=', code).executeTakeFirst())?.id;
  }
}
