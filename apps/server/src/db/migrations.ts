/**
 * Schema migrations, run at start. The same code serves SQLite and PostgreSQL; only the
 * identity column and the wide integer type differ, and `dialectTypes` hides that.
 */
import { type ColumnDefinitionBuilder, type Kysely, type Migration, type MigrationProvider, Migrator, sql, type CreateTableBuilder } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

export function dialectTypes(dialect: DialectName) {
  return {
    /** An auto-increment integer primary key. */
    id: <T extends string>(table: CreateTableBuilder<T>) =>
      dialect === 'postgres'
        ? table.addColumn('id', 'serial', (c) => c.primaryKey())
        : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    /** Epoch milliseconds and other values past 2^31. */
    bigint: dialect === 'postgres' ? ('bigint' as const) : ('integer' as const),
  };
}

type Step = (db: Kysely<unknown>, dialect: DialectName) => Promise<void>;

const steps: [string, Step][] = [
  [
    '0001_accounts',
    async (db, dialect) => {
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
      await db.schema.createIndex('groups_name_uq').on('groups').expression(sql`lower(group_name)`).unique().execute();
      await db.schema.createIndex('groups_code_uq').on('groups').expression(sql`lower(code)`).unique().execute();

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
      await db.schema.createIndex('users_account_uq').on('users').expression(sql`lower(account)`).unique().execute();
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
    },
  ],
  [
    '0002_administration',
    async (db, dialect) => {
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
    },
  ],
];

class InlineProvider implements MigrationProvider {
  readonly dialect: DialectName;
  constructor(dialect: DialectName) {
    this.dialect = dialect;
  }
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(
      Object.fromEntries(steps.map(([name, up]) => [name, { up: (db: Kysely<unknown>) => up(db, this.dialect) }])),
    );
  }
}

export async function migrate(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const migrator = new Migrator({ db, provider: new InlineProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error ?? failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
