import { useMemo } from 'react';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  addDataDefineWarnCodeRequest,
  updateDataDefineWarnCodeRequest,
  type DataDefineWarnCodeDto,
} from '@sluice/shared/data-define.schema';
import { DataDefineSelect } from '../../../components/data-value/data-define-select';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { useDataDefineLibrary } from '../../../lib/common-params';
import { dataDefineWarnCodesResource, useAllWarnCodes } from '../api/data-defines-api';
import { StoredName } from '../../../components/stored-name';

/** /sys/dataDefineWarnCode: which warn code a data point raises (linked data). */
export function DataDefineWarnCodePage() {
  const { t } = useTranslation();
  const { data: codes = [] } = useAllWarnCodes();
  const { data: library = [] } = useDataDefineLibrary();

  const config = useMemo<ResourceTableConfig<DataDefineWarnCodeDto>>(() => {
    const nameOf = new Map(library.map((d) => [d.DataKey, d.DataName]));
    const codeOf = new Map(codes.map((c) => [c.Code, c]));
    return {
      resource: dataDefineWarnCodesResource,
      rowName: (row) => `${row.DataKey} → ${row.Code}`,
      search: { placeholder: 'links.searchPlaceholder' },
      addLabel: 'links.add',
      defaultSort: { key: 'DataKey', order: 'asc' },
      columns: [
        {
          key: 'DataKey',
          title: 'links.dataKey',
          sortKey: 'DataKey',
          render: (row) => <Typography.Text code>{row.DataKey}</Typography.Text>,
        },
        { key: 'DataName', title: 'links.dataName', render: (row) => <StoredName text={nameOf.get(row.DataKey) ?? '—'} /> },
        {
          key: 'Code',
          title: 'links.code',
          sortKey: 'Code',
          render: (row) => <Typography.Text code>{row.Code}</Typography.Text>,
        },
        {
          key: 'Description',
          title: 'links.codeDescription',
          render: (row) => {
            const code = codeOf.get(row.Code);
            return code ? (
              <>
                {code.TypeName && (
                  <Tag color={code.Color || undefined}>
                    <StoredName text={code.TypeName} />
                  </Tag>
                )}
                <StoredName text={code.Description} />
              </>
            ) : (
              '—'
            );
          },
        },
      ],
      form: {
        createSchema: addDataDefineWarnCodeRequest,
        updateSchema: updateDataDefineWarnCodeRequest,
        createTitle: 'links.add',
        editTitle: 'links.edit',
        fields: [
          {
            name: 'DataKey',
            label: 'links.dataKey',
            kind: 'custom',
            render: ({ id }) => <DataDefineSelect id={id} by="DataKey" />,
          },
          {
            name: 'Code',
            label: 'links.code',
            kind: 'select',
            options: codes.map((c) => ({ value: c.Code, text: `${c.Code} · ${c.Description}` })),
          },
        ],
      },
    };
  }, [codes, library]);

  return (
    <ResourceTable config={config} title={t('routes.dataDefineWarnCode')} description={t('links.pageDescription')} syncUrl />
  );
}
