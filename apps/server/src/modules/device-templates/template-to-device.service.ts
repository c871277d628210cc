/**
 * A new device of a type starts from the type's standard template: its panels, data points
 * (profiles) and configuration (args and configs) are copied to the device, inside the
 * transaction that creates it, marked as the type's (`from_type`). The composition root
 * subscribes these to the devices' events (device-events.ts).
 *
 * Changing a device's type does the same with the new type, after removing what the old type
 * put there. What a user added to the device (from_type 0) stays, and wins where the new
 * template has the same data key, config name or panel name (a template panel of a name the
 * device has already fills that panel). A row the type put there is the type's even when a
 * user edited it since: such edits go with the old type.
 */
import type { Db } from '../../db/database.ts';
import type { DeviceRef } from '../devices/device-events.ts';

export async function copyStandardTemplate(trx: Db, device: DeviceRef): Promise<void> {
  if (device.typeId === null) return;
  const template = await trx
    .selectFrom('type_templates')
    .select('id')
    .where('group_id', '=', device.groupId)
    .where('type_id', '=', device.typeId)
    .where('is_standard', '=', 1)
    .executeTakeFirst();
  if (!template) return;
  const base = { group_id: device.groupId, device_sn: device.deviceSn, from_type: 1 };
  // What the device has already (nothing for a new device; what a user added, on a type change).
  const mine = { group_id: device.groupId, device_sn: device.deviceSn };
  const ownPanels = new Map(
    (
      await trx
        .selectFrom('device_panels')
        .select(['id', 'panel_name'])
        .where('group_id', '=', mine.group_id)
        .where('device_sn', '=', mine.device_sn)
        .execute()
    ).map((p) => [p.panel_name, p.id]),
  );
  const ownKeys = new Set(
    (
      await trx
        .selectFrom('device_data_defines')
        .select('data_key')
        .where('group_id', '=', mine.group_id)
        .where('device_sn', '=', mine.device_sn)
        .execute()
    ).map((d) => d.data_key),
  );
  const ownConfigs = new Set(
    (
      await trx
        .selectFrom('device_configs')
        .select('data_name')
        .where('group_id', '=', mine.group_id)
        .where('device_sn', '=', mine.device_sn)
        .execute()
    ).map((c) => c.data_name),
  );

  const panels = await trx
    .selectFrom('template_panels')
    .selectAll()
    .where('temp_id', '=', template.id)
    .orderBy('sn')
    .orderBy('id')
    .execute();
  const panelIds = new Map<number, number>();
  for (const p of panels) {
    const own = ownPanels.get(p.panel_name);
    if (own !== undefined) {
      panelIds.set(p.id, own);
      continue;
    }
    const { id } = await trx
      .insertInto('device_panels')
      .values({ ...base, panel_name: p.panel_name, type_id: p.panel_type_id, sn: p.sn })
      .returning('id')
      .executeTakeFirstOrThrow();
    panelIds.set(p.id, id);
  }

  const profiles = (
    await trx.selectFrom('template_profiles').selectAll().where('temp_id', '=', template.id).orderBy('id').execute()
  ).filter((p) => !ownKeys.has(p.data_key));
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
    ? await trx
        .selectFrom('data_defines')
        .select(['data_key', 'data_type', 'default_value'])
        .where('group_id', '=', device.groupId)
        .where('data_key', 'in', keys)
        .execute()
    : [];
  const byKey = new Map(defines.map((d) => [d.data_key, d]));
  const rows = [
    ...args.map((a) => ({ ...base, data_name: a.data_name, data_type: a.data_type, data_value: a.data_value })),
    ...configs.map((c) => ({
      ...base,
      data_name: c.name,
      data_type: byKey.get(c.define_key)?.data_type ?? 'string',
      data_value: byKey.get(c.define_key)?.default_value ?? '',
    })),
  ].filter((r) => !ownConfigs.has(r.data_name));
  if (rows.length > 0) await trx.insertInto('device_configs').values(rows).execute();
}

/**
 * A device whose type changed: what the old type put there goes (its data points first, then its
 * panels; a user's data point on such a panel stays, without a panel), and the new type's
 * standard template is copied as for a new device.
 */
export async function reapplyStandardTemplate(trx: Db, device: DeviceRef): Promise<void> {
  const where = { group_id: device.groupId, device_sn: device.deviceSn };
  await trx
    .deleteFrom('device_data_defines')
    .where('group_id', '=', where.group_id)
    .where('device_sn', '=', where.device_sn)
    .where('from_type', '=', 1)
    .execute();
  const gone = trx
    .selectFrom('device_panels')
    .select('id')
    .where('group_id', '=', where.group_id)
    .where('device_sn', '=', where.device_sn)
    .where('from_type', '=', 1);
  await trx.updateTable('device_data_defines').set({ panel_id: null }).where('panel_id', 'in', gone).execute();
  await trx
    .deleteFrom('device_panels')
    .where('group_id', '=', where.group_id)
    .where('device_sn', '=', where.device_sn)
    .where('from_type', '=', 1)
    .execute();
  await trx
    .deleteFrom('device_configs')
    .where('group_id', '=', where.group_id)
    .where('device_sn', '=', where.device_sn)
    .where('from_type', '=', 1)
    .execute();
  await copyStandardTemplate(trx, device);
}

/** A purged device's own data points and panels go with it. */
export async function removeDeviceData(trx: Db, device: DeviceRef): Promise<void> {
  await trx
    .deleteFrom('device_data_defines')
    .where('group_id', '=', device.groupId)
    .where('device_sn', '=', device.deviceSn)
    .execute();
  await trx.deleteFrom('device_panels').where('group_id', '=', device.groupId).where('device_sn', '=', device.deviceSn).execute();
}
