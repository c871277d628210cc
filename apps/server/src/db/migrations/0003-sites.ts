/** Sites and devices: regions, the client → project → station tree, devices and what hangs on them. */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const groupId = (c: ColumnDefinitionBuilder) => c.notNull().references('groups.id');
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');

  await t
    .id(db.schema.createTable('regions'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('radius', 'text', text)
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('region_code', 'text', text)
    .addColumn('point', 'text', text)
    .execute();
  await db.schema.createIndex('regions_group_idx').on('regions').columns(['group_id', 'parent_id']).execute();

  await t
    .id(db.schema.createTable('projects'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('project_type', 'integer', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('client_id', 'integer')
    .addColumn('region_id', 'integer')
    .addColumn('area_id', 'text')
    .addColumn('address', 'text', text)
    .addColumn('position', 'text', text)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('projects_group_type_idx').on('projects').columns(['group_id', 'project_type']).execute();
  await db.schema.createIndex('projects_parent_idx').on('projects').columns(['parent_id']).execute();
  await db.schema.createIndex('role_projects_project_idx').on('role_projects').column('project_id').execute();

  await t
    .id(db.schema.createTable('project_images'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('sn', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_images_project_idx').on('project_images').columns(['project_id', 'sn']).execute();

  await t
    .id(db.schema.createTable('project_affiliates'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('affiliate_name', 'text', (c) => c.notNull())
    .addColumn('affiliate_value', 'text', text)
    .execute();
  await db.schema.createIndex('project_affiliates_project_idx').on('project_affiliates').column('project_id').execute();

  // A principal hangs on a project or station ('project:<id>') or on a device ('device:<sn>').
  await t
    .id(db.schema.createTable('principals'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('parent_ref', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', text)
    .execute();
  await db.schema.createIndex('principals_parent_idx').on('principals').columns(['group_id', 'parent_ref']).execute();

  await t
    .id(db.schema.createTable('devices'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull().unique())
    .addColumn('device_no', 'text', text)
    .addColumn('device_name', 'text', (c) => c.notNull())
    .addColumn('device_description', 'text', text)
    // No foreign key: device types belong to another feature, and a device outlives a type.
    .addColumn('type_id', 'integer')
    .addColumn('project_id', 'integer')
    .addColumn('region_id', 'integer')
    .addColumn('area_id', 'text')
    .addColumn('position', 'text', text)
    .addColumn('address', 'text', text)
    .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_seen', t.bigint)
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .addColumn('deleted_at', t.bigint)
    .addColumn('deleted_by', 'integer')
    .addColumn('deleted_by_name', 'text', text)
    .execute();
  await db.schema.createIndex('devices_group_project_idx').on('devices').columns(['group_id', 'project_id']).execute();
  await db.schema.createIndex('devices_project_idx').on('devices').columns(['project_id', 'online']).execute();

  await t
    .id(db.schema.createTable('device_migrations'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('from_project_id', 'integer')
    .addColumn('from_project_name', 'text', text)
    .addColumn('to_project_id', 'integer')
    .addColumn('to_project_name', 'text', text)
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'text', text)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_migrations_sn_idx').on('device_migrations').columns(['device_sn', 'created_at']).execute();

  await t
    .id(db.schema.createTable('device_configs'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('data_name', 'text', (c) => c.notNull())
    .addColumn('data_type', 'text', text)
    .addColumn('data_value', 'text', text)
    .execute();
  await db.schema.createIndex('device_configs_sn_idx').on('device_configs').column('device_sn').execute();

  await t
    .id(db.schema.createTable('device_cards'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull().unique())
    .addColumn('iccid', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();

  await t
    .id(db.schema.createTable('device_images'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('image_name', 'text', text)
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_images_sn_idx').on('device_images').columns(['device_sn', 'rank']).execute();
};
