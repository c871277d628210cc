/** The SQL of a device's run model (systems, their accessories and steps), scoped by group and device. */
import type { Db } from '../../db/database.ts';

export interface StepRow {
  id: number;
  system_id: number;
  accessory_id: number;
  accessory: string;
  control_name: string;
  data_value: number;
  key: string;
  key_name: string;
  elapsed_key: string | null;
  sequence_in: number;
}

export class RunModelRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** The device a row of one of the run model's tables belongs to. */
  async deviceOf(
    table: 'device_systems' | 'device_system_accessories' | 'device_system_control_data',
    groupId: number,
    id: number,
  ): Promise<string | undefined> {
    const row = await this.db
      .selectFrom(table)
      .select('device_sn')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.device_sn;
  }

  /** The system of one of the device's system accessories. */
  async accessorySystem(groupId: number, deviceSn: string, accessoryId: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('device_system_accessories')
      .select('system_id')
      .where('id', '=', accessoryId)
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .executeTakeFirst();
    return row?.system_id;
  }

  async hasSystem(groupId: number, deviceSn: string, systemId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('device_systems')
      .select('id')
      .where('id', '=', systemId)
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The group's library points of these keys: their ids. */
  async libraryIds(groupId: number, keys: string[]): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('data_defines')
      .select(['id', 'data_key'])
      .where('group_id', '=', groupId)
      .where('data_key', 'in', keys)
      .orderBy('id')
      .execute();
    const ids = new Map<string, number>();
    for (const r of rows) if (!ids.has(r.data_key)) ids.set(r.data_key, r.id);
    return ids;
  }

  /** The device's systems, their accessories and their steps (with the switch's and elapsed point's keys), in order. */
  async model(groupId: number, deviceSn: string) {
    const systems = await this.db
      .selectFrom('device_systems')
      .select(['id', 'device_sn', 'name', 'rest_time'])
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .orderBy('id')
      .execute();
    const accessories = await this.db
      .selectFrom('device_system_accessories')
      .select(['id', 'device_sn', 'system_id', 'name', 'icon'])
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .orderBy('id')
      .execute();
    const steps: StepRow[] = await this.db
      .selectFrom('device_system_control_data as c')
      .innerJoin('device_system_accessories as a', 'a.id', 'c.accessory_id')
      .innerJoin('data_defines as d', 'd.id', 'c.data_define_id')
      .leftJoin('data_defines as e', 'e.id', 'c.associate_define_id')
      .select([
        'c.id',
        'c.system_id',
        'c.accessory_id',
        'a.name as accessory',
        'c.control_name',
        'c.data_value',
        'd.data_key as key',
        'd.data_name as key_name',
        'e.data_key as elapsed_key',
        'c.sequence_in',
      ])
      .where('c.group_id', '=', groupId)
      .where('c.device_sn', '=', deviceSn)
      .orderBy('c.sequence_in')
      .orderBy('c.id')
      .execute();
    return { systems, accessories, steps };
  }
}
