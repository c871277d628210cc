import { useMemo, useState } from 'react';
import { Alert, App, Button, Flex, Spin, Tag, Tree, Typography } from 'antd';
import type { TreeDataNode } from 'antd';
import { CaretDownOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RoleDto } from '@sluice/shared/role.schema';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { errorMessage } from '../../../lib/form-errors';
import { buildMenuTree, menuLabel, type MenuDto, type MenuTreeNode } from '../../../lib/menu-model';
import { groupMenusQueryOptions, roleMenusQueryOptions, useSaveRoleMenus } from '../api/roles-api';

function toTreeData(nodes: MenuTreeNode[], t: Parameters<typeof menuLabel>[1]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.menu.Id,
    title: menuLabel(node.menu, t),
    children: node.children.length > 0 ? toTreeData(node.children, t) : undefined,
  }));
}

/** Each menu's parent chain, to send a ticked item with the navigation menus above it. */
function ancestorsOf(menus: readonly MenuDto[]): Map<number, number[]> {
  const byId = new Map(menus.map((menu) => [menu.Id, menu]));
  return new Map(
    menus.map((menu) => {
      const chain: number[] = [];
      const seen = new Set<number>([menu.Id]);
      for (let parent = byId.get(menu.ParentId); parent && !seen.has(parent.Id); parent = byId.get(parent.ParentId)) {
        seen.add(parent.Id);
        chain.push(parent.Id);
      }
      return [menu.Id, chain];
    }),
  );
}

function MenusEditor({
  role,
  menus,
  granted,
  readOnly,
}: {
  role: RoleDto;
  menus: MenuDto[];
  granted: number[];
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useSaveRoleMenus();
  const tree = useMemo(() => buildMenuTree(menus), [menus]);
  const treeData = useMemo(() => toTreeData(tree, t), [tree, t]);
  const ancestors = useMemo(() => ancestorsOf(menus), [menus]);
  const hasChildren = useMemo(() => new Set(menus.map((menu) => menu.ParentId)), [menus]);
  // A granted parent would tick all its children in the tree, so only leaves start ticked.
  const initial = useMemo(() => granted.filter((id) => !hasChildren.has(id)), [granted, hasChildren]);
  const [checked, setChecked] = useState<number[]>(initial);
  const dirty = [...checked].sort().join() !== [...initial].sort().join();

  const onSave = () => {
    const ids = new Set<number>();
    for (const id of checked) {
      ids.add(id);
      for (const parent of ancestors.get(id) ?? []) ids.add(parent);
    }
    save.mutate(
      { roleId: role.Id, menuIds: [...ids].sort((a, b) => a - b) },
      {
        onSuccess: (response) => void message.success(response.message),
        onError: (failure) => void message.error(errorMessage(failure)),
      },
    );
  };

  return (
    <Flex vertical gap={12}>
      {role.IsAdmin && <Alert type="info" showIcon title={t('roles.adminHint')} />}
      <Typography.Text type="secondary">{t('roles.menusHint')}</Typography.Text>
      <Tree
        checkable
        disabled={readOnly}
        selectable={false}
        defaultExpandAll
        switcherIcon={<CaretDownOutlined aria-hidden />}
        treeData={treeData}
        checkedKeys={checked}
        onCheck={(keys) => {
          const list = Array.isArray(keys) ? keys : keys.checked;
          setChecked(list.map(Number));
        }}
        aria-label={t('roles.tabMenus')}
      />
      {!readOnly && (
        <Flex gap={8} align="center">
          <Button type="primary" onClick={onSave} loading={save.isPending} disabled={!dirty}>
            {t('roles.saveMenus')}
          </Button>
          {dirty && <Tag color="warning">{t('roles.unsaved')}</Tag>}
        </Flex>
      )}
    </Flex>
  );
}

/** The menus a role sees, as a tree with check boxes; saved as the full set (RoleSysMenu/AddOrUpdate). */
export function RoleMenusTab({ role, readOnly }: { role: RoleDto; readOnly: boolean }) {
  const ctx = useResourceContext();
  const menus = useQuery(groupMenusQueryOptions(ctx));
  const granted = useQuery(roleMenusQueryOptions(role.Id));
  const error = menus.error ?? granted.error;
  if (error) return <Alert type="error" showIcon title={errorMessage(error)} />;
  if (!menus.data || !granted.data) return <Spin />;
  return <MenusEditor key={granted.dataUpdatedAt} role={role} menus={menus.data} granted={granted.data} readOnly={readOnly} />;
}
