/** Warn types' and warn codes' SQL beyond the generic resource (the alarm configuration of a group). */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { WarnCodeTable } from '../../db/tables.ts';

export type WarnCodeRow = Selectable<WarnCodeTable>;

export interface WarnTypeName {
  id: number;
  type_name: string;
  color: string;
}

export class WarnConfigRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** The names and colours of these warn types of the group. */
  async typeNames(groupId: number, ids: number[]): Promise<Map<number, WarnTypeName>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('warn_types')
      .select(['id', 'type_name', 'color'])
      .where('group_id', '=', groupId)
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((t) => [t.id, t]));
  }

  async typeExists(groupId: number, id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('warn_types')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async typeHasCodes(groupId: number, typeId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('warn_codes')
      .select('id')
      .where('group_id', '=', groupId)
      .where('warn_type_id', '=', typeId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The group's code `code` (codes are unique in a group), under `typeId` when given. */
  code(groupId: number, code: string, typeId?: number): Promise<WarnCodeRow | undefined> {
    let query = this.db.selectFrom('warn_codes').selectAll().where('group_id', '=', groupId).where('code', '=', code);
    if (typeId !== undefined) query = query.where('warn_type_id', '=', typeId);
    return query.executeTakeFirst();
  }

  codeById(id: number): Promise<WarnCodeRow> {
    return this.db.selectFrom('warn_codes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async insertCode(groupId: number, typeId: number, code: string, description: string): Promise<number> {
    const { id } = await this.db
      .insertInto('warn_codes')
      .values({ group_id: groupId, warn_type_id: typeId, code, description })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async updateCode(id: number, description: string, typeId: number): Promise<void> {
    await this.db.updateTable('warn_codes').set({ description, warn_type_id: typeId }).where('id', '=', id).execute();
  }

  async deleteCode(id: number): Promise<void> {
    await this.db.deleteFrom('warn_codes').where('id', '=', id).execute();
  }

  /** Whether a data point of the group is linked to the code (DataDefineWarnCode). */
  async codeLinked(groupId: number, code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('data_define_warn_codes')
      .select('id')
      .where('group_id', '=', groupId)
      .where('code', '=', code)
      .executeTakeFirst();
    return row !== undefined;
  }
}
