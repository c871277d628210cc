import { App, Space, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { USER_STATUS } from '@sluice/shared/account.schema';
import type { UserListItem } from '@sluice/shared/user-admin.schema';
import { errorMessage } from '../../../lib/form-errors';
import { useSetUserStatus } from '../api/users-api';

export function UserStatusTag({ status }: { status: UserListItem['Status'] }) {
  const { t } = useTranslation();
  if (status === USER_STATUS.normal) return <Tag color="success">{t('userStatus.normal')}</Tag>;
  if (status === USER_STATUS.disabled) return <Tag color="error">{t('userStatus.disabled')}</Tag>;
  return <Tag color="warning">{t('userStatus.inactive')}</Tag>;
}

/** Enable or disable a user (PUT user/status); a disabled user is signed out at once, so disabling asks first. */
export function UserStatusSwitch({ user, locked }: { user: UserListItem; locked: boolean }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const mutation = useSetUserStatus();
  const enabled = user.Status === USER_STATUS.normal;
  const name = user.UserName || user.Account;
  return (
    <Space size={8}>
      <Switch
        size="small"
        checked={enabled}
        loading={mutation.isPending}
        disabled={locked}
        aria-label={t('users.enableSwitch', { name })}
        onChange={(checked) => {
          const save = () =>
            mutation.mutateAsync({ Id: user.Id, Status: checked ? USER_STATUS.normal : USER_STATUS.disabled }).then(
              (response) => void message.success(response.message),
              (error: unknown) => void message.error(errorMessage(error)),
            );
          if (checked) {
            void save();
            return;
          }
          void modal.confirm({
            title: t('users.disableTitle', { name }),
            content: t('users.disableContent'),
            okText: t('users.disable'),
            okButtonProps: { danger: true },
            cancelText: t('common.cancel'),
            onOk: save,
          });
        }}
      />
      <UserStatusTag status={user.Status} />
    </Space>
  );
}
