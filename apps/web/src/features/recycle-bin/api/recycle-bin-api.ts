/** The device recycle bin (spec §7 Devices, /device/recyclebin): deleted devices, restore and purge. */
import type { DeviceDto } from '@sluice/shared/device.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api } from '../../../lib/api-client';

export interface RecycledDevice extends DeviceDto {
  DeletedAt: number;
  DeletedBy: string;
  ProjectExists: boolean;
}

/** Deleted devices, newest first (paged, searchable); restoring and purging are row calls. */
export const recycleBinResource = defineResource<RecycledDevice>({
  key: 'device-recycle-bin',
  operate: 'device.manage',
  list: 'GET /Device/RecycleBin',
});

/** Back to its project, or unassigned when the project is gone (the message says which). */
export const restoreDevice = (sn: string) =>
  api.put<{ DeviceSn: string; ProjectRestored: boolean }>(`/Device/RecycleBin/Restore/${encodeURIComponent(sn)}`);

/** For good, with its configuration, card, images and history (administrators only). */
export const purgeDevice = (sn: string) => api.delete<null>(`/Device/RecycleBin/${encodeURIComponent(sn)}`);
