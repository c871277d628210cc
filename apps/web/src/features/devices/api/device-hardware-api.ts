/** A device's own hardware rows (spec §7 {g}/{sn}/DeviceHardware) as a resource: paged, written with device.manage. */
import type { DeviceHardwareDto } from '@sluice/shared/device-type.schema';
import { defineResource } from '../../../components/resource-table/resource';

export type { DeviceHardwareDto };

export const deviceHardwareResource = defineResource<DeviceHardwareDto>({
  key: 'device-hardware',
  operate: 'device.manage',
  list: 'GET /{g}/{sn}/DeviceHardware',
  create: 'POST /{g}/{sn}/DeviceHardware',
  update: 'PUT /{g}/{sn}/DeviceHardware',
  remove: 'DELETE /{g}/{sn}/DeviceHardware/:id',
});
