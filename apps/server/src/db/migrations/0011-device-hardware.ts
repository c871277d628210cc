/**
 * A device's own hardware rows (spec §7 {kind}/{id}/DeviceHardware): the Modbus registers of
 * its data points, as a type's hardware rows give them, for a device whose wiring differs from
 * its type's.
 */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  await t
    .id(db.schema.createTable('device_hardware_configs'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('device_sn', 'text', (c) => c.notNull())
    // A library point deleted takes the device's rows of it along.
    .addColumn('data_define_id', 'integer', (c) => c.notNull().references('data_defines.id').onDelete('cascade'))
    .addColumn('no', 'text', text)
    .addColumn('sn', 'integer', zero)
    .addColumn('show_key', 'text', text)
    .addColumn('key_type', 'text', text)
    .addColumn('max_value', 'double precision')
    .addColumn('min_value', 'double precision')
    .addColumn('comm', 'text', text)
    .addColumn('port', 'text', text)
    .addColumn('modbus_slave', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('plc_type', 'text', text)
    .addColumn('reg_ad', 'integer', zero)
    .addColumn('cmd', 'integer', (c) => c.notNull().defaultTo(3))
    .addColumn('address', 'text', text)
    .addColumn('bit_off_set', 'integer', zero)
    .addColumn('lens', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('device_hardware_configs_sn_idx')
    .on('device_hardware_configs')
    .columns(['device_sn', 'sn'])
    .execute();
};
