import { useTranslation } from 'react-i18next';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import { menusResource } from '../api/menus-api';
import { useMenuTableConfig } from '../components/use-menu-table-config';

/** /sys/menu: the group's menu tree, with add, edit and delete. */
export function MenuPage() {
  const { t } = useTranslation();
  const config = useMenuTableConfig(menusResource, { tree: true });
  return <ResourceTable config={config} title={t('routes.menu')} description={t('menus.treeHint')} />;
}
