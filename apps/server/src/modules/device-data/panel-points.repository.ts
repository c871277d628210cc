/**
 * A device's data points on its panels of one type (the legacy DeviceBaseData and
 * DeviceControlData calls): the device's first panel of that type, and the points on any of them.
 */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DeviceDataDefineTable } from '../../db/tables.ts';

export type PanelPointRow = Selectable<DeviceDataDefineTable>;

export class PanelPointsRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  private onPanelsOf(groupId: number, panelType: number) {
    return this.db
      .selectFrom('device_data_defines as d')
      .innerJoin('device_panels as p', 'p.id', 'd.panel_id')
      .selectAll('d')
      .where('d.group_id', '=', groupId)
      .where('p.group_id', '=', groupId)
      .where('p.type_id', '=', panelType);
  }

  /** The device's points on its panels of the type, by panel then key. */
  list(groupId: number, deviceSn: string, panelType: number): Promise<PanelPointRow[]> {
    return this.onPanelsOf(groupId, panelType)
      .where('d.device_sn', '=', deviceSn)
      .orderBy('p.sn')
      .orderBy('p.id')
      .orderBy('d.data_key')
      .orderBy('d.id')
      .execute();
  }

  /** A point of the group on a panel of the type. */
  one(groupId: number, id: number, panelType: number): Promise<PanelPointRow | undefined> {
    return this.onPanelsOf(groupId, panelType).where('d.id', '=', id).executeTakeFirst();
  }

  async keyTaken(groupId: number, deviceSn: string, panelType: number, key: string, exceptId?: number): Promise<boolean> {
    let q = this.onPanelsOf(groupId, panelType).where('d.device_sn', '=', deviceSn).where('d.data_key', '=', key);
    if (exceptId !== undefined) q = q.where('d.id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** The device's first panel of the type (by its order), made with `name` when it has none. */
  async panelFor(groupId: number, deviceSn: string, panelType: number, name: string): Promise<number> {
    const found = await this.db
      .selectFrom('device_panels')
      .select('id')
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('type_id', '=', panelType)
      .orderBy('sn')
      .orderBy('id')
      .executeTakeFirst();
    if (found) return found.id;
    const made = await this.db
      .insertInto('device_panels')
      .values({ group_id: groupId, device_sn: deviceSn, panel_name: name, type_id: panelType })
      .returning('id')
      .executeTakeFirstOrThrow();
    return made.id;
  }

  insert(row: Insertable<DeviceDataDefineTable>): Promise<PanelPointRow> {
    return this.db.insertInto('device_data_defines').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, values: Updateable<DeviceDataDefineTable>): Promise<PanelPointRow> {
    return this.db.updateTable('device_data_defines').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
  }

  async remove(id: number): Promise<void> {
    await this.db.deleteFrom('device_data_defines').where('id', '=', id).execute();
  }
}
