/**
 * Maintenance by run hours (issue 16): a device type's service intervals (type_maintenance, a
 * part of the type: the run switch whose time on counts as running, and the hours between
 * services), each device's counted run time per interval (maintenance_counters), and the repair a
 * due service made (repairs.maintenance_id).
 */
import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  await t
    .id(db.schema.createTable('type_maintenance'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('type_id', 'integer', (c) => c.notNull().references('device_types.id').onDelete('cascade'))
    .addColumn('data_define_id', 'integer', (c) => c.notNull().references('data_defines.id'))
    // The DataKey of the run switch, kept with the row as type_statistics keeps stat_key.
    .addColumn('run_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('interval_hours', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('type_maintenance_type_idx').on('type_maintenance').column('type_id').execute();
  await db.schema.createIndex('type_maintenance_define_idx').on('type_maintenance').column('data_define_id').execute();

  await db.schema
    .createTable('maintenance_counters')
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('maintenance_id', 'integer', (c) => c.notNull().references('type_maintenance.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    // Seconds the switch was on, counted up to counted_to (ms).
    .addColumn('run_seconds', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('counted_to', t.bigint, (c) => c.notNull())
    // run_seconds when the last service was finished (0 before any).
    .addColumn('service_seconds', 'double precision', (c) => c.notNull().defaultTo(0))
    // The open maintenance repair, while there is one.
    .addColumn('open_repair_id', 'integer')
    .addPrimaryKeyConstraint('maintenance_counters_pk', ['device_sn', 'maintenance_id'])
    .execute();

  await db.schema.alterTable('repairs').addColumn('maintenance_id', 'integer').execute();
};
