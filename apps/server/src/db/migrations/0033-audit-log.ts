/**
 * The audit trail (issue 22): one row per write the server accepted, added in the write's own
 * transaction and never changed by the API; rows older than AUDIT_RETENTION_DAYS are deleted by
 * the retention job. Existing groups get the Audit trail module's operate (for their
 * administrator roles) and the screen under System Configure, as new groups get them from
 * PERMISSION_MODULES and DEFAULT_MENUS.
 */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';
import { addSystemScreen } from './add-system-screen.ts';

/** The columns of an entry, after its id (the recent entries' table has the same, 0034). */
export const auditColumns = <T extends string>(table: CreateTableBuilder<T>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  return (
    table
      .addColumn('at', t.bigint, (c) => c.notNull())
      // No foreign keys: an entry outlives the user, and names the tenant even when it is no one's.
      .addColumn('group_id', 'integer')
      .addColumn('user_id', 'integer')
      .addColumn('account', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('resource_kind', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('resource_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('owner_kind', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('owner_id', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('route', 'text', (c) => c.notNull().defaultTo(''))
      // JSON of the resource before and after (null: none), secrets masked; the keys that changed.
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .addColumn('changed', 'text', (c) => c.notNull().defaultTo('[]'))
  );
};

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  // Every write adds a row: it touches as few pages as it can. On SQLite a plain rowid key (no
  // AUTOINCREMENT, whose counter table would be one more page a write; the newest row is never
  // deleted, so ids are not reused), and three indexes: the tenant's entries by time, and a
  // record's and its owner's history.
  await auditColumns(
    db.schema.createTable('audit_log').addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey()),
    dialect,
  ).execute();
  await db.schema.createIndex('audit_log_group_at_idx').on('audit_log').columns(['group_id', 'at']).execute();
  await db.schema.createIndex('audit_log_resource_idx').on('audit_log').columns(['resource_kind', 'resource_id']).execute();
  await db.schema.createIndex('audit_log_owner_idx').on('audit_log').columns(['owner_kind', 'owner_id']).execute();

  // Existing groups: the module and its operate, granted to the administrator roles.
  const groups = await sql<{ id: number }>`SELECT id FROM groups`.execute(db);
  for (const group of groups.rows) {
    const module = await sql<{ id: number }>`
      INSERT INTO modules (group_id, module_name, code) VALUES (${group.id}, 'Audit trail', 'audit') RETURNING id`.execute(db);
    const moduleId = module.rows[0]?.id;
    if (moduleId === undefined) continue;
    const operate = await sql<{ id: number }>`
      INSERT INTO module_operates (group_id, module_id, name, code)
      VALUES (${group.id}, ${moduleId}, 'View the audit trail', 'audit.view') RETURNING id`.execute(db);
    const operateId = operate.rows[0]?.id;
    if (operateId === undefined) continue;
    await sql`INSERT INTO role_operates (role_id, operate_id)
      SELECT id, ${operateId} FROM roles WHERE group_id = ${group.id} AND is_admin = 1`.execute(db);
  }
  await addSystemScreen(db, { name: 'Audit trail', path: '/sys/audit', componentUrl: 'sys/audit' });
};
