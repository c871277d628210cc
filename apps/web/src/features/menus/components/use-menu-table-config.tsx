import { useMemo } from 'react';
import { Button, Flex, Tag, Typography } from 'antd';
import { PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { addMenuRequest, MENU_TYPE, routerDefinition, updateMenuRequest } from '@sluice/shared/menu.schema';
import { isKnownIcon, MENU_ICON_NAMES, menuIconElement } from '../../../components/menu-icon';
import type { Resource } from '../../../components/resource-table/resource';
import type { FormFieldDef, ResourceTableConfig, TreeChoice } from '../../../components/resource-table/resource-types';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { buildMenuTree, isLinkMenu, menuLabel, parseRouter, type MenuDto, type MenuTreeNode } from '../../../lib/menu-model';
import { useMayOperate } from '../../../lib/operates';
import { KNOWN_COMPONENT_URLS, routeIdForComponent } from '../../../lib/route-catalog';
import { zodFieldRules } from '../../../lib/zod-form';
import { allMenusQueryOptions, type MenuRow } from '../api/menus-api';

const isLink = (values: Record<string, unknown>) => values.MenuType === MENU_TYPE.link;

/** The flat list as rows with children (the menu set's tree table). */
export function menuRows(rows: MenuRow[]): MenuRow[] {
  const toRow = (node: MenuTreeNode): MenuRow => ({
    ...node.menu,
    children: node.children.length > 0 ? node.children.map(toRow) : undefined,
  });
  return buildMenuTree(rows).map(toRow);
}

/** Navigation menus as parent choices; a menu's own branch cannot be its parent. */
function parentChoices(nodes: MenuTreeNode[], excluded: number | undefined, label: (menu: MenuDto) => string): TreeChoice[] {
  return nodes
    .filter((node) => !isLinkMenu(node.menu) && node.menu.Id !== excluded)
    .map((node) => ({ value: node.menu.Id, title: label(node.menu), children: parentChoices(node.children, excluded, label) }));
}

function MenuName({ menu }: { menu: MenuDto }) {
  const { t } = useTranslation();
  const shown = menuLabel(menu, t);
  return (
    <Flex vertical>
      <span>{shown}</span>
      {shown !== menu.Name && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {menu.Name}
        </Typography.Text>
      )}
    </Flex>
  );
}

/**
 * The menu editor shared by /sys/menu (the whole tree) and /sys/subMenu/:id (one menu's
 * children): Router edited as a path and a component and sent as JSON, MenuType as a choice.
 */
export function useMenuTableConfig(resource: Resource<MenuRow>, options: { tree: boolean }): ResourceTableConfig<MenuRow> {
  const { t } = useTranslation();
  // The table hides its own add, edit and delete by the resource's operate; the add-child button here likewise.
  const mayManage = useMayOperate(resource.operate);
  const ctx = useResourceContext();
  const { data: all } = useQuery(allMenusQueryOptions(ctx));
  const allRows = all?.rows;

  return useMemo<ResourceTableConfig<MenuRow>>(() => {
    const tree = buildMenuTree(allRows ?? []);
    const label = (menu: MenuDto) => menuLabel(menu, t);
    const parentTree = (excluded?: number): TreeChoice[] => [
      { value: 0, title: t('menus.topLevel') },
      ...parentChoices(tree, excluded, label),
    ];
    const fields: FormFieldDef[] = [
      { name: 'Name', label: 'menus.name', kind: 'text' },
      { name: 'ParentId', label: 'menus.parent', kind: 'tree-select', treeData: parentTree() },
      {
        name: 'MenuType',
        label: 'menus.menuType',
        kind: 'radio',
        options: [
          { value: MENU_TYPE.link, labelKey: 'menus.typeLink' },
          { value: MENU_TYPE.navigation, labelKey: 'menus.typeNavigation' },
        ],
      },
      {
        name: 'RouterPath',
        label: 'menus.routerPath',
        kind: 'text',
        help: 'menus.routerPathHelp',
        visible: isLink,
        rules: zodFieldRules(routerDefinition.shape.path),
      },
      {
        name: 'ComponentUrl',
        label: 'menus.componentUrl',
        kind: 'autocomplete',
        help: 'menus.componentUrlHelp',
        suggestions: KNOWN_COMPONENT_URLS,
        visible: isLink,
        rules: zodFieldRules(routerDefinition.shape.componentUrl),
      },
      {
        name: 'Icon',
        label: 'menus.icon',
        kind: 'autocomplete',
        help: 'menus.iconHelp',
        suggestions: MENU_ICON_NAMES,
        addon: (value) =>
          typeof value === 'string' && isKnownIcon(value) ? <span style={{ fontSize: 20 }}>{menuIconElement(value)}</span> : null,
      },
      { name: 'Url', label: 'menus.url', kind: 'text' },
      { name: 'Sn', label: 'menus.sn', kind: 'number', min: 0 },
      { name: 'Remarks', label: 'menus.remarks', kind: 'textarea' },
    ];

    return {
      resource,
      tree: options.tree,
      transformRows: options.tree ? menuRows : undefined,
      rowName: label,
      addLabel: 'menus.add',
      columns: [
        { key: 'Name', title: 'menus.name', render: (menu) => <MenuName menu={menu} /> },
        {
          key: 'MenuType',
          title: 'menus.menuType',
          render: (menu) =>
            isLinkMenu(menu) ? (
              <Tag color="green">{t('menus.typeLink')}</Tag>
            ) : (
              <Tag color="blue">{t('menus.typeNavigation')}</Tag>
            ),
        },
        {
          key: 'RouterPath',
          title: 'menus.routerPath',
          render: (menu) => {
            const router = parseRouter(menu.Router);
            return router ? (
              <Typography.Text code>{router.path}</Typography.Text>
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            );
          },
        },
        {
          key: 'ComponentUrl',
          title: 'menus.componentUrl',
          render: (menu) => {
            const router = parseRouter(menu.Router);
            if (!router) return <Typography.Text type="secondary">—</Typography.Text>;
            return (
              <Flex gap={6} align="center" wrap>
                <Typography.Text code>{router.componentUrl}</Typography.Text>
                {!routeIdForComponent(router.componentUrl) && <Tag color="warning">{t('menus.unknownComponent')}</Tag>}
              </Flex>
            );
          },
        },
        {
          key: 'Icon',
          title: 'menus.icon',
          render: (menu) =>
            menu.Icon ? (
              <Flex gap={6} align="center">
                {menuIconElement(menu.Icon)}
                <Typography.Text type="secondary">{menu.Icon}</Typography.Text>
              </Flex>
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            ),
          onCards: false,
        },
        { key: 'Sn', title: 'menus.sn' },
        { key: 'Remarks', title: 'menus.remarks', ellipsis: true, width: 160, onCards: false },
      ],
      rowActions: (menu, helpers) => {
        if (isLinkMenu(menu)) return null;
        const name = label(menu);
        return (
          <>
            {mayManage && (
              <Button
                type="link"
                size="small"
                icon={<PlusOutlined aria-hidden />}
                aria-label={t('menus.addChildTo', { name })}
                onClick={() => {
                  helpers.create({ ParentId: menu.Id, MenuType: MENU_TYPE.link });
                }}
              >
                {t('menus.addChild')}
              </Button>
            )}
            <Link
              to={`/sys/subMenu/${String(menu.Id)}`}
              aria-label={t('menus.subMenusOf', { name })}
              style={{ paddingInline: 8 }}
            >
              <UnorderedListOutlined aria-hidden /> {t('menus.subMenus')}
            </Link>
          </>
        );
      },
      form: {
        createSchema: addMenuRequest,
        updateSchema: updateMenuRequest,
        createTitle: 'menus.add',
        editTitle: 'menus.edit',
        fields,
        initialValues: { ParentId: 0, MenuType: MENU_TYPE.link, Sn: 0 },
        adjustFields: (list, mode, row) =>
          mode === 'edit' && row
            ? list.map((field) => (field.name === 'ParentId' ? { ...field, treeData: parentTree(row.Id) } : field))
            : list,
        toValues: (menu) => {
          const router = parseRouter(menu.Router);
          return {
            Name: menu.Name,
            ParentId: menu.ParentId,
            MenuType: menu.MenuType,
            RouterPath: router?.path,
            ComponentUrl: router?.componentUrl,
            Icon: menu.Icon,
            Url: menu.Url,
            Sn: menu.Sn,
            Remarks: menu.Remarks,
          };
        },
        toBody: (values) => {
          const link = isLink(values);
          const path = typeof values.RouterPath === 'string' ? values.RouterPath.trim() : '';
          const componentUrl = typeof values.ComponentUrl === 'string' ? values.ComponentUrl.trim() : '';
          const url = typeof values.Url === 'string' ? values.Url.trim() : '';
          return {
            Name: values.Name,
            ParentId: values.ParentId ?? 0,
            MenuType: values.MenuType,
            Router: link ? JSON.stringify({ path, componentUrl }) : '',
            Url: url || (link ? path : ''),
            Icon: values.Icon ?? '',
            Sn: values.Sn ?? 0,
            Remarks: values.Remarks ?? '',
          };
        },
        errorFields: { Router: 'RouterPath' },
      },
    };
  }, [allRows, t, resource, options.tree, mayManage]);
}
