import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { addWarnTypeRequest, updateWarnTypeRequest, type WarnTypeDto } from '@sluice/shared/warn.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { warnTypesResource } from '../api/warn-config-api';
import { ColorField } from '../components/color-field';
import { WARN_ICON_NAMES, WarnIcon } from '../components/warn-icon';
import { IconName } from '../../../components/icon-name';
import { StoredName } from '../../../components/stored-name';

function Swatch({ color }: { color: string }) {
  if (!color) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Flex gap={6} align="center">
      <span
        aria-hidden
        style={{ width: 14, height: 14, borderRadius: 3, background: color, border: '1px solid rgba(128,128,128,0.4)' }}
      />
      <Typography.Text code>{color}</Typography.Text>
    </Flex>
  );
}

const config: ResourceTableConfig<WarnTypeDto> = {
  resource: warnTypesResource,
  rowName: (row) => row.TypeName,
  search: { placeholder: 'warnTypes.searchPlaceholder' },
  addLabel: 'warnTypes.add',
  defaultSort: { key: 'TypeName', order: 'asc' },
  columns: [
    {
      key: 'TypeName',
      title: 'warnTypes.typeName',
      sortKey: 'TypeName',
      render: (row) => (
        <Flex gap={8} align="center">
          <WarnIcon name={row.Icon} color={row.Color} />
          <StoredName text={row.TypeName} />
        </Flex>
      ),
    },
    { key: 'Color', title: 'warnTypes.color', render: (row) => <Swatch color={row.Color} /> },
    { key: 'Icon', title: 'warnTypes.icon', render: (row) => <IconName name={row.Icon} /> },
  ],
  form: {
    createSchema: addWarnTypeRequest,
    updateSchema: updateWarnTypeRequest,
    createTitle: 'warnTypes.add',
    editTitle: 'warnTypes.edit',
    initialValues: { Color: '#faad14', Icon: 'WarningOutlined' },
    fields: [
      { name: 'TypeName', label: 'warnTypes.typeName', kind: 'text' },
      { name: 'Color', label: 'warnTypes.color', kind: 'custom', render: ({ id }) => <ColorField id={id} /> },
      {
        name: 'Icon',
        label: 'warnTypes.icon',
        kind: 'autocomplete',
        help: 'warnTypes.iconHelp',
        suggestions: WARN_ICON_NAMES,
        addon: (value) => (typeof value === 'string' ? <WarnIcon name={value} /> : null),
      },
    ],
  },
};

/** /sys/warntype: kinds of alarms, with their colour and icon. */
export function WarnTypePage() {
  const { t } = useTranslation();
  return <ResourceTable config={config} title={t('routes.warnType')} syncUrl />;
}
