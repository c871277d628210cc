/** Groups, users, roles, sessions and sign-in throttling. */
import { sql, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  await t
    .id(db.schema.createTable('groups'))
    .addColumn('group_name', 'text', (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('logo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('groups_name_uq')
    .on('groups')
    .expression(sql`lower(group_name)`)
    .unique()
    .execute();
  await db.schema
    .createIndex('groups_code_uq')
    .on('groups')
    .expression(sql`lower(code)`)
    .unique()
    .execute();

  await t
    .id(db.schema.createTable('users'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remark', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_platform_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('picture', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .execute();
  // Accounts are unique across the platform: sign-in asks for an account, not a group.
  await db.schema
    .createIndex('users_account_uq')
    .on('users')
    .expression(sql`lower(account)`)
    .unique()
    .execute();
  await db.schema.createIndex('users_group_idx').on('users').column('group_id').execute();

  await t
    .id(db.schema.createTable('roles'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('module_id', 'integer')
    .execute();
  await db.schema.createIndex('roles_group_idx').on('roles').column('group_id').execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('expires_at', t.bigint, (c) => c.notNull())
    .addColumn('revoked_at', t.bigint)
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('login_throttle')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', t.bigint, (c) => c.notNull())
    .addColumn('locked_until', t.bigint, (c) => c.notNull())
    .execute();
};
