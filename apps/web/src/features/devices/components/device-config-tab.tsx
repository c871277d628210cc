/**
 * A device's own settings ({g}/{sn}/DeviceConfig): name, data type and a value that fits the
 * type. Loaded with the device-types catalog, whose data-type texts it shares.
 */
import { addDeviceConfigRequest, updateDeviceConfigRequest } from '@sluice/shared/device.schema';
import { DataTypeSelect, DataTypeTag } from '../../../components/data-value/data-define-select';
import { valueFitsTypeRule } from '../../../components/data-value/data-value-rules';
import { DefaultValueEditor } from '../../../components/data-value/default-value-editor';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { deviceConfigsResource, type DeviceConfigDto } from '../api/device-config-api';

const config: ResourceTableConfig<DeviceConfigDto> = {
  resource: deviceConfigsResource,
  rowName: (row) => row.DataName,
  search: { placeholder: 'deviceConfig.searchPlaceholder' },
  addLabel: 'deviceConfig.add',
  empty: 'deviceConfig.empty',
  columns: [
    { key: 'DataName', title: 'deviceConfig.dataName', sortKey: 'DataName' },
    { key: 'DataType', title: 'dataValue.dataType', render: (row) => <DataTypeTag type={row.DataType} /> },
    { key: 'DataValue', title: 'deviceConfig.dataValue', ellipsis: true },
  ],
  form: {
    createSchema: addDeviceConfigRequest,
    updateSchema: updateDeviceConfigRequest,
    createTitle: 'deviceConfig.add',
    editTitle: 'deviceConfig.edit',
    initialValues: { DataType: 'textbox', DataValue: '' },
    fields: [
      { name: 'DataName', label: 'deviceConfig.dataName', kind: 'text' },
      {
        name: 'DataType',
        label: 'dataValue.dataType',
        kind: 'custom',
        render: ({ id, form }) => (
          <DataTypeSelect
            id={id}
            onTypeChange={() => {
              form.setFieldsValue({ DataValue: '' });
            }}
          />
        ),
      },
      {
        name: 'DataValue',
        label: 'deviceConfig.dataValue',
        kind: 'custom',
        dependencies: ['DataType'],
        rules: [valueFitsTypeRule()],
        render: ({ id, values }) => (
          <DefaultValueEditor id={id} dataType={typeof values.DataType === 'string' ? values.DataType : ''} format="" />
        ),
      },
    ],
  },
};

export function DeviceConfigTab({ sn }: { sn: string }) {
  return <ResourceTable config={config} pathParams={{ sn }} compact />;
}
