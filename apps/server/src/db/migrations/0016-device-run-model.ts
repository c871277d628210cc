/**
 * A device's custom run model (spec §3, §7: DeviceAccessory, DeviceSystem, DeviceSystemAccessory,
 * DeviceSystemCotrolData): its equipment, its run systems (duty/standby rotation), their
 * accessories and the steps of each rotation. A system deleted takes its accessories and steps
 * along, an accessory its steps; a library point deleted takes the steps that switch it.
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
  const owner = (name: string) =>
    t
      .id(db.schema.createTable(name))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
      .addColumn('device_sn', 'text', (c) => c.notNull());

  await owner('device_accessories').addColumn('name', 'text', text).addColumn('icon', 'text', text).execute();
  await owner('device_systems')
    .addColumn('name', 'text', text)
    .addColumn('rest_time', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await owner('device_system_accessories')
    .addColumn('system_id', 'integer', (c) => c.notNull().references('device_systems.id').onDelete('cascade'))
    .addColumn('name', 'text', text)
    .addColumn('icon', 'text', text)
    .execute();
  await owner('device_system_control_data')
    .addColumn('system_id', 'integer', (c) => c.notNull().references('device_systems.id').onDelete('cascade'))
    .addColumn('accessory_id', 'integer', (c) => c.notNull().references('device_system_accessories.id').onDelete('cascade'))
    .addColumn('control_name', 'text', text)
    .addColumn('data_value', 'integer', (c) => c.notNull())
    .addColumn('data_define_id', 'integer', (c) => c.notNull().references('data_defines.id').onDelete('cascade'))
    .addColumn('associate_define_id', 'integer', (c) => c.references('data_defines.id').onDelete('set null'))
    .addColumn('sequence_in', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const table of ['device_accessories', 'device_systems', 'device_system_accessories', 'device_system_control_data']) {
    await db.schema.createIndex(`${table}_device_idx`).on(table).columns(['device_sn']).execute();
  }
};
