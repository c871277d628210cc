import { useState } from 'react';
import { Alert, App, Checkbox, Empty, Modal, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UserListItem } from '@sluice/shared/user-admin.schema';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { errorMessage } from '../../../lib/form-errors';
import { useRoleName } from '../../../lib/role-names';
import { useAssignableRoles, useSaveUserRoles, useUserRoles } from '../api/users-api';

function RolesForm({ user, onClose }: { user: UserListItem; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ctx = useResourceContext();
  const roles = useAssignableRoles(ctx);
  const held = useUserRoles(user.Id);
  const [picked, setPicked] = useState<number[]>();
  const save = useSaveUserRoles();
  const name = user.UserName || user.Account;
  const roleName = useRoleName();
  const selected = picked ?? held.data?.map((role) => role.Id) ?? [];

  const error = roles.error ?? held.error;
  const body = error ? (
    <Alert type="error" showIcon title={errorMessage(error)} />
  ) : !roles.data || !held.data ? (
    <Spin />
  ) : roles.data.length === 0 ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('users.noRolesDefined')} />
  ) : (
    <Checkbox.Group
      aria-label={t('users.rolesOf', { name })}
      value={selected}
      onChange={(values) => {
        setPicked(values);
      }}
      style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
    >
      {roles.data.map((role) => (
        <Checkbox key={role.Id} value={role.Id}>
          <Space size={6}>
            {roleName(role.Name)}
            {role.IsAdmin && <Tag color="green">{t('users.administratorRole')}</Tag>}
          </Space>
        </Checkbox>
      ))}
    </Checkbox.Group>
  );

  return (
    <Modal
      open
      title={t('users.rolesTitle', { name })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: !roles.data || !held.data }}
      confirmLoading={save.isPending}
      onCancel={onClose}
      onOk={() => {
        save.mutate(
          { UserId: user.Id, RoleIds: selected },
          {
            onSuccess: (response) => {
              void message.success(response.message);
              onClose();
            },
            onError: (failure) => void message.error(errorMessage(failure)),
          },
        );
      }}
      mask={{ closable: false }}
    >
      <Typography.Paragraph type="secondary">{t('users.rolesHint')}</Typography.Paragraph>
      {body}
    </Modal>
  );
}

/** A user's roles: every role of the group as a check box (GET UserRole/{id}, POST UserRole/SaveUserRole). */
export function UserRolesDialog({ user, onClose }: { user: UserListItem | undefined; onClose: () => void }) {
  return user ? <RolesForm key={user.Id} user={user} onClose={onClose} /> : null;
}
