/** The statistics panel: devices online and offline, projects and stations, devices by type; cards 233 px high. */
import { Card, Flex, List, Progress, Statistic, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDeviceTypeRefs } from '../../../lib/sites';
import { useGroupId } from '../../../lib/group';
import { overviewQueryOptions, projectPageQueryOptions } from '../api/projects-api';
import { typeName } from '../../../components/sites/device-type-label';

export const STAT_CARD_HEIGHT = 233;

export function StatisticsPanel() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const g = useGroupId();
  const overview = useQuery(overviewQueryOptions(g));
  const projects = useQuery(projectPageQueryOptions(g, 'project', { PageNo: 1, PageSize: 1 }));
  const stations = useQuery(projectPageQueryOptions(g, 'station', { PageNo: 1, PageSize: 1 }));
  const types = useDeviceTypeRefs();
  const o = overview.data;
  const percent = o && o.Num > 0 ? Math.floor((o.OnlineNum / o.Num) * 100) : 0;
  const cardStyles = {
    body: { height: STAT_CARD_HEIGHT - 56, overflow: 'auto' },
  };
  return (
    <div className="sluice-home-stats">
      <Card title={t('home.stats.devices')} className="sluice-stat-card" styles={cardStyles} loading={overview.isPending}>
        <Flex align="center" gap={16} justify="space-around">
          <Progress
            type="dashboard"
            percent={percent}
            size={112}
            strokeColor={token.colorSuccess}
            format={(p) => <span aria-hidden>{`${String(p ?? 0)}%`}</span>}
            aria-label={t('home.stats.onlineRate', { percent })}
          />
          <Flex vertical gap={8}>
            <Statistic
              title={t('home.stats.online')}
              value={o?.OnlineNum ?? 0}
              styles={{ content: { color: token.colorSuccess } }}
            />
            <Statistic
              title={t('home.stats.offline')}
              value={o?.OfflineNum ?? 0}
              styles={{ content: { color: token.colorTextSecondary } }}
            />
          </Flex>
        </Flex>
      </Card>
      <Card title={t('home.stats.sites')} className="sluice-stat-card" styles={cardStyles}>
        <Flex gap={16} justify="space-around" wrap style={{ paddingTop: 24 }}>
          <Statistic title={t('menu.projects')} value={projects.data?.count ?? 0} loading={projects.isPending} />
          <Statistic title={t('menu.stations')} value={stations.data?.count ?? 0} loading={stations.isPending} />
          <Statistic title={t('menu.devices')} value={o?.Num ?? 0} loading={overview.isPending} />
        </Flex>
      </Card>
      <Card title={t('home.stats.byType')} className="sluice-stat-card" styles={cardStyles}>
        <List
          size="small"
          dataSource={o?.TypeData ?? []}
          locale={{ emptyText: t('common.empty') }}
          renderItem={(row) => (
            <List.Item>
              <Typography.Text ellipsis style={{ maxWidth: '60%' }}>
                {typeName(types.data, row.TypeId, t)}
              </Typography.Text>
              <Typography.Text type="secondary">
                {t('sites.counts.onlineOf', {
                  online: row.OnlineNum,
                  total: row.Num,
                })}
              </Typography.Text>
            </List.Item>
          )}
        />
      </Card>
    </div>
  );
}
