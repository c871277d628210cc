/** A type's overview (type/{typeId}/typeoverview): the type's data points shown first, in order. */
import { useMemo } from 'react';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { addTypeOverviewRequest, updateTypeOverviewRequest } from '@sluice/shared/device-type.schema';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { overviewResource, typeDataDefinesResource, type TypeOverviewDto } from '../../api/device-types-api';
import { useTypePart } from '../type-lookups';

export function OverviewTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const defines = useTypePart(typeDataDefinesResource, typeId);
  const config = useMemo<ResourceTableConfig<TypeOverviewDto>>(() => {
    const byId = new Map(defines.map((d) => [d.Id, d]));
    return {
      resource: overviewResource,
      rowName: (row) => row.Name,
      search: { placeholder: 'typeOverview.searchPlaceholder' },
      addLabel: 'typeOverview.add',
      defaultSort: { key: 'Sn', order: 'asc' },
      columns: [
        { key: 'Sn', title: 'typeOverview.sn', sortKey: 'Sn', width: 70 },
        { key: 'Name', title: 'typeOverview.name', sortKey: 'Name' },
        {
          key: 'TypeDataDefineId',
          title: 'typeOverview.dataDefine',
          render: (row) => {
            const define = byId.get(row.TypeDataDefineId);
            return define ? <Typography.Text code>{define.DataKey}</Typography.Text> : `#${String(row.TypeDataDefineId)}`;
          },
        },
      ],
      form: {
        createSchema: addTypeOverviewRequest,
        updateSchema: updateTypeOverviewRequest,
        createTitle: 'typeOverview.add',
        editTitle: 'typeOverview.edit',
        initialValues: { Sn: 0 },
        fields: [
          {
            name: 'TypeDataDefineId',
            label: 'typeOverview.dataDefine',
            kind: 'select',
            help: 'typeOverview.dataDefineHelp',
            options: defines.map((d) => ({ value: d.Id, text: `${d.DataKey} · ${d.DataName}` })),
          },
          { name: 'Name', label: 'typeOverview.name', kind: 'text' },
          { name: 'Sn', label: 'typeOverview.sn', kind: 'number', min: 0 },
        ],
      },
    };
  }, [defines]);
  return <ResourceTable config={config} pathParams={{ typeId }} description={t('typeOverview.description')} compact />;
}
