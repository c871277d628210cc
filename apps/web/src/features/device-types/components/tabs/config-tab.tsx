/** A type's configuration values (type/{typeId}/TypeConfig): a value that fits its data type. */
import { useTranslation } from 'react-i18next';
import { addTypeConfigRequest, updateTypeConfigRequest } from '@sluice/shared/device-type.schema';
import { DataTypeTag } from '../../../../components/data-value/data-define-select';
import { dataValueField, valueTypeField } from '../../../../components/data-value/data-fields';
import { valueFitsTypeRule } from '../../../../components/data-value/data-value-rules';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { typeConfigsResource, type TypeConfigDto } from '../../api/device-types-api';

const config: ResourceTableConfig<TypeConfigDto> = {
  resource: typeConfigsResource,
  rowName: (row) => row.DataName,
  search: { placeholder: 'typeConfigs.searchPlaceholder' },
  addLabel: 'typeConfigs.add',
  columns: [
    { key: 'DataName', title: 'typeConfigs.dataName', sortKey: 'DataName' },
    { key: 'DataType', title: 'dataValue.dataType', render: (row) => <DataTypeTag type={row.DataType} /> },
    { key: 'DataValue', title: 'typeConfigs.dataValue' },
    { key: 'Category', title: 'typeConfigs.category', sortKey: 'Category' },
    { key: 'Position', title: 'typeConfigs.position', sortKey: 'Position' },
  ],
  form: {
    createSchema: addTypeConfigRequest,
    updateSchema: updateTypeConfigRequest,
    createTitle: 'typeConfigs.add',
    editTitle: 'typeConfigs.edit',
    initialValues: { DataType: 'textbox', DataValue: '' },
    fields: [
      { name: 'DataName', label: 'typeConfigs.dataName', kind: 'text' },
      valueTypeField,
      dataValueField('typeConfigs.dataValue', [valueFitsTypeRule()]),
      { name: 'Category', label: 'typeConfigs.category', kind: 'text' },
      { name: 'Position', label: 'typeConfigs.position', kind: 'text' },
    ],
  },
};

export function ConfigTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  return <ResourceTable config={config} pathParams={{ typeId }} description={t('typeConfigs.description')} compact />;
}
