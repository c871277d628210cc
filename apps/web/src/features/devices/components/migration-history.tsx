import { List, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import { useGroupId } from '../../../lib/group';
import { migrationsQueryOptions } from '../api/devices-api';

/** A device's moves, newest first: from, to, who and when. */
export function MigrationHistory({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const { data = [], isPending } = useQuery(migrationsQueryOptions(g, sn));
  return (
    <List
      size="small"
      loading={isPending}
      dataSource={data}
      locale={{ emptyText: t('devices.migrate.none') }}
      aria-label={t('devices.migrate.history')}
      renderItem={(m) => (
        <List.Item>
          <div>
            <div>
              {t('devices.migrate.move', {
                from: m.FromProjectName || t('devices.unassigned'),
                to: m.ToProjectName || t('devices.unassigned'),
              })}
            </div>
            <Typography.Text type="secondary">
              {t('devices.migrate.by', {
                user: m.UserName,
                when: formatDateTime(m.CreatedAt),
              })}
            </Typography.Text>
          </div>
        </List.Item>
      )}
    />
  );
}
