import { Drawer, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RoleDto } from '@sluice/shared/role.schema';
import { useRoleName } from '../../../lib/role-names';
import { MOBILE_QUERY, useMediaQuery } from '../../../lib/use-media-query';
import { RoleMenusTab } from './role-menus-tab';
import { RoleOperatesTab } from './role-operates-tab';
import { RoleProjectsTab } from './role-projects-tab';

/** A role's permissions: operates by module, menus, projects. */
export function RolePermissionsDrawer({
  role,
  readOnly,
  onClose,
}: {
  role: RoleDto | undefined;
  readOnly: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const roleName = useRoleName();
  return (
    <Drawer
      open={role !== undefined}
      onClose={onClose}
      title={role ? t('roles.drawerTitle', { name: roleName(role.Name) }) : undefined}
      size={mobile ? '100%' : 640}
      destroyOnHidden
      closable={{ 'aria-label': t('common.close'), placement: 'end' }}
    >
      {role && (
        <Tabs
          items={[
            { key: 'operates', label: t('roles.tabOperates'), children: <RoleOperatesTab role={role} readOnly={readOnly} /> },
            { key: 'menus', label: t('roles.tabMenus'), children: <RoleMenusTab role={role} readOnly={readOnly} /> },
            { key: 'projects', label: t('roles.tabProjects'), children: <RoleProjectsTab role={role} readOnly={readOnly} /> },
          ]}
        />
      )}
    </Drawer>
  );
}
