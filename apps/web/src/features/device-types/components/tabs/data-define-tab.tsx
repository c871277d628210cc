/** A type's data points (type/{typeId}/TypeDataDefine): picked from the library, with AutoControl, OutKey and the panel view (ShowType). */
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { VIEW_MODES, addTypeDataDefineRequest, updateTypeDataDefineRequest } from '@sluice/shared/device-type.schema';
import { DataDefineSelect, DataTypeTag } from '../../../../components/data-value/data-define-select';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import type { MessageKey } from '../../../../lib/i18n';
import { typeDataDefinesResource, type TypeDataDefineDto } from '../../api/device-types-api';

const VIEW_LABELS: Record<number, MessageKey> = {
  [VIEW_MODES.detection]: 'typeDataDefines.viewDetection',
  [VIEW_MODES.monitoring]: 'typeDataDefines.viewMonitoring',
  [VIEW_MODES.status]: 'typeDataDefines.viewStatus',
};

function AutoTag({ auto }: { auto: boolean }) {
  const { t } = useTranslation();
  return auto ? <Tag color="green">{t('typeDataDefines.auto')}</Tag> : <Tag>{t('typeDataDefines.manual')}</Tag>;
}

function ViewLabel({ mode }: { mode: number }) {
  const { t } = useTranslation();
  const key = VIEW_LABELS[mode];
  return <>{key ? t(key) : String(mode)}</>;
}

const config: ResourceTableConfig<TypeDataDefineDto> = {
  resource: typeDataDefinesResource,
  rowName: (row) => row.DataKey,
  search: { placeholder: 'typeDataDefines.searchPlaceholder' },
  addLabel: 'typeDataDefines.add',
  columns: [
    {
      key: 'DataKey',
      title: 'dataDefines.dataKey',
      sortKey: 'DataDefineId',
      render: (row) => <Typography.Text code>{row.DataKey}</Typography.Text>,
    },
    { key: 'DataName', title: 'dataDefines.dataName' },
    { key: 'DataType', title: 'dataValue.dataType', render: (row) => <DataTypeTag type={row.DataType} /> },
    { key: 'Unit', title: 'dataValue.unit' },
    { key: 'AutoControl', title: 'typeDataDefines.autoControl', render: (row) => <AutoTag auto={row.AutoControl} /> },
    { key: 'OutKey', title: 'typeDataDefines.outKey', sortKey: 'OutKey' },
    {
      key: 'ShowType',
      title: 'typeDataDefines.showType',
      sortKey: 'ShowType',
      render: (row) => <ViewLabel mode={row.ShowType} />,
    },
  ],
  form: {
    createSchema: addTypeDataDefineRequest,
    updateSchema: updateTypeDataDefineRequest,
    createTitle: 'typeDataDefines.add',
    editTitle: 'typeDataDefines.edit',
    initialValues: { AutoControl: false, ShowType: 0 },
    fields: [
      {
        name: 'DataDefineId',
        label: 'typeDataDefines.dataDefine',
        kind: 'custom',
        render: ({ id }) => <DataDefineSelect id={id} />,
      },
      { name: 'AutoControl', label: 'typeDataDefines.autoControl', kind: 'switch', help: 'typeDataDefines.autoControlHelp' },
      { name: 'OutKey', label: 'typeDataDefines.outKey', kind: 'text', help: 'typeDataDefines.outKeyHelp' },
      {
        name: 'ShowType',
        label: 'typeDataDefines.showType',
        kind: 'radio',
        options: Object.entries(VIEW_LABELS).map(([value, labelKey]) => ({ value: Number(value), labelKey })),
      },
    ],
  },
};

export function DataDefineTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  return <ResourceTable config={config} pathParams={{ typeId }} description={t('typeDataDefines.description')} compact />;
}
