/** Permission modules and operates, menus, role links and clients. */
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const groupId = (c: ColumnDefinitionBuilder) => c.notNull().references('groups.id');
  await t
    .id(db.schema.createTable('modules'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('module_name', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('modules_group_code_uq').on('modules').columns(['group_id', 'code']).unique().execute();
  await t
    .id(db.schema.createTable('module_operates'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('module_id', 'integer', (c) => c.notNull().references('modules.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('operates_group_code_uq').on('module_operates').columns(['group_id', 'code']).unique().execute();
  await db.schema
    .createTable('role_operates')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('operate_id', 'integer', (c) => c.notNull().references('module_operates.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_operates_pk', ['role_id', 'operate_id'])
    .execute();
  await t
    .id(db.schema.createTable('sys_menus'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('router', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('menu_type', 'integer', (c) => c.notNull())
    .addColumn('icon', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('remarks', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sn', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sys_menus_group_idx').on('sys_menus').columns(['group_id', 'parent_id']).execute();
  await db.schema
    .createTable('role_menus')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('menu_id', 'integer', (c) => c.notNull().references('sys_menus.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('role_menus_pk', ['role_id', 'menu_id'])
    .execute();
  await db.schema
    .createTable('role_projects')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('operate', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('role_projects_pk', ['role_id', 'project_id'])
    .execute();
  await t
    .id(db.schema.createTable('clients'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('client_sn', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('linkman', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('telephone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('mobile', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('clients_group_idx').on('clients').column('group_id').execute();
};
