import { useMemo } from 'react';
import { Alert, Flex, Result } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MENU_TYPE } from '@sluice/shared/menu.schema';
import { BackButton } from '../../../components/back-button';
import { PageSpinner } from '../../../components/spinners';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { isLinkMenu, menuLabel } from '../../../lib/menu-model';
import { allMenusQueryOptions, subMenusResource } from '../api/menus-api';
import { useMenuTableConfig } from '../components/use-menu-table-config';

const MENU_SET = '/sys/menu';
const fromMenuPages = (path: string) => path.startsWith(MENU_SET) || path.startsWith('/sys/subMenu/');

/** /sys/subMenu/:id: the children of one navigation menu, with the same editor. */
export function SubMenuPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const menuId = Number(id);
  const ctx = useResourceContext();
  const all = useQuery(allMenusQueryOptions(ctx));
  const config = useMenuTableConfig(subMenusResource, { tree: false });
  const params = useMemo(() => ({ menuId }), [menuId]);
  const preset = useMemo(() => ({ ParentId: menuId, MenuType: MENU_TYPE.link }), [menuId]);
  const back = <BackButton fallback={MENU_SET} accept={fromMenuPages} />;

  if (all.isPending) return <PageSpinner />;
  const menu = Number.isInteger(menuId) ? all.data?.rows.find((row) => row.Id === menuId) : undefined;
  if (!menu) return <Result status="404" title={t('menus.noSuchMenu')} extra={back} />;
  const name = menuLabel(menu, t);

  return (
    <Flex vertical gap={16}>
      <div>{back}</div>
      {isLinkMenu(menu) ? (
        <Alert type="info" showIcon title={t('menus.notNavigation')} />
      ) : (
        <ResourceTable
          key={menuId}
          config={config}
          title={t('menus.subMenuTitle', { name })}
          params={params}
          createPreset={preset}
        />
      )}
    </Flex>
  );
}
