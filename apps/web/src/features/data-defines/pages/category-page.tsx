import { useTranslation } from 'react-i18next';
import { addCategoryRequest, updateCategoryRequest, type CategoryDto } from '@sluice/shared/data-define.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { categoriesResource } from '../api/data-defines-api';

const config: ResourceTableConfig<CategoryDto> = {
  resource: categoriesResource,
  rowName: (row) => row.Name,
  search: { placeholder: 'categories.searchPlaceholder' },
  addLabel: 'categories.add',
  defaultSort: { key: 'Name', order: 'asc' },
  columns: [{ key: 'Name', title: 'categories.name', sortKey: 'Name' }],
  form: {
    createSchema: addCategoryRequest,
    updateSchema: updateCategoryRequest,
    createTitle: 'categories.add',
    editTitle: 'categories.edit',
    fields: [{ name: 'Name', label: 'categories.name', kind: 'text', help: 'categories.nameHelp' }],
  },
};

/** /sys/category: the tags data points are grouped by (renaming one renames it on its data points). */
export function CategoryPage() {
  const { t } = useTranslation();
  return <ResourceTable config={config} title={t('routes.category')} description={t('categories.description')} syncUrl />;
}
