/**
 * An account's arrangement of a device's page (spec §2 Home panels on a 12-column grid; §3 the
 * device panel layout kept per account): one row per account and device, the grid items as JSON.
 */
import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  await t
    .id(db.schema.createTable('device_panel_layouts'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('layout', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_panel_layouts_user_device_idx')
    .unique()
    .on('device_panel_layouts')
    .columns(['user_id', 'device_sn'])
    .execute();
  await db.schema
    .createIndex('device_panel_layouts_device_idx')
    .on('device_panel_layouts')
    .columns(['group_id', 'device_sn'])
    .execute();
};
