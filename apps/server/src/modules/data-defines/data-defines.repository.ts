/**
 * The library's SQL beyond the generic resource: data points, categories (a data point's Category
 * holds names joined by commas), links to warn codes, and where device types use a data point.
 */
import { sql, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DataDefineTable } from '../../db/tables.ts';
import { STORED_PARTS } from '../device-types/type-parts.ts';

export type DataDefineRow = Selectable<DataDefineTable>;

const listHas = (name: string) =>
  sql<SqlBool>`(',' || lower(category) || ',') like ${`%,${name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)},%`} escape '\\'`;

export class DataDefinesRepository {
  private readonly db: Db;

  /** `db` may be a transaction. */
  constructor(db: Db) {
    this.db = db;
  }

  /** The group's data points, by key. */
  all(groupId: number): Promise<DataDefineRow[]> {
    return this.db.selectFrom('data_defines').selectAll().where('group_id', '=', groupId).orderBy('data_key').execute();
  }

  async insert(row: Insertable<DataDefineTable>): Promise<void> {
    await this.db.insertInto('data_defines').values(row).execute();
  }

  async update(id: number, row: Updateable<DataDefineTable>): Promise<void> {
    await this.db.updateTable('data_defines').set(row).where('id', '=', id).execute();
  }

  async keyOf(id: number): Promise<string> {
    return (await this.db.selectFrom('data_defines').select('data_key').where('id', '=', id).executeTakeFirstOrThrow()).data_key;
  }

  async keyExists(groupId: number, key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('data_defines')
      .select('data_key')
      .where('group_id', '=', groupId)
      .where('data_key', '=', key)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The names of the group's categories. */
  async categoryNames(groupId: number): Promise<string[]> {
    return (await this.db.selectFrom('data_categories').select('name').where('group_id', '=', groupId).execute()).map(
      (r) => r.name,
    );
  }

  async categoryName(id: number): Promise<string> {
    return (await this.db.selectFrom('data_categories').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name;
  }

  async addCategory(groupId: number, name: string): Promise<void> {
    await this.db.insertInto('data_categories').values({ group_id: groupId, name }).execute();
  }

  /** The group's data points that carry a category. */
  inCategory(groupId: number, name: string) {
    return this.db
      .selectFrom('data_defines')
      .select(['id', 'category'])
      .where('group_id', '=', groupId)
      .where(listHas(name))
      .execute();
  }

  async setCategory(id: number, category: string): Promise<void> {
    await this.db.updateTable('data_defines').set({ category }).where('id', '=', id).execute();
  }

  /** Points the group's links to warn codes of one key at another. */
  async renameWarnLinks(groupId: number, from: string, to: string): Promise<void> {
    await this.db
      .updateTable('data_define_warn_codes')
      .set({ data_key: to })
      .where('group_id', '=', groupId)
      .where('data_key', '=', from)
      .execute();
  }

  async removeWarnLinks(groupId: number, key: string): Promise<void> {
    await this.db.deleteFrom('data_define_warn_codes').where('group_id', '=', groupId).where('data_key', '=', key).execute();
  }

  async warnCodeExists(groupId: number, code: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('warn_codes')
      .select('code')
      .where('group_id', '=', groupId)
      .where('code', '=', code)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The name of a device type using the data point, or undefined when none does. */
  async typeUsing(groupId: number, dataDefineId: number): Promise<string | undefined> {
    // Every part naming a data point (@sluice/shared/device-type-parts).
    const [first, ...rest] = STORED_PARTS.flatMap(({ table, dataDefineColumn }) =>
      dataDefineColumn
        ? [
            this.db
              .selectFrom(table)
              .select('type_id')
              .where(dataDefineColumn as 'data_define_id', '=', dataDefineId),
          ]
        : [],
    );
    if (!first) return undefined;
    const users = rest.reduce((all, next) => all.unionAll(next), first);
    const row = await this.db
      .selectFrom('device_types')
      .select('type_name')
      .where('group_id', '=', groupId)
      .where('id', 'in', users)
      .orderBy('id')
      .executeTakeFirst();
    return row?.type_name;
  }
}
