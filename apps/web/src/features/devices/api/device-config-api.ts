/** A device's own settings (spec §3 Device config): {g}/{sn}/DeviceConfig as a resource. */
import type { z } from 'zod';
import type { deviceConfigDto } from '@sluice/shared/device.schema';
import { defineResource } from '../../../components/resource-table/resource';

export type DeviceConfigDto = z.infer<typeof deviceConfigDto>;

export const deviceConfigsResource = defineResource<DeviceConfigDto>({
  key: 'device-configs',
  operate: 'device.manage',
  list: 'GET /{g}/{sn}/DeviceConfig',
  paging: 'none',
  create: 'POST /{g}/{sn}/DeviceConfig',
  update: 'PUT /{g}/{sn}/DeviceConfig',
  remove: 'DELETE /{g}/{sn}/DeviceConfig/:id',
});
