/**
 * Field records (issue 16): water-quality input records, discharge standards a group enters and
 * the standard each station holds, repairs with their workflow, inspection checklists and rounds,
 * and the photos of any of them. Existing groups get the Field records module's operates (for
 * their Administrator and, where marked, Operator roles) and the Field Records menu, as new groups
 * do from PERMISSION_MODULES and DEFAULT_MENUS.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

/** What this migration adds to every existing group (the same as PERMISSION_MODULES' and DEFAULT_MENUS'). */
const OPERATES = [
  { code: 'records.view', name: 'View water quality, repairs and inspections', operator: true },
  { code: 'records.enter', name: 'Enter water quality, report and carry out repairs, record inspections', operator: true },
  { code: 'records.manage', name: 'Assign and verify repairs, set standards and checklists, delete records', operator: false },
];
const SCREENS = [
  { name: 'Water quality', path: '/records/quality', operator: true },
  { name: 'Repairs', path: '/records/repair', operator: true },
  { name: 'Inspections', path: '/records/poll', operator: true },
  { name: 'Monthly report', path: '/records/report', operator: true },
  { name: 'Discharge standards', path: '/records/standard', operator: false },
];

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
  const groupId = (c: ColumnDefinitionBuilder) => c.notNull().references('groups.id');
  const unit = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('mg/L');

  await t
    .id(db.schema.createTable('discharge_standards'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', text)
    .addColumn('cod', 'double precision')
    .addColumn('bod5', 'double precision')
    .addColumn('nh3_n', 'double precision')
    .addColumn('nh3_n_cold', 'double precision')
    .addColumn('tn', 'double precision')
    .addColumn('tp', 'double precision')
    .addColumn('ss', 'double precision')
    .addColumn('ph_min', 'double precision')
    .addColumn('ph_max', 'double precision')
    .addColumn('fc', 'double precision')
    .execute();

  // 'GB18918-1A' … or 'custom:<discharge_standards.id>'; a station without a row inherits its project's.
  await db.schema
    .createTable('station_standards')
    .addColumn('project_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('standard', 'text', (c) => c.notNull())
    .execute();

  const inputs = t
    .id(db.schema.createTable('device_inputs'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull())
    // The station the device stood in when sampled.
    .addColumn('project_id', 'integer')
    .addColumn('dt', t.bigint, (c) => c.notNull())
    .addColumn('water_inflow', 'double precision')
    .addColumn('water_temp', 'double precision');
  let table = inputs;
  for (const p of ['cod', 'bod5', 'nh3_n', 'tn', 'tp', 'ss']) {
    table = table
      .addColumn(`${p}_in`, 'double precision')
      .addColumn(`${p}_out`, 'double precision')
      .addColumn(`${p}_unit`, 'text', unit);
  }
  await table
    .addColumn('ph_in', 'double precision')
    .addColumn('ph_out', 'double precision')
    .addColumn('fc_in', 'double precision')
    .addColumn('fc_out', 'double precision')
    .addColumn('sampler', 'text', text)
    .addColumn('laboratory', 'text', text)
    .addColumn('remark', 'text', text)
    .addColumn('created_by', 'integer')
    .addColumn('created_by_name', 'text', text)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_inputs_sn_dt_idx').on('device_inputs').columns(['device_sn', 'dt']).execute();
  await db.schema.createIndex('device_inputs_project_dt_idx').on('device_inputs').columns(['project_id', 'dt']).execute();

  await t
    .id(db.schema.createTable('repairs'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('device_sn', 'text', text)
    .addColumn('repair_title', 'text', (c) => c.notNull())
    .addColumn('repair_content', 'text', text)
    .addColumn('fault_code', 'text', text)
    // reported, assigned, in_progress, done, verified
    .addColumn('state', 'text', (c) => c.notNull())
    // A principal of the station; the name kept as it was.
    .addColumn('assignee_id', 'integer')
    .addColumn('assignee_name', 'text', text)
    .addColumn('due_at', t.bigint)
    .addColumn('parts', 'text', text)
    .addColumn('cost', 'double precision')
    .addColumn('resolution', 'text', text)
    .addColumn('reject_note', 'text', text)
    // The alarm it was made from.
    .addColumn('warn_id', 'integer')
    .addColumn('reported_by', 'integer')
    .addColumn('reported_by_name', 'text', text)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .addColumn('assigned_at', t.bigint)
    .addColumn('started_at', t.bigint)
    .addColumn('done_at', t.bigint)
    .addColumn('verified_at', t.bigint)
    .execute();
  await db.schema.createIndex('repairs_group_state_idx').on('repairs').columns(['group_id', 'state', 'due_at']).execute();
  await db.schema.createIndex('repairs_project_idx').on('repairs').columns(['project_id', 'created_at']).execute();
  await db.schema.createIndex('repairs_warn_idx').on('repairs').column('warn_id').execute();

  await db.schema
    .createTable('poll_plans')
    .addColumn('project_id', 'integer', (c) => c.primaryKey().references('projects.id').onDelete('cascade'))
    .addColumn('group_id', 'integer', groupId)
    // JSON array of item names
    .addColumn('items', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('interval_days', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await t
    .id(db.schema.createTable('polls'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('poll_title', 'text', (c) => c.notNull())
    .addColumn('poll_content', 'text', text)
    // JSON array of { Item, Ok, Value }
    .addColumn('results', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('issues', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('arrived_at', t.bigint, (c) => c.notNull())
    .addColumn('left_at', t.bigint)
    .addColumn('created_by', 'integer')
    .addColumn('inspector', 'text', text)
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('polls_project_idx').on('polls').columns(['project_id', 'arrived_at']).execute();

  await t
    .id(db.schema.createTable('record_photos'))
    .addColumn('group_id', 'integer', groupId)
    // input, repair, poll
    .addColumn('record_kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    // '', before, after
    .addColumn('stage', 'text', text)
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('record_photos_record_idx').on('record_photos').columns(['record_kind', 'record_id']).execute();

  // Existing groups: the module and its operates, and the menu.
  const groups = await sql<{ id: number }>`SELECT id FROM groups`.execute(db);
  for (const group of groups.rows) {
    const module = await sql<{ id: number }>`
      INSERT INTO modules (group_id, module_name, code) VALUES (${group.id}, 'Field records', 'records') RETURNING id`.execute(
      db,
    );
    const moduleId = module.rows[0]?.id;
    if (moduleId === undefined) continue;
    for (const operate of OPERATES) {
      const inserted = await sql<{ id: number }>`
        INSERT INTO module_operates (group_id, module_id, name, code)
        VALUES (${group.id}, ${moduleId}, ${operate.name}, ${operate.code}) RETURNING id`.execute(db);
      const operateId = inserted.rows[0]?.id;
      if (operateId === undefined) continue;
      await sql`INSERT INTO role_operates (role_id, operate_id)
        SELECT id, ${operateId} FROM roles
        WHERE group_id = ${group.id} AND (is_admin = 1 OR (${operate.operator ? 1 : 0} = 1 AND name = 'Operator'))`.execute(db);
    }
    const top = await sql<{ sn: number | null }>`
      SELECT max(sn) AS sn FROM sys_menus WHERE group_id = ${group.id} AND parent_id = 0`.execute(db);
    const parent = await sql<{ id: number }>`
      INSERT INTO sys_menus (group_id, name, parent_id, url, router, menu_type, icon, remarks, sn)
      VALUES (${group.id}, 'Field Records', 0, '', '', 0, 'FileDoneOutlined', '', ${(top.rows[0]?.sn ?? 0) + 1})
      RETURNING id`.execute(db);
    const parentId = parent.rows[0]?.id;
    if (parentId === undefined) continue;
    const grant = async (menuId: number, operator: boolean) =>
      sql`INSERT INTO role_menus (role_id, menu_id)
        SELECT id, ${menuId} FROM roles
        WHERE group_id = ${group.id} AND (is_admin = 1 OR (${operator ? 1 : 0} = 1 AND name = 'Operator'))`.execute(db);
    await grant(parentId, true);
    for (const [index, screen] of SCREENS.entries()) {
      const router = JSON.stringify({ path: screen.path, componentUrl: screen.path.slice(1) });
      const inserted = await sql<{ id: number }>`
        INSERT INTO sys_menus (group_id, name, parent_id, url, router, menu_type, icon, remarks, sn)
        VALUES (${group.id}, ${screen.name}, ${parentId}, ${screen.path}, ${router}, 1, '', '', ${index + 1})
        RETURNING id`.execute(db);
      const menuId = inserted.rows[0]?.id;
      if (menuId !== undefined) await grant(menuId, screen.operator);
    }
  }
};
