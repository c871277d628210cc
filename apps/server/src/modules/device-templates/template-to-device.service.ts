/**
 * A new device of a type starts from the type's standard template: its panels, data points
 * (profiles) and configuration (args and configs) are copied to the device, inside the
 * transaction that creates it. Registered as a device-created hook.
 */
import type { Db } from '../../db/database.ts';
import type { CreatedDevice } from '../devices/device-hooks.ts';

export async function copyStandardTemplate(trx: Db, device: CreatedDevice): Promise<void> {
  if (device.typeId === null) return;
  const template = await trx
    .selectFrom('type_templates')
    .select('id')
    .where('group_id', '=', device.groupId)
    .where('type_id', '=', device.typeId)
    .where('is_standard', '=', 1)
    .executeTakeFirst();
  if (!template) return;
  const base = { group_id: device.groupId, device_sn: device.deviceSn };

  const panels = await trx.selectFrom('template_panels').selectAll().where('temp_id', '=', template.id).orderBy('sn').orderBy('id').execute();
  const panelIds = new Map<number, number>();
  for (const p of panels) {
    const { id } = await trx
      .insertInto('device_panels')
      .values({ ...base, panel_name: p.panel_name, type_id: p.panel_type_id, sn: p.sn })
      .returning('id')
      .executeTakeFirstOrThrow();
    panelIds.set(p.id, id);
  }

  const profiles = await trx.selectFrom('template_profiles').selectAll().where('temp_id', '=', template.id).orderBy('id').execute();
  if (profiles.length > 0) {
    await trx
      .insertInto('device_data_defines')
      .values(
        profiles.map((p) => ({
          ...base,
          panel_id: p.panel_id === null ? null : (panelIds.get(p.panel_id) ?? null),
          data_key: p.data_key,
          display_key: p.display_key,
          data_name: p.data_name,
          unit: p.unit,
          data_type: p.data_type,
          default_value: p.default_value,
          format: p.format,
          auto_control: p.auto_control,
        })),
      )
      .execute();
  }

  // Configuration: the template's args as they are, and its configs with their data point's type and default.
  const args = await trx.selectFrom('template_args').selectAll().where('temp_id', '=', template.id).orderBy('id').execute();
  const configs = await trx.selectFrom('template_configs').selectAll().where('temp_id', '=', template.id).orderBy('id').execute();
  const keys = [...new Set(configs.map((c) => c.define_key))];
  const defines = keys.length
    ? await trx.selectFrom('data_defines').select(['data_key', 'data_type', 'default_value']).where('group_id', '=', device.groupId).where('data_key', 'in', keys).execute()
    : [];
  const byKey = new Map(defines.map((d) => [d.data_key, d]));
  const rows = [
    ...args.map((a) => ({ ...base, data_name: a.data_name, data_type: a.data_type, data_value: a.data_value })),
    ...configs.map((c) => ({ ...base, data_name: c.name, data_type: byKey.get(c.define_key)?.data_type ?? 'string', data_value: byKey.get(c.define_key)?.default_value ?? '' })),
  ];
  if (rows.length > 0) await trx.insertInto('device_configs').values(rows).execute();
}

/** A purged device's own data points and panels go with it. */
export async function removeDeviceData(trx: Db, device: CreatedDevice): Promise<void> {
  await trx.deleteFrom('device_data_defines').where('group_id', '=', device.groupId).where('device_sn', '=', device.deviceSn).execute();
  await trx.deleteFrom('device_panels').where('group_id', '=', device.groupId).where('device_sn', '=', device.deviceSn).execute();
}
