import { useMemo, useState } from 'react';
import { Button, Tag, Typography } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addRoleRequest, updateRoleRequest, type ModuleDto, type RoleDto } from '@sluice/shared/role.schema';
import { useMayOperate } from '../../../lib/operates';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { allModulesQueryOptions, rolesResource } from '../api/roles-api';
import { usePermissionNames } from '../components/permission-names';
import { useRoleName } from '../../../lib/role-names';
import { RolePermissionsDrawer } from '../components/role-permissions-drawer';
import { AuditHistoryButton } from '../../../components/audit-history-button';

/** /jurisdiction/role: roles, and each role's operates, menus and projects in a drawer. */
export function RoleListPage() {
  const { t } = useTranslation();
  const ctx = useResourceContext();
  const names = usePermissionNames();
  const roleName = useRoleName();
  const { data: modules } = useQuery(allModulesQueryOptions(ctx));
  const [permissionsOf, setPermissionsOf] = useState<RoleDto>();
  const mayManage = useMayOperate('role.manage');

  const moduleRows = modules?.rows;
  const config = useMemo<ResourceTableConfig<RoleDto>>(() => {
    const byId = new Map<number, ModuleDto>((moduleRows ?? []).map((module) => [module.Id, module]));
    return {
      resource: rolesResource,
      rowName: (role) => roleName(role.Name),
      search: { placeholder: 'roles.searchPlaceholder' },
      addLabel: 'roles.add',
      columns: [
        { key: 'Name', title: 'roles.name', sortKey: 'Name', render: (role) => roleName(role.Name) },
        {
          key: 'IsAdmin',
          title: 'roles.isAdmin',
          sortKey: 'IsAdmin',
          // The server's Admin is 是/否; the console shows a yes/no in the user's language.
          render: (role) => (role.IsAdmin ? <Tag color="green">{t('common.yes')}</Tag> : <Tag>{t('common.no')}</Tag>),
        },
        {
          key: 'ModuleId',
          title: 'roles.module',
          render: (role) => {
            const module = role.ModuleId === null ? undefined : byId.get(role.ModuleId);
            return module ? names.moduleName(module) : <Typography.Text type="secondary">—</Typography.Text>;
          },
        },
      ],
      rowActions: (role) => (
        <>
          <AuditHistoryButton kind="role" id={role.Id} name={roleName(role.Name)} type="link" />
          <Button
            type="link"
            size="small"
            icon={<SafetyCertificateOutlined aria-hidden />}
            aria-label={t('roles.permissionsOf', { name: roleName(role.Name) })}
            onClick={() => {
              setPermissionsOf(role);
            }}
          >
            {t('roles.permissions')}
          </Button>
        </>
      ),
      form: {
        createSchema: addRoleRequest,
        updateSchema: updateRoleRequest,
        createTitle: 'roles.add',
        editTitle: 'roles.edit',
        initialValues: { IsAdmin: false },
        fields: [
          { name: 'Name', label: 'roles.name', kind: 'text' },
          { name: 'IsAdmin', label: 'roles.isAdmin', kind: 'switch' },
          {
            name: 'ModuleId',
            label: 'roles.module',
            kind: 'select',
            placeholder: 'roles.noModule',
            options: (moduleRows ?? []).map((module) => ({ value: module.Id, text: names.moduleName(module) })),
          },
        ],
        toValues: (role) => ({ Name: role.Name, IsAdmin: role.IsAdmin, ModuleId: role.ModuleId ?? undefined }),
        toBody: (values) => ({ Name: values.Name, IsAdmin: values.IsAdmin === true, ModuleId: values.ModuleId ?? null }),
      },
    };
  }, [moduleRows, names, t, roleName]);

  return (
    <>
      <ResourceTable config={config} title={t('routes.role')} syncUrl />
      <RolePermissionsDrawer
        role={permissionsOf}
        readOnly={!mayManage}
        onClose={() => {
          setPermissionsOf(undefined);
        }}
      />
    </>
  );
}
