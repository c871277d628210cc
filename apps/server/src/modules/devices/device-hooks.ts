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
