/**
 * A device's panels, data points and configuration rows remember whether its type put them there
 * (copied from the type's standard template, `from_type` 1) or a user added them (0), so that
 * changing the device's type replaces the former and keeps the latter.
 *
 * Rows that exist already are marked as the type's when the device's type's standard template
 * holds the same panel name, data key or config name: that is where they came from.
 */
import { sql, type Kysely } from 'kysely';

export const up = async (db: Kysely<unknown>) => {
  for (const table of ['device_panels', 'device_data_defines', 'device_configs']) {
    await db.schema
      .alterTable(table)
      .addColumn('from_type', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  const standard = (table: string) => sql`
    select 1 from devices d
    join type_templates tt on tt.type_id = d.type_id and tt.group_id = d.group_id and tt.is_standard = 1
    where d.device_sn = ${sql.ref(`${table}.device_sn`)}`;
  await sql`update device_panels set from_type = 1 where exists (
    ${standard('device_panels')}
    and exists (select 1 from template_panels tp where tp.temp_id = tt.id and tp.panel_name = device_panels.panel_name))`.execute(
    db,
  );
  await sql`update device_data_defines set from_type = 1 where exists (
    ${standard('device_data_defines')}
    and exists (select 1 from template_profiles tp where tp.temp_id = tt.id and tp.data_key = device_data_defines.data_key))`.execute(
    db,
  );
  await sql`update device_configs set from_type = 1 where exists (
    ${standard('device_configs')}
    and (exists (select 1 from template_args ta where ta.temp_id = tt.id and ta.data_name = device_configs.data_name)
      or exists (select 1 from template_configs tc where tc.temp_id = tt.id and tc.name = device_configs.data_name)))`.execute(
    db,
  );
};
