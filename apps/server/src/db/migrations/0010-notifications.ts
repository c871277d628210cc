/**
 * Alarm notifications: a group's channels (webhook, e-mail, SMS; their secret sealed with the
 * SECRET_KEY), rules (which warn types and projects go to which users over which channel, at
 * which escalation level after how many minutes, urgent or not), quiet hours, and one delivery
 * row per attempt, which is also the queue: a row pending or held until its due time is what
 * the notification job sends next. Existing groups get the screens in their Notice Manager menu,
 * granted to their administrator roles, as new groups do from DEFAULT_MENUS.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

/** The screens this migration adds to every existing group (the same as DEFAULT_MENUS'). */
const SCREENS = [
  { name: 'Notification channels', path: '/sys/notifyChannel' },
  { name: 'Notification rules', path: '/sys/notifyRule' },
  { name: 'Delivery history', path: '/sys/notifyLog' },
];

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
  const groupId = (c: ColumnDefinitionBuilder) => c.notNull().references('groups.id');

  await t
    .id(db.schema.createTable('notify_channels'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('name', 'text', (c) => c.notNull())
    // webhook, email, sms
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('url', 'text', text)
    .addColumn('smtp_host', 'text', text)
    .addColumn('smtp_port', 'integer', (c) => c.notNull().defaultTo(587))
    .addColumn('smtp_secure', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_name', 'text', text)
    // sealed: the webhook's signing secret, the SMTP password or the SMS AccessKeySecret
    .addColumn('secret', 'text', text)
    .addColumn('sender', 'text', text)
    .addColumn('template', 'text', text)
    .execute();

  await t
    .id(db.schema.createTable('notify_rules'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('level', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('delay_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', 'integer', (c) => c.notNull().references('notify_channels.id'))
    // comma-separated ids; '' is every warn type, every project
    .addColumn('type_ids', 'text', text)
    .addColumn('project_ids', 'text', text)
    .addColumn('user_ids', 'text', text)
    .addColumn('urgent', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('notify_settings')
    .addColumn('group_id', 'integer', (c) => c.primaryKey().references('groups.id'))
    .addColumn('quiet_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quiet_start', 'text', (c) => c.notNull().defaultTo('22:00'))
    .addColumn('quiet_end', 'text', (c) => c.notNull().defaultTo('07:00'))
    .execute();

  await t
    .id(db.schema.createTable('notify_deliveries'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('warn_id', 'integer', (c) => c.notNull())
    // kept when the rule or channel is deleted: the history stays
    .addColumn('rule_id', 'integer')
    .addColumn('rule_name', 'text', text)
    .addColumn('channel_id', 'integer')
    .addColumn('channel_name', 'text', text)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('urgent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('recipient', 'text', text)
    .addColumn('recipient_name', 'text', text)
    // the user it was for (null for a webhook, or once the user is gone)
    .addColumn('user_id', 'integer')
    .addColumn('device_sn', 'text', text)
    .addColumn('code', 'text', text)
    .addColumn('description', 'text', text)
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    // pending, held, sending, sent, failed, cancelled
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('due_at', t.bigint, (c) => c.notNull())
    .addColumn('done_at', t.bigint)
    .addColumn('error', 'text', text)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('notify_deliveries_group_idx')
    .on('notify_deliveries')
    .columns(['group_id', 'created_at'])
    .execute();
  await db.schema.createIndex('notify_deliveries_due_idx').on('notify_deliveries').columns(['status', 'due_at']).execute();

  // The screens, under each existing group's Notice Manager, for its administrator roles.
  const parents = await sql<{ id: number; group_id: number }>`
    SELECT id, group_id FROM sys_menus WHERE parent_id = 0 AND name = 'Notice Manager'`.execute(db);
  for (const parent of parents.rows) {
    for (const [index, screen] of SCREENS.entries()) {
      const componentUrl = screen.path.slice(1);
      const router = JSON.stringify({ path: screen.path, componentUrl });
      const inserted = await sql<{ id: number }>`
        INSERT INTO sys_menus (group_id, name, parent_id, url, router, menu_type, icon, remarks, sn)
        VALUES (${parent.group_id}, ${screen.name}, ${parent.id}, ${screen.path}, ${router}, 1, '', '', ${index + 2})
        RETURNING id`.execute(db);
      const menuId = inserted.rows[0]?.id;
      if (menuId === undefined) continue;
      await sql`INSERT INTO role_menus (role_id, menu_id)
        SELECT id, ${menuId} FROM roles WHERE group_id = ${parent.group_id} AND is_admin = 1`.execute(db);
    }
  }
};
