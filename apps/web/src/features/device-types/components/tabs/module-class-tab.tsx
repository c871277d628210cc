/** A type's module classes (type/{typeId}/Typeclass: Name, Rank), in order. */
import { useTranslation } from 'react-i18next';
import { addTypeClassRequest, updateTypeClassRequest } from '@sluice/shared/device-type.schema';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { classesResource, type TypeClassDto } from '../../api/device-types-api';

const config: ResourceTableConfig<TypeClassDto> = {
  resource: classesResource,
  rowName: (row) => row.Name,
  search: { placeholder: 'moduleClasses.searchPlaceholder' },
  addLabel: 'moduleClasses.add',
  defaultSort: { key: 'Rank', order: 'asc' },
  columns: [
    { key: 'Rank', title: 'moduleClasses.rank', sortKey: 'Rank', width: 80 },
    { key: 'Name', title: 'moduleClasses.name', sortKey: 'Name' },
  ],
  form: {
    createSchema: addTypeClassRequest,
    updateSchema: updateTypeClassRequest,
    createTitle: 'moduleClasses.add',
    editTitle: 'moduleClasses.edit',
    initialValues: { Rank: 0 },
    fields: [
      { name: 'Name', label: 'moduleClasses.name', kind: 'text' },
      { name: 'Rank', label: 'moduleClasses.rank', kind: 'number', min: 0 },
    ],
  },
};

export function ModuleClassTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  return <ResourceTable config={config} pathParams={{ typeId }} description={t('moduleClasses.description')} compact />;
}
