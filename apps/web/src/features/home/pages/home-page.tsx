import { Alert, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageSpinner } from '../../../components/spinners';
import { myInfoQueryOptions } from '../../../lib/current-user';

/** /common/home: a welcome overview for now; the station map and panels come later. */
export function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useQuery(myInfoQueryOptions());
  if (!user) return <PageSpinner />;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Title level={1} style={{ fontSize: 22, margin: 0 }}>
        {t('home.welcome', { name: user.UserName || user.Account })}
      </Typography.Title>
      <Card>
        <Descriptions
          column={{ xs: 1, sm: 1, md: 3 }}
          items={[
            { key: 'group', label: t('home.group'), children: user.GroupName },
            { key: 'account', label: t('home.account'), children: user.Account },
            {
              key: 'roles',
              label: t('home.roles'),
              children: (
                <Space size={[4, 4]} wrap>
                  {user.IsAdmin && !user.Roles.some((role) => role.IsAdmin) && <Tag color="green">{t('home.administrator')}</Tag>}
                  {user.Roles.map((role) => (
                    <Tag key={role.Id} color={role.IsAdmin ? 'green' : undefined}>
                      {role.Name}
                    </Tag>
                  ))}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Alert type="info" showIcon title={t('home.mapComingSoon')} />
    </Space>
  );
}
