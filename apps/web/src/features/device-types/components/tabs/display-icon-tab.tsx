/** A type's display icons (type/{typeId}/typedisplayIcon: Name, Sn, DataDefineId, Icon), in order. */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { addTypeDisplayIconRequest, updateTypeDisplayIconRequest } from '@sluice/shared/device-type.schema';
import { DataDefineSelect } from '../../../../components/data-value/data-define-select';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { displayIconsResource, type DisplayIconDto } from '../../api/device-types-api';
import { IconName } from '../../../../components/icon-name';

const config: ResourceTableConfig<DisplayIconDto> = {
  resource: displayIconsResource,
  rowName: (row) => row.Name,
  search: { placeholder: 'displayIcons.searchPlaceholder' },
  addLabel: 'displayIcons.add',
  defaultSort: { key: 'Sn', order: 'asc' },
  columns: [
    { key: 'Sn', title: 'displayIcons.sn', sortKey: 'Sn', width: 70 },
    { key: 'Name', title: 'displayIcons.name', sortKey: 'Name' },
    {
      key: 'DataDefineKey',
      title: 'displayIcons.dataDefine',
      render: (row) => <Typography.Text code>{row.DataDefineKey}</Typography.Text>,
    },
    { key: 'Icon', title: 'displayIcons.icon', render: (row) => <IconName name={row.Icon} /> },
  ],
  form: {
    createSchema: addTypeDisplayIconRequest,
    updateSchema: updateTypeDisplayIconRequest,
    createTitle: 'displayIcons.add',
    editTitle: 'displayIcons.edit',
    initialValues: { Sn: 0 },
    fields: [
      { name: 'Name', label: 'displayIcons.name', kind: 'text' },
      {
        name: 'DataDefineId',
        label: 'displayIcons.dataDefine',
        kind: 'custom',
        render: ({ id }) => <DataDefineSelect id={id} />,
      },
      {
        name: 'Icon',
        label: 'displayIcons.icon',
        kind: 'autocomplete',
        help: 'displayIcons.iconHelp',
        suggestions: ['pump', 'blower', 'dosing', 'level', 'valve', 'mixer', 'analyser', 'flow'],
      },
      { name: 'Sn', label: 'displayIcons.sn', kind: 'number', min: 0 },
    ],
  },
};

export function DisplayIconTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  return <ResourceTable config={config} pathParams={{ typeId }} description={t('displayIcons.description')} compact />;
}
