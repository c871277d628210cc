import { useMemo } from 'react';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { addWarnCodeRequest, updateWarnCodeRequest, type WarnCodeDto } from '@sluice/shared/warn.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { zodFieldRules } from '../../../lib/zod-form';
import { useWarnTypes } from '../../../lib/common-params';
import { warnCodesResource } from '../api/warn-config-api';
import { useStoredName } from '../../../lib/stored-names';
import { StoredName } from '../../../components/stored-name';

/** /sys/warncode: the codes devices report, each of a warn type. */
export function WarnCodePage() {
  const { t } = useTranslation();
  const { data: types = [] } = useWarnTypes();
  const name = useStoredName();

  const config = useMemo<ResourceTableConfig<WarnCodeDto>>(() => {
    const typeChoices = types.map((type) => ({ value: type.Id, text: name(type.TypeName) }));
    return {
      resource: warnCodesResource,
      rowName: (row) => row.Code,
      search: { placeholder: 'warnCodes.searchPlaceholder' },
      addLabel: 'warnCodes.add',
      defaultSort: { key: 'Code', order: 'asc' },
      filters: [{ param: 'WarnTypeId', label: 'warnCodes.warnType', allLabel: 'warnCodes.allTypes', options: typeChoices }],
      columns: [
        {
          key: 'Code',
          title: 'warnCodes.code',
          sortKey: 'Code',
          render: (row) => <Typography.Text code>{row.Code}</Typography.Text>,
        },
        { key: 'Description', title: 'warnCodes.description', sortKey: 'Description' },
        {
          key: 'WarnTypeId',
          title: 'warnCodes.warnType',
          sortKey: 'WarnTypeId',
          render: (row) => (
            <Tag color={row.Color || undefined}>
              <StoredName text={row.TypeName} />
            </Tag>
          ),
        },
      ],
      form: {
        createSchema: addWarnCodeRequest,
        updateSchema: updateWarnCodeRequest,
        createTitle: 'warnCodes.add',
        editTitle: 'warnCodes.edit',
        initialValues: types[0] ? { WarnTypeId: types[0].Id } : {},
        fields: [
          { name: 'Code', label: 'warnCodes.code', kind: 'text', readOnlyInEdit: true, help: 'warnCodes.codeHelp' },
          { name: 'Description', label: 'warnCodes.description', kind: 'textarea' },
          { name: 'WarnTypeId', label: 'warnCodes.warnType', kind: 'select', options: typeChoices, rules: zodFieldRules(idRef) },
        ],
        // The code names the record in the update's path; only the description and the type change.
        toBody: (values, mode) => (mode === 'edit' ? { Description: values.Description, WarnTypeId: values.WarnTypeId } : values),
      },
    };
  }, [types, name]);

  return <ResourceTable config={config} title={t('routes.warnCode')} syncUrl />;
}
