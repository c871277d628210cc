/**
 * Device types' SQL beyond the generic resource: a type and its tree, what uses it, its parts'
 * references and lookups, its files, and the loose row operations of a deep copy.
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DeviceTypeTable, TypeImageTable, TypeUpdateFileTable } from '../../db/tables.ts';
import type { TypePartTable } from './type-parts.ts';

type Row = Record<string, unknown>;
/** Table and column names of a deep copy are data, so those queries see loose rows. */
type LooseDb = Kysely<Record<string, Row>>;

export type DeviceTypeRow = Selectable<DeviceTypeTable>;
export type TypeImageRow = Selectable<TypeImageTable>;
export type TypeUpdateFileRow = Selectable<TypeUpdateFileTable>;
export type TypeFileTable = 'type_images' | 'type_update_files';

export class DeviceTypesRepository {
  private readonly db: Db;

  /** `db` may be a transaction. */
  constructor(db: Db) {
    this.db = db;
  }

  private get loose(): LooseDb {
    return this.db as unknown as LooseDb;
  }

  // ---- Types -------------------------------------------------------------------------------------

  one(id: number, groupId: number): Promise<DeviceTypeRow | undefined> {
    return this.db.selectFrom('device_types').selectAll().where('id', '=', id).where('group_id', '=', groupId).executeTakeFirst();
  }

  /** Every type of the group with its parent. */
  tree(groupId: number): Promise<{ id: number; parent_id: number }[]> {
    return this.db.selectFrom('device_types').select(['id', 'parent_id']).where('group_id', '=', groupId).execute();
  }

  async hasChildren(id: number, groupId: number): Promise<boolean> {
    const child = await this.db
      .selectFrom('device_types')
      .select('id')
      .where('group_id', '=', groupId)
      .where('parent_id', '=', id)
      .executeTakeFirst();
    return child !== undefined;
  }

  /** Devices of the type that are not in the recycle bin. */
  async activeDevices(id: number, groupId: number): Promise<number> {
    const { count } = await this.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('group_id', '=', groupId)
      .where('type_id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  /** How many of the ids are types of the group. */
  async ownedCount(groupId: number, ids: number[]): Promise<number> {
    return (
      await this.db.selectFrom('device_types').select('id').where('group_id', '=', groupId).where('id', 'in', ids).execute()
    ).length;
  }

  async insertType(row: Insertable<DeviceTypeTable>): Promise<number> {
    return (await this.db.insertInto('device_types').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  // ---- Parts ---------------------------------------------------------------------------------------

  /** A module of the group, or undefined. */
  async ownModule(id: number, groupId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('type_modules')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.id;
  }

  async moduleTypeId(moduleId: number): Promise<number> {
    return (await this.db.selectFrom('type_modules').select('type_id').where('id', '=', moduleId).executeTakeFirstOrThrow())
      .type_id;
  }

  /** The key of a library data point of the group, or undefined. */
  async dataDefineKey(id: number, groupId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('data_defines')
      .select('data_key')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.data_key;
  }

  /** A library data point's data type (boolean, readable …), of the group. */
  async dataDefineType(id: number, groupId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('data_defines')
      .select('data_type')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.data_type;
  }

  /** Whether a row of a part belongs to the type. */
  async inType(table: TypePartTable, id: number, typeId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom(table)
      .select('id')
      .where('id', '=', id)
      .where('type_id', '=', typeId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The type a row of a part belongs to. */
  async typeOf(table: TypePartTable, id: number): Promise<number> {
    return (await this.db.selectFrom(table).select('type_id').where('id', '=', id).executeTakeFirstOrThrow()).type_id;
  }

  /** Whether the type already has the library data point (other than row `exceptId`). */
  async hasDataDefine(typeId: number, dataDefineId: number, exceptId?: number): Promise<boolean> {
    let query = this.db
      .selectFrom('type_data_defines')
      .select('id')
      .where('type_id', '=', typeId)
      .where('data_define_id', '=', dataDefineId);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** The group's library data points of the ids. */
  libraryRows(groupId: number, ids: number[]) {
    return this.db.selectFrom('data_defines').selectAll().where('group_id', '=', groupId).where('id', 'in', ids).execute();
  }

  /** The DataKeys of a type's data points, in order. */
  async dataKeys(typeId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('type_data_defines')
      .innerJoin('data_defines', 'data_defines.id', 'type_data_defines.data_define_id')
      .select('data_defines.data_key')
      .where('type_data_defines.type_id', '=', typeId)
      .orderBy('data_defines.data_key')
      .execute();
    return rows.map((r) => r.data_key);
  }

  /** A module's controls, in order. */
  moduleControls(typeId: number, moduleId: number) {
    return this.db
      .selectFrom('type_module_controls')
      .selectAll()
      .where('module_id', '=', moduleId)
      .where('type_id', '=', typeId)
      .orderBy('sn')
      .orderBy('id')
      .execute();
  }

  /** A type's schema nodes, oldest first. */
  schemaRows(typeId: number) {
    return this.db.selectFrom('type_schemas').selectAll().where('type_id', '=', typeId).orderBy('id').execute();
  }

  async deleteSchemaNodes(ids: number[]): Promise<void> {
    if (ids.length > 0) await this.db.deleteFrom('type_schemas').where('id', 'in', ids).execute();
  }

  // ---- Files -------------------------------------------------------------------------------------

  /** The stored files of a type's images and firmware. */
  async fileKeys(typeId: number): Promise<string[]> {
    const images = await this.db.selectFrom('type_images').select('storage_key').where('type_id', '=', typeId).execute();
    const files = await this.db.selectFrom('type_update_files').select('storage_key').where('type_id', '=', typeId).execute();
    return [...images, ...files].map((r) => r.storage_key);
  }

  async fileKey(table: TypeFileTable, id: number): Promise<string | undefined> {
    return (await this.db.selectFrom(table).select('storage_key').where('id', '=', id).executeTakeFirst())?.storage_key;
  }

  /** The highest image number of a type (0 without images). */
  async lastImageSn(typeId: number): Promise<number> {
    const last = await this.db
      .selectFrom('type_images')
      .select((eb) => eb.fn.max('sn').as('sn'))
      .where('type_id', '=', typeId)
      .executeTakeFirst();
    return last?.sn ?? 0;
  }

  async insertImage(row: Insertable<TypeImageTable>): Promise<TypeImageRow> {
    const { id } = await this.db.insertInto('type_images').values(row).returning('id').executeTakeFirstOrThrow();
    return this.db.selectFrom('type_images').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** How many of the ids are images of the type. */
  async imagesOfType(typeId: number, ids: number[]): Promise<number> {
    return (await this.db.selectFrom('type_images').select('id').where('type_id', '=', typeId).where('id', 'in', ids).execute())
      .length;
  }

  /** Sets the order (and names) of images, in one transaction. */
  async saveImages(images: { Id: number; Sn: number; ImageName?: string | undefined }[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const image of images) {
        await trx
          .updateTable('type_images')
          .set({ sn: image.Sn, ...(image.ImageName === undefined ? {} : { image_name: image.ImageName }) })
          .where('id', '=', image.Id)
          .execute();
      }
    });
  }

  images(typeId: number): Promise<TypeImageRow[]> {
    return this.db.selectFrom('type_images').selectAll().where('type_id', '=', typeId).orderBy('sn').orderBy('id').execute();
  }

  async insertUpdateFile(row: Insertable<TypeUpdateFileTable>): Promise<TypeUpdateFileRow> {
    const { id } = await this.db.insertInto('type_update_files').values(row).returning('id').executeTakeFirstOrThrow();
    return this.db.selectFrom('type_update_files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  // ---- Loose rows, for the deep copy ---------------------------------------------------------------

  /** The rows of a table whose column is the value (and of the group, when given), oldest first. */
  rowsWhere(table: string, column: string, value: number, groupId?: number): Promise<Row[]> {
    let query = this.loose.selectFrom(table).selectAll().where(column, '=', value);
    if (groupId !== undefined) query = query.where('group_id', '=', groupId);
    return query.orderBy('id').execute();
  }

  async insertRow(table: string, row: Row): Promise<number> {
    return Number((await this.loose.insertInto(table).values(row).returning('id').executeTakeFirstOrThrow()).id);
  }

  async setColumn(table: string, id: number, column: string, value: unknown): Promise<void> {
    await this.loose
      .updateTable(table)
      .set({ [column]: value })
      .where('id', '=', id)
      .execute();
  }

  async deleteWhere(table: string, column: string, value: number): Promise<void> {
    await this.loose.deleteFrom(table).where(column, '=', value).execute();
  }
}
