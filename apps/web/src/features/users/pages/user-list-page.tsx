import { useCallback, useMemo, useState } from 'react';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { KeyOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_STATUS } from '@sluice/shared/account.schema';
import { addUserRequest, editUserRequest, USER_TYPE, type UserListItem } from '@sluice/shared/user-admin.schema';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { myInfoQueryOptions } from '../../../lib/current-user';
import type { MessageKey } from '../../../lib/i18n';
import { useMayOperate } from '../../../lib/operates';
import { matchesField } from '../../../lib/zod-form';
import { useRoleName } from '../../../lib/role-names';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { useAssignableRoles, usersResource } from '../api/users-api';
import { ResetPasswordDialog } from '../components/reset-password-dialog';
import { UserRolesDialog } from '../components/user-roles-dialog';
import { UserStatusSwitch } from '../components/user-status-switch';
import { PendingRegistrations } from '../components/pending-registrations';
import { AuditHistoryButton } from '../../../components/audit-history-button';

const EDIT_FIELDS = ['UserType', 'Remark', 'Email', 'Phone', 'UserName'] as const;

/** A user's type by name (the spec gives UserType no names; see USER_TYPE). */
export function useUserTypeName(): (type: number) => string {
  const { t } = useTranslation();
  return useCallback(
    (type: number) =>
      type === USER_TYPE.normal
        ? t('userTypes.normal')
        : type === USER_TYPE.administrator
          ? t('userTypes.administrator')
          : t('userTypes.other', { n: type }),
    [t],
  );
}

function RoleTags({ user }: { user: UserListItem }) {
  const roleName = useRoleName();
  const names = user.RoleName.split(',')
    .filter((name) => name.trim() !== '')
    .map(roleName);
  if (names.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space size={[4, 4]} wrap>
      {names.map((name, index) => (
        <Tag key={`${name}-${String(index)}`}>{name}</Tag>
      ))}
    </Space>
  );
}

function useUsersConfig(
  selfId: number | undefined,
  mayManage: boolean,
  open: { roles: (u: UserListItem) => void; password: (u: UserListItem) => void },
) {
  const { t } = useTranslation();
  const typeName = useUserTypeName();
  const roleName = useRoleName();
  const roles = useAssignableRoles(useResourceContext());
  return useMemo<ResourceTableConfig<UserListItem>>(() => {
    const isSelf = (user: UserListItem) => user.Id === selfId;
    const nameOf = (user: UserListItem) => user.UserName || user.Account;
    const selfTip = (user: UserListItem, button: React.ReactNode) =>
      isSelf(user) ? <Tooltip title={t('users.selfHint')}>{button}</Tooltip> : button;
    return {
      resource: usersResource,
      rowName: nameOf,
      search: { placeholder: 'users.searchPlaceholder' },
      addLabel: 'users.add',
      filters: [
        {
          param: 'Status',
          label: 'users.status',
          allLabel: 'users.allStatuses',
          options: [
            { value: USER_STATUS.normal, labelKey: 'userStatus.normal' },
            { value: USER_STATUS.disabled, labelKey: 'userStatus.disabled' },
            { value: USER_STATUS.inactive, labelKey: 'userStatus.inactive' },
          ],
        },
      ],
      columns: [
        {
          key: 'Account',
          title: 'users.account',
          sortKey: 'Account',
          render: (user) => (
            <Space size={6}>
              {user.Account}
              {isSelf(user) && <Tag color="blue">{t('users.you')}</Tag>}
            </Space>
          ),
        },
        { key: 'UserName', title: 'users.userName', sortKey: 'UserName' },
        { key: 'Roles', title: 'users.roles', render: (user) => <RoleTags user={user} /> },
        {
          key: 'Status',
          title: 'users.status',
          sortKey: 'Status',
          render: (user) => <UserStatusSwitch user={user} locked={isSelf(user) || !mayManage} />,
        },
        { key: 'Phone', title: 'users.phone' },
        { key: 'Email', title: 'users.email', onCards: false },
        {
          key: 'UserType',
          title: 'users.userType',
          sortKey: 'UserType',
          onCards: false,
          render: (user) => typeName(user.UserType),
        },
        {
          key: 'CreatedAt',
          title: 'users.createdAt',
          sortKey: 'CreatedAt',
          format: 'dateTime',
          onCards: false,
        },
      ],
      canEdit: (user) => !isSelf(user),
      canDelete: (user) => !isSelf(user),
      rowActions: (user) => {
        const name = nameOf(user);
        const history = <AuditHistoryButton kind="user" id={user.Id} name={name} type="link" />;
        if (!mayManage) return history;
        return (
          <>
            {history}
            {selfTip(
              user,
              <Button
                type="link"
                size="small"
                icon={<TeamOutlined aria-hidden />}
                disabled={isSelf(user)}
                aria-label={t('users.rolesOf', { name })}
                onClick={() => {
                  open.roles(user);
                }}
              >
                {t('users.roles')}
              </Button>,
            )}
            <Button
              type="link"
              size="small"
              icon={<KeyOutlined aria-hidden />}
              disabled={isSelf(user)}
              aria-label={t('users.resetPasswordOf', { name })}
              onClick={() => {
                open.password(user);
              }}
            >
              {t('users.resetPassword')}
            </Button>
          </>
        );
      },
      form: {
        createSchema: addUserRequest,
        updateSchema: editUserRequest,
        createTitle: 'users.add',
        editTitle: 'users.edit',
        initialValues: { UserType: 0 },
        fields: [
          { name: 'Account', label: 'users.account', kind: 'text', readOnlyInEdit: true, autoComplete: 'off' },
          { name: 'UserName', label: 'users.userName', kind: 'text', autoComplete: 'off' },
          { name: 'Password', label: 'users.password', kind: 'password', modes: ['create'] },
          {
            name: 'PasswordAgain',
            label: 'users.passwordAgain',
            kind: 'password',
            modes: ['create'],
            dependencies: ['Password'],
            rules: [{ required: true, message: t('rule.required') }, matchesField('Password')],
          },
          { name: 'Email', label: 'users.email', kind: 'text', autoComplete: 'off' },
          { name: 'Phone', label: 'users.phone', kind: 'text', autoComplete: 'off' },
          {
            name: 'UserType',
            label: 'users.userType',
            kind: 'radio',
            help: 'users.userTypeHelp',
            options: [
              { value: USER_TYPE.normal, labelKey: 'userTypes.normal' },
              { value: USER_TYPE.administrator, labelKey: 'userTypes.administrator' },
            ],
          },
          {
            name: 'RoleIds',
            label: 'users.rolesField',
            kind: 'select',
            multiple: true,
            modes: ['create'],
            help: 'users.rolesFieldHelp',
            options: (roles.data ?? []).map((role) => ({ value: role.Id, text: roleName(role.Name) })),
          },
          { name: 'Remark', label: 'users.remark', kind: 'textarea' },
        ],
        toBody: (values, mode) =>
          mode === 'edit'
            ? Object.fromEntries(EDIT_FIELDS.map((key) => [key, values[key] ?? '']))
            : { ...values, UserType: values.UserType ?? 0, RoleIds: values.RoleIds ?? [] },
      },
    };
  }, [selfId, mayManage, open, t, typeName, roleName, roles.data]);
}

function UsersScreen({
  titleKey,
  hint,
  registrations = false,
}: {
  titleKey: MessageKey;
  hint?: MessageKey;
  registrations?: boolean;
}) {
  const { t } = useTranslation();
  const { data: me } = useQuery(myInfoQueryOptions());
  const [rolesFor, setRolesFor] = useState<UserListItem>();
  const [passwordFor, setPasswordFor] = useState<UserListItem>();
  const open = useMemo(() => ({ roles: setRolesFor, password: setPasswordFor }), []);
  const mayManage = useMayOperate('user.manage');
  const config = useUsersConfig(me?.Id, mayManage, open);
  return (
    <>
      <ResourceTable
        config={config}
        beforeList={registrations && mayManage ? <PendingRegistrations /> : undefined}
        title={t(titleKey)}
        description={hint ? t(hint) : undefined}
        syncUrl
      />
      <UserRolesDialog
        user={rolesFor}
        onClose={() => {
          setRolesFor(undefined);
        }}
      />
      <ResetPasswordDialog
        user={passwordFor}
        onClose={() => {
          setPasswordFor(undefined);
        }}
      />
    </>
  );
}

/** /user/list: the group's users. */
export function UserListPage() {
  return <UsersScreen titleKey="routes.userList" registrations />;
}

/** /user/principals: operations staff, the same list of the group's users under its own title. */
export function PrincipalsPage() {
  return <UsersScreen titleKey="routes.principals" hint="users.principalsHint" />;
}
