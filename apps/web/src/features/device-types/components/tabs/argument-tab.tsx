/** A type's arguments (type/{typeId}/TypeArgument: DefineId, Name, Category). */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { addTypeArgumentRequest, updateTypeArgumentRequest } from '@sluice/shared/device-type.schema';
import { DataDefineSelect } from '../../../../components/data-value/data-define-select';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { typeArgumentsResource, type TypeArgumentDto } from '../../api/device-types-api';
import { DataPointCell, useLibraryById } from '../type-lookups';

export function ArgumentTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const byId = useLibraryById();
  const config = useMemo<ResourceTableConfig<TypeArgumentDto>>(
    () => ({
      resource: typeArgumentsResource,
      rowName: (row) => row.Name,
      search: { placeholder: 'typeArguments.searchPlaceholder' },
      addLabel: 'typeArguments.add',
      columns: [
        { key: 'Name', title: 'typeArguments.name', sortKey: 'Name' },
        {
          key: 'DefineId',
          title: 'typeArguments.dataDefine',
          render: (row) => <DataPointCell define={byId.get(row.DefineId)} fallback={row.DefineId} />,
        },
        { key: 'Category', title: 'typeArguments.category', sortKey: 'Category' },
      ],
      form: {
        createSchema: addTypeArgumentRequest,
        updateSchema: updateTypeArgumentRequest,
        createTitle: 'typeArguments.add',
        editTitle: 'typeArguments.edit',
        fields: [
          {
            name: 'DefineId',
            label: 'typeArguments.dataDefine',
            kind: 'custom',
            render: ({ id }) => <DataDefineSelect id={id} />,
          },
          { name: 'Name', label: 'typeArguments.name', kind: 'text' },
          { name: 'Category', label: 'typeArguments.category', kind: 'text' },
        ],
      },
    }),
    [byId],
  );
  return <ResourceTable config={config} pathParams={{ typeId }} description={t('typeArguments.description')} compact />;
}
