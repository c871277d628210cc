/**
 * Device types and data definitions: the data-definition library, categories, warn types and
 * codes, device types with everything under them, templates, a device's own data points and
 * panels, mobile app versions and SIM provider accounts. Every table carries group_id.
 */
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

type Column = [
  name: string,
  type: 'text' | 'integer' | 'bigint' | 'double',
  build?: (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder,
];

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
  const zero = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(0);
  const required = (c: ColumnDefinitionBuilder) => c.notNull();
  const cascade = (table: string) => (c: ColumnDefinitionBuilder) => c.notNull().references(`${table}.id`).onDelete('cascade');

  const create = async (name: string, columns: Column[]) => {
    let table: CreateTableBuilder<string> = t
      .id(db.schema.createTable(name))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'));
    for (const [column, type, build] of columns) {
      const sqlType = type === 'bigint' ? t.bigint : type === 'double' ? 'double precision' : type;
      table = table.addColumn(column, sqlType, build ?? ((c) => c));
    }
    await table.execute();
  };
  const index = (name: string, table: string, columns: string[], unique = false) => {
    const builder = db.schema.createIndex(name).on(table).columns(columns);
    return (unique ? builder.unique() : builder).execute();
  };

  // ---- The data-definition library -------------------------------------------------------
  await create('data_categories', [['name', 'text', required]]);
  await index('data_categories_name_uq', 'data_categories', ['group_id', 'name'], true);
  await create('data_defines', [
    ['data_key', 'text', required],
    ['data_name', 'text', required],
    ['unit', 'text', text],
    ['data_type', 'text', required],
    ['default_value', 'text', text],
    ['format', 'text', text],
    ['model', 'text', text],
    ['category', 'text', text],
  ]);
  await index('data_defines_key_uq', 'data_defines', ['group_id', 'data_key'], true);

  // ---- Warn types and codes --------------------------------------------------------------
  await create('warn_types', [
    ['type_name', 'text', required],
    ['color', 'text', text],
    ['icon', 'text', text],
  ]);
  await create('warn_codes', [
    ['warn_type_id', 'integer', (c) => c.notNull().references('warn_types.id')],
    ['code', 'text', required],
    ['description', 'text', text],
  ]);
  await index('warn_codes_code_uq', 'warn_codes', ['group_id', 'code'], true);
  await index('warn_codes_type_idx', 'warn_codes', ['warn_type_id']);
  await create('data_define_warn_codes', [
    ['data_key', 'text', required],
    ['code', 'text', required],
  ]);
  await index('data_define_warn_codes_uq', 'data_define_warn_codes', ['group_id', 'data_key', 'code'], true);

  // ---- Device types and what hangs on them -----------------------------------------------
  await create('device_types', [
    ['type_name', 'text', required],
    ['icon', 'text', text],
    ['parent_id', 'integer', zero],
    ['description', 'text', text],
    ['status', 'integer', (c) => c.notNull().defaultTo(1)],
  ]);
  await index('device_types_group_idx', 'device_types', ['group_id', 'parent_id']);

  const typeId: Column = ['type_id', 'integer', cascade('device_types')];
  const dataDefineId: Column = ['data_define_id', 'integer', (c) => c.notNull().references('data_defines.id')];

  await create('type_data_defines', [
    typeId,
    dataDefineId,
    ['auto_control', 'integer', zero],
    ['out_key', 'text', text],
    ['show_type', 'integer', zero],
  ]);
  await index('type_data_defines_uq', 'type_data_defines', ['type_id', 'data_define_id'], true);
  await index('type_data_defines_define_idx', 'type_data_defines', ['data_define_id']);

  await create('type_arguments', [
    typeId,
    ['define_id', 'integer', (c) => c.notNull().references('data_defines.id')],
    ['name', 'text', required],
    ['category', 'text', text],
  ]);
  await create('type_configs', [
    typeId,
    ['data_name', 'text', required],
    ['data_type', 'text', required],
    ['data_value', 'text', text],
    ['category', 'text', text],
    ['position', 'text', text],
  ]);
  await create('type_display_icons', [
    typeId,
    ['name', 'text', required],
    ['sn', 'integer', zero],
    dataDefineId,
    ['icon', 'text', text],
    ['data_define_key', 'text', text],
  ]);
  await create('type_hardware_configs', [
    typeId,
    dataDefineId,
    ['no', 'text', text],
    ['sn', 'integer', zero],
    ['show_key', 'text', text],
    ['key_type', 'text', text],
    ['max_value', 'double'],
    ['min_value', 'double'],
    ['comm', 'text', text],
    ['port', 'text', text],
    ['modbus_slave', 'integer', (c) => c.notNull().defaultTo(1)],
    ['plc_type', 'text', text],
    ['reg_ad', 'integer', zero],
    ['cmd', 'integer', (c) => c.notNull().defaultTo(3)],
    ['address', 'text', text],
    ['bit_off_set', 'integer', zero],
    ['lens', 'integer', (c) => c.notNull().defaultTo(1)],
  ]);
  await create('type_modules', [
    typeId,
    ['module_name', 'text', required],
    ['module_type', 'text', text],
    ['sn', 'integer', zero],
  ]);
  await create('type_classes', [typeId, ['name', 'text', required], ['rank', 'integer', zero]]);
  await create('type_module_controls', [
    typeId,
    ['module_id', 'integer', cascade('type_modules')],
    ['control_key', 'text', text],
    ['control_name', 'text', required],
    dataDefineId,
    ['show_type', 'text', text],
    ['format', 'text', text],
    ['unit', 'text', text],
    ['auto_control', 'integer', zero],
    ['formula', 'text', text],
    ['data_value', 'text', text],
    ['sn', 'integer', zero],
    ['class_id', 'integer', (c) => c.references('type_classes.id').onDelete('set null')],
  ]);
  await create('type_module_arguments', [
    typeId,
    ['module_id', 'integer', cascade('type_modules')],
    dataDefineId,
    ['name', 'text', required],
    ['category', 'text', text],
  ]);
  await create('type_module_feedbacks', [
    typeId,
    ['module_control_id', 'integer', cascade('type_module_controls')],
    dataDefineId,
    ['sn', 'integer', zero],
  ]);
  await create('type_overviews', [
    typeId,
    ['type_data_define_id', 'integer', cascade('type_data_defines')],
    ['name', 'text', required],
    ['sn', 'integer', zero],
  ]);
  await create('type_schemas', [
    typeId,
    ['data_define_id', 'integer', (c) => c.references('data_defines.id')],
    ['name', 'text', required],
    ['value', 'text', text],
    ['schema_type', 'text', text],
    ['parent_id', 'integer', zero],
  ]);
  await create('type_statistics', [
    typeId,
    ['stat_key', 'text', text],
    dataDefineId,
    ['statics_type', 'text', required],
    ['display_type', 'text', (c) => c.notNull().defaultTo('chart')],
    ['standard', 'text', text],
    ['filter_value', 'text', text],
    ['filter_type', 'text', (c) => c.notNull().defaultTo('none')],
    ['show_state', 'integer', (c) => c.notNull().defaultTo(1)],
    ['s_unit', 'text', text],
    ['name', 'text', required],
  ]);
  await create('type_images', [
    typeId,
    ['image_name', 'text', text],
    ['sn', 'integer', zero],
    ['storage_key', 'text', required],
    ['kind', 'text', required],
    ['created_at', 'bigint', required],
  ]);
  await create('type_update_files', [
    typeId,
    ['file_name', 'text', text],
    ['version', 'text', required],
    ['role', 'text', required],
    ['description', 'text', text],
    ['size', 'bigint', required],
    ['sha256', 'text', required],
    ['storage_key', 'text', required],
    ['created_at', 'bigint', required],
  ]);
  for (const table of [
    'type_arguments',
    'type_configs',
    'type_display_icons',
    'type_hardware_configs',
    'type_modules',
    'type_classes',
    'type_module_controls',
    'type_module_arguments',
    'type_module_feedbacks',
    'type_overviews',
    'type_schemas',
    'type_statistics',
    'type_images',
    'type_update_files',
  ]) {
    await index(`${table}_type_idx`, table, ['type_id']);
  }
  await index('type_module_controls_define_idx', 'type_module_controls', ['data_define_id']);
  await index('type_hardware_configs_define_idx', 'type_hardware_configs', ['data_define_id']);
  await index('type_statistics_define_idx', 'type_statistics', ['data_define_id']);

  // ---- Templates ---------------------------------------------------------------------------
  await create('type_templates', [
    typeId,
    ['temp_name', 'text', required],
    ['is_standard', 'integer', zero],
    ['device_sn', 'text', text],
  ]);
  // One standard template per type.
  await sql`create unique index type_templates_standard_uq on type_templates (type_id) where is_standard = 1`.execute(db);
  const tempId: Column = ['temp_id', 'integer', cascade('type_templates')];
  await create('template_panels', [
    tempId,
    ['panel_type_id', 'integer', required],
    ['panel_name', 'text', required],
    ['sn', 'integer', zero],
  ]);
  await create('template_profiles', [
    tempId,
    ['panel_id', 'integer', (c) => c.references('template_panels.id').onDelete('set null')],
    ['data_type', 'text', required],
    ['data_key', 'text', required],
    ['display_key', 'text', text],
    ['data_name', 'text', required],
    ['unit', 'text', text],
    ['default_value', 'text', text],
    ['format', 'text', text],
    ['auto_control', 'integer', zero],
  ]);
  await create('template_args', [
    tempId,
    ['data_name', 'text', required],
    ['data_type', 'text', required],
    ['data_value', 'text', text],
  ]);
  await create('template_accessories', [tempId, ['name', 'text', required], ['icon', 'text', text]]);
  await create('template_control_data', [
    tempId,
    ['control_name', 'text', required],
    ['data_value', 'text', text],
    ['data_define_key', 'text', text],
    ['associate_key', 'text', text],
    ['sequence_in', 'integer', zero],
    ['sequence_out', 'integer', zero],
    ['i_state', 'integer', zero],
    ['accessory_id', 'integer', (c) => c.references('template_accessories.id').onDelete('set null')],
  ]);
  await create('template_configs', [
    tempId,
    ['category', 'text', text],
    ['define_key', 'text', required],
    ['name', 'text', required],
  ]);
  await index('type_templates_type_idx', 'type_templates', ['type_id']);
  for (const table of [
    'template_panels',
    'template_profiles',
    'template_args',
    'template_accessories',
    'template_control_data',
    'template_configs',
  ]) {
    await index(`${table}_temp_idx`, table, ['temp_id']);
  }

  // ---- A device's own data points and panels (copied from the standard template) -------------
  await create('device_panels', [
    ['device_sn', 'text', required],
    ['panel_name', 'text', required],
    ['type_id', 'integer', required],
    ['sn', 'integer', zero],
  ]);
  await index('device_panels_sn_idx', 'device_panels', ['device_sn']);
  await create('device_data_defines', [
    ['device_sn', 'text', required],
    ['panel_id', 'integer', (c) => c.references('device_panels.id').onDelete('set null')],
    ['data_key', 'text', required],
    ['display_key', 'text', text],
    ['data_name', 'text', required],
    ['unit', 'text', text],
    ['data_type', 'text', required],
    ['default_value', 'text', text],
    ['format', 'text', text],
    ['auto_control', 'integer', zero],
  ]);
  await index('device_data_defines_sn_idx', 'device_data_defines', ['device_sn']);

  // ---- Mobile app versions and SIM provider accounts ------------------------------------------
  await create('app_versions', [
    ['app_type', 'text', required],
    ['version_no', 'text', required],
    ['description', 'text', text],
    ['state', 'integer', (c) => c.notNull().defaultTo(1)],
    ['file_name', 'text', text],
    ['size', 'bigint', required],
    ['sha256', 'text', required],
    ['storage_key', 'text', required],
    ['created_at', 'bigint', required],
  ]);
  await index('app_versions_type_idx', 'app_versions', ['group_id', 'app_type', 'state']);
  await create('sim_accounts', [
    ['sim_account', 'text', required],
    // AES-256-GCM sealed, never stored or sent in clear.
    ['sim_password', 'text', required],
    ['app_id', 'text', required],
    ['app_secret', 'text', required],
  ]);
};
