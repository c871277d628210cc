/**
 * Templates' SQL: a template and its parts, the standard template of a type, and what a device
 * holds from templates (its panels, data points and configuration rows, `from_type` 1 when its
 * type put them there).
 */
import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DeviceConfigTable, DeviceDataDefineTable, DevicePanelTable } from '../../db/tables.ts';

/** A device of a group. */
export interface DeviceKey {
  groupId: number;
  deviceSn: string;
}

export class TemplatesRepository {
  private readonly db: Db;

  /** `db` may be a transaction (the device events' handlers run in the writing one). */
  constructor(db: Db) {
    this.db = db;
  }

  // ---- Templates -----------------------------------------------------------------------------------

  /** The id of a template of the group, or undefined. */
  async ownId(id: number, groupId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('type_templates')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.id;
  }

  /** The template a panel or accessory belongs to. */
  async templateOf(table: 'template_panels' | 'template_accessories', id: number): Promise<number | undefined> {
    return (await this.db.selectFrom(table).select('temp_id').where('id', '=', id).executeTakeFirst())?.temp_id;
  }

  /** Makes no template of the type standard. */
  async clearStandard(groupId: number, typeId: number): Promise<void> {
    await this.db
      .updateTable('type_templates')
      .set({ is_standard: 0 })
      .where('group_id', '=', groupId)
      .where('type_id', '=', typeId)
      .execute();
  }

  one(id: number, groupId: number) {
    return this.db
      .selectFrom('type_templates')
      .selectAll()
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
  }

  /** A template's parts, each list in its order. */
  async parts(id: number) {
    const [profiles, panels, args, accessories, controls, configs] = await Promise.all([
      this.db.selectFrom('template_profiles').selectAll().where('temp_id', '=', id).orderBy('id').execute(),
      this.panels(id),
      this.args(id),
      this.db.selectFrom('template_accessories').selectAll().where('temp_id', '=', id).orderBy('id').execute(),
      this.db
        .selectFrom('template_control_data')
        .selectAll()
        .where('temp_id', '=', id)
        .orderBy('sequence_in')
        .orderBy('id')
        .execute(),
      this.configs(id),
    ]);
    return { profiles, panels, args, accessories, controls, configs };
  }

  /** The id of the type's standard template, or undefined. */
  async standardOf(groupId: number, typeId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('type_templates')
      .select('id')
      .where('group_id', '=', groupId)
      .where('type_id', '=', typeId)
      .where('is_standard', '=', 1)
      .executeTakeFirst();
    return row?.id;
  }

  panels(tempId: number) {
    return this.db.selectFrom('template_panels').selectAll().where('temp_id', '=', tempId).orderBy('sn').orderBy('id').execute();
  }

  profiles(tempId: number) {
    return this.db.selectFrom('template_profiles').selectAll().where('temp_id', '=', tempId).orderBy('id').execute();
  }

  args(tempId: number) {
    return this.db.selectFrom('template_args').selectAll().where('temp_id', '=', tempId).orderBy('id').execute();
  }

  configs(tempId: number) {
    return this.db.selectFrom('template_configs').selectAll().where('temp_id', '=', tempId).orderBy('id').execute();
  }

  /** The type and default of the group's library data points of the keys. */
  defineDefaults(groupId: number, keys: string[]) {
    if (keys.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('data_defines')
      .select(['data_key', 'data_type', 'default_value'])
      .where('group_id', '=', groupId)
      .where('data_key', 'in', keys)
      .execute();
  }

  // ---- What a device holds -------------------------------------------------------------------------

  /** The device's panels: name → id. */
  async devicePanels(device: DeviceKey): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('device_panels')
      .select(['id', 'panel_name'])
      .where('group_id', '=', device.groupId)
      .where('device_sn', '=', device.deviceSn)
      .execute();
    return new Map(rows.map((p) => [p.panel_name, p.id]));
  }

  /** The keys of the device's data points. */
  async deviceDataKeys(device: DeviceKey): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('device_data_defines')
      .select('data_key')
      .where('group_id', '=', device.groupId)
      .where('device_sn', '=', device.deviceSn)
      .execute();
    return new Set(rows.map((d) => d.data_key));
  }

  /** The names of the device's configuration rows. */
  async deviceConfigNames(device: DeviceKey): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('device_configs')
      .select('data_name')
      .where('group_id', '=', device.groupId)
      .where('device_sn', '=', device.deviceSn)
      .execute();
    return new Set(rows.map((c) => c.data_name));
  }

  async insertPanel(row: Insertable<DevicePanelTable>): Promise<number> {
    return (await this.db.insertInto('device_panels').values(row).returning('id').executeTakeFirstOrThrow()).id;
  }

  async insertDataDefines(rows: Insertable<DeviceDataDefineTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('device_data_defines').values(rows).execute();
  }

  async insertConfigs(rows: Insertable<DeviceConfigTable>[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('device_configs').values(rows).execute();
  }

  /**
   * Removes what the device's type put there: its data points first, then its panels (a user's
   * data point on such a panel stays, without a panel), then its configuration rows.
   */
  async removeFromType(device: DeviceKey): Promise<void> {
    const { groupId, deviceSn } = device;
    await this.db
      .deleteFrom('device_data_defines')
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('from_type', '=', 1)
      .execute();
    const gone = this.db
      .selectFrom('device_panels')
      .select('id')
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('from_type', '=', 1);
    await this.db.updateTable('device_data_defines').set({ panel_id: null }).where('panel_id', 'in', gone).execute();
    await this.db
      .deleteFrom('device_panels')
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('from_type', '=', 1)
      .execute();
    await this.db
      .deleteFrom('device_configs')
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('from_type', '=', 1)
      .execute();
  }

  /** Removes the device's own data points and panels. */
  async removeDeviceData(device: DeviceKey): Promise<void> {
    await this.db
      .deleteFrom('device_data_defines')
      .where('group_id', '=', device.groupId)
      .where('device_sn', '=', device.deviceSn)
      .execute();
    await this.db
      .deleteFrom('device_panels')
      .where('group_id', '=', device.groupId)
      .where('device_sn', '=', device.deviceSn)
      .execute();
  }
}
