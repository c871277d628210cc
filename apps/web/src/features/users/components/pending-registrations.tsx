/**
 * Registrations waiting for the group's administrator (spec §7 user/Register: an inactive
 * account): each applicant with Activate (status normal: the applicant can sign in) and Refuse
 * (asked first; the registration is deleted, so the account name is free again). Shown above the
 * user list to those who manage users, only while someone waits.
 */
import { App, Button, Card, List, Space, Typography } from 'antd';
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_STATUS } from '@sluice/shared/account.schema';
import type { UserListItem } from '@sluice/shared/user-admin.schema';
import { api } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/dates';
import { errorMessage } from '../../../lib/form-errors';
import { setUserStatus, userKeys } from '../api/users-api';

const pendingKey = [...userKeys.all, 'pending'] as const;

export function PendingRegistrations() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const pending = useQuery({
    queryKey: pendingKey,
    queryFn: async () => (await api.get<UserListItem[]>('/user', { Status: USER_STATUS.inactive, PageSize: 100 })).data,
  });
  const done = async (text: string) => {
    void message.success(text);
    await client.invalidateQueries({ queryKey: userKeys.all });
  };
  const activate = useMutation({
    mutationFn: (user: UserListItem) => setUserStatus({ Id: user.Id, Status: USER_STATUS.normal }),
    onSuccess: (_res, user) => done(t('registrations.activated', { name: user.Account })),
    onError: (error) => void message.error(errorMessage(error)),
  });
  const refuse = useMutation({
    mutationFn: (user: UserListItem) => api.delete<null>(`/user/${String(user.Id)}`),
    onSuccess: (_res, user) => done(t('registrations.refused', { name: user.Account })),
    onError: (error) => void message.error(errorMessage(error)),
  });
  const rows = pending.data ?? [];
  if (rows.length === 0) return null;
  const confirmRefuse = (user: UserListItem) => {
    modal.confirm({
      title: t('registrations.refuseTitle', { name: user.Account }),
      content: t('registrations.refuseContent'),
      okText: t('registrations.refuse'),
      okButtonProps: { danger: true },
      onOk: () => refuse.mutateAsync(user),
    });
  };
  return (
    <Card title={t('registrations.title', { count: rows.length })} role="region" aria-label={t('registrations.region')}>
      <Typography.Paragraph type="secondary">{t('registrations.hint')}</Typography.Paragraph>
      <List
        dataSource={rows}
        rowKey="Id"
        renderItem={(user) => (
          <List.Item
            actions={[
              <Button
                key="activate"
                type="primary"
                size="small"
                icon={<CheckOutlined aria-hidden />}
                aria-label={t('registrations.activateOf', { name: user.Account })}
                loading={activate.isPending && activate.variables.Id === user.Id}
                onClick={() => {
                  activate.mutate(user);
                }}
              >
                {t('registrations.activate')}
              </Button>,
              <Button
                key="refuse"
                danger
                size="small"
                icon={<CloseOutlined aria-hidden />}
                aria-label={t('registrations.refuseOf', { name: user.Account })}
                onClick={() => {
                  confirmRefuse(user);
                }}
              >
                {t('registrations.refuse')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space size={8} wrap>
                  <span>{user.Account}</span>
                  <Typography.Text type="secondary">{user.UserName}</Typography.Text>
                </Space>
              }
              description={[user.Phone, user.Email, t('registrations.at', { time: formatDateTime(user.CreatedAt) })]
                .filter(Boolean)
                .join(' · ')}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
