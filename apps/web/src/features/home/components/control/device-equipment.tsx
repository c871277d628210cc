/**
 * A device's equipment (spec §7 DeviceAccessory: DeviceAccessoryAdd, SaveDeviceAccessory,
 * RemoveDeviceAccessory): the pumps, blowers and dosing units the device controls, by name. Shown
 * under the run model, whose rotations name equipment; kept by those who manage devices.
 */
import {
  addDeviceAccessoryRequest,
  updateDeviceAccessoryRequest,
  type DeviceAccessoryDto,
} from '@sluice/shared/run-model.schema';
import { defineResource } from '../../../../components/resource-table/resource';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';

export const deviceEquipmentResource = defineResource<DeviceAccessoryDto>({
  key: 'device-equipment',
  operate: 'device.manage',
  list: 'GET /{g}/{sn}/DeviceAccessory',
  create: 'POST /{g}/{sn}/DeviceAccessory/DeviceAccessoryAdd',
  update: 'PUT /{g}/{sn}/DeviceAccessory/SaveDeviceAccessory',
  remove: 'POST /{g}/{sn}/DeviceAccessory/RemoveDeviceAccessory#Id',
});

const config: ResourceTableConfig<DeviceAccessoryDto> = {
  resource: deviceEquipmentResource,
  rowName: (row) => row.Name,
  addLabel: 'runModel.equipment.add',
  empty: 'runModel.equipment.empty',
  columns: [{ key: 'Name', title: 'runModel.equipment.name', sortKey: 'Name' }],
  form: {
    createSchema: addDeviceAccessoryRequest,
    updateSchema: updateDeviceAccessoryRequest,
    createTitle: 'runModel.equipment.add',
    editTitle: 'runModel.equipment.edit',
    fields: [{ name: 'Name', label: 'runModel.equipment.name', kind: 'text' }],
  },
};

export function DeviceEquipment({ sn }: { sn: string }) {
  return <ResourceTable config={config} pathParams={{ sn }} compact />;
}
