/**
 * What other features do when a device is created, inside the creating transaction (the device
 * types feature copies the type's standard template to the device, say). Features register at
 * start-up; the devices feature calls them.
 */
import type { Db } from '../../db/database.ts';

export interface CreatedDevice {
  groupId: number;
  deviceSn: string;
  typeId: number | null;
}

export type DeviceCreatedHook = (trx: Db, device: CreatedDevice) => Promise<void>;

const hooks: DeviceCreatedHook[] = [];

export function onDeviceCreated(hook: DeviceCreatedHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

export async function runDeviceCreatedHooks(trx: Db, device: CreatedDevice): Promise<void> {
  for (const hook of hooks) await hook(trx, device);
}

/**
 * What other features do when a device is purged from the recycle bin, inside the purging
 * transaction, before the device row goes: delete what they keep for the device.
 */
export type DevicePurgedHook = (trx: Db, device: CreatedDevice) => Promise<void>;

const purgeHooks: DevicePurgedHook[] = [];

export function onDevicePurged(hook: DevicePurgedHook): void {
  if (!purgeHooks.includes(hook)) purgeHooks.push(hook);
}

export async function runDevicePurgedHooks(trx: Db, device: CreatedDevice): Promise<void> {
  for (const hook of purgeHooks) await hook(trx, device);
}

/**
 * What other features do when a device's type changes, inside the changing transaction, after
 * the device row has its new type: `typeId` is the new type, `previousTypeId` the old one.
 */
export type DeviceTypeChangedHook = (trx: Db, device: CreatedDevice & { previousTypeId: number | null }) => Promise<void>;

const typeChangedHooks: DeviceTypeChangedHook[] = [];

export function onDeviceTypeChanged(hook: DeviceTypeChangedHook): void {
  if (!typeChangedHooks.includes(hook)) typeChangedHooks.push(hook);
}

export async function runDeviceTypeChangedHooks(
  trx: Db,
  device: CreatedDevice & { previousTypeId: number | null },
): Promise<void> {
  for (const hook of typeChangedHooks) await hook(trx, device);
}
