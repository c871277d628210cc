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
import { TemplatesRepository } from './templates.repository.ts';

export async function copyStandardTemplate(trx: Db, device: DeviceRef): Promise<void> {
  if (device.typeId === null) return;
  const templates = new TemplatesRepository(trx);
  const tempId = await templates.standardOf(device.groupId, device.typeId);
  if (tempId === undefined) return;
  const base = { group_id: device.groupId, device_sn: device.deviceSn, from_type: 1 };
  // What the device has already (nothing for a new device; what a user added, on a type change).
  const ownPanels = await templates.devicePanels(device);
  const ownKeys = await templates.deviceDataKeys(device);
  const ownConfigs = await templates.deviceConfigNames(device);

  const panelIds = new Map<number, number>();
  for (const p of await templates.panels(tempId)) {
    const own = ownPanels.get(p.panel_name);
    panelIds.set(
      p.id,
      own ?? (await templates.insertPanel({ ...base, panel_name: p.panel_name, type_id: p.panel_type_id, sn: p.sn })),
    );
  }

  const profiles = (await templates.profiles(tempId)).filter((p) => !ownKeys.has(p.data_key));
  await templates.insertDataDefines(
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
  );

  // Configuration: the template's args as they are, and its configs with their data point's type and default.
  const args = await templates.args(tempId);
  const configs = await templates.configs(tempId);
  const defines = await templates.defineDefaults(device.groupId, [...new Set(configs.map((c) => c.define_key))]);
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
  await templates.insertConfigs(rows);
}

/**
 * A device whose type changed: what the old type put there goes (its data points first, then its
 * panels; a user's data point on such a panel stays, without a panel), and the new type's
 * standard template is copied as for a new device.
 */
export async function reapplyStandardTemplate(trx: Db, device: DeviceRef): Promise<void> {
  await new TemplatesRepository(trx).removeFromType(device);
  await copyStandardTemplate(trx, device);
}

/** A purged device's own data points and panels go with it. */
export async function removeDeviceData(trx: Db, device: DeviceRef): Promise<void> {
  await new TemplatesRepository(trx).removeDeviceData(device);
}
