import { Card, Col, Descriptions, Result, Row, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_STATUS, type UserDto } from '@sluice/shared/account.schema';
import { PageSpinner } from '../../../components/spinners';
import { errorMessage } from '../../../lib/form-errors';
import { myInfoQueryOptions } from '../../../lib/current-user';
import { AvatarCard } from '../components/avatar-card';
import { ChangePasswordForm } from '../components/change-password-form';
import { GroupCard } from '../components/group-card';
import { ProfileForm } from '../components/profile-form';

function StatusTag({ status }: { status: UserDto['Status'] }) {
  const { t } = useTranslation();
  if (status === USER_STATUS.normal) return <Tag color="success">{t('userStatus.normal')}</Tag>;
  if (status === USER_STATUS.disabled) return <Tag color="error">{t('userStatus.disabled')}</Tag>;
  return <Tag color="warning">{t('userStatus.inactive')}</Tag>;
}

/** /common/user/info: own account, avatar, profile, password and group. */
export function UserInfoPage() {
  const { t } = useTranslation();
  const { data: user, isPending, error } = useQuery(myInfoQueryOptions());

  if (isPending) return <PageSpinner />;
  if (!user) return <Result status="error" title={errorMessage(error)} />;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 20, margin: 0 }}>
        {t('routes.userInfo')}
      </Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card title={t('userInfo.accountCard')}>
            <Descriptions
              column={1}
              items={[
                { key: 'account', label: t('userInfo.account'), children: user.Account },
                { key: 'group', label: t('userInfo.group'), children: user.GroupName },
                {
                  key: 'roles',
                  label: t('userInfo.roles'),
                  children:
                    user.Roles.length > 0 ? (
                      <Space size={[4, 4]} wrap>
                        {user.Roles.map((role) => (
                          <Tag key={role.Id} color={role.IsAdmin ? 'green' : undefined}>
                            {role.Name}
                          </Tag>
                        ))}
                      </Space>
                    ) : (
                      <Typography.Text type="secondary">{t('userInfo.noRoles')}</Typography.Text>
                    ),
                },
                { key: 'status', label: t('userInfo.status'), children: <StatusTag status={user.Status} /> },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('avatar.card')}>
            <AvatarCard user={user} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('userInfo.profileCard')}>
            <ProfileForm user={user} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('userInfo.passwordCard')}>
            <ChangePasswordForm idPrefix="user-info-password" />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('userInfo.groupCard')}>
            <GroupCard isAdmin={user.IsAdmin} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
