/**
 * A device's own data points and panels (spec §7: GetDeviceDataDefine, DeviceDataDefineAdd,
 * UpdateDeviceDataDefine, DeleteDeviceDataDefine; GetDevicePanels, AddPanel, UpdateDevicePanel,
 * DeleteDevicePanel), copied from its type's standard template and edited per device.
 */
import type { DeviceDataDefineDto, DevicePanelDto } from '@sluice/shared/device-data.schema';
import { defineResource } from '../../../components/resource-table/resource';

export const devicePointsResource = defineResource<DeviceDataDefineDto>({
  key: 'device-data-defines',
  operate: 'device.manage',
  list: 'GET /GetDeviceDataDefine',
  paging: 'none',
  create: 'POST /DeviceDataDefineAdd',
  update: 'PUT /UpdateDeviceDataDefine',
  remove: 'POST /DeleteDeviceDataDefine#Id',
});

export const devicePanelsResource = defineResource<DevicePanelDto>({
  key: 'device-panels',
  operate: 'device.manage',
  list: 'GET /GetDevicePanels',
  paging: 'none',
  create: 'POST /AddPanel',
  update: 'PUT /UpdateDevicePanel',
  remove: 'POST /DeleteDevicePanel#Id',
});
