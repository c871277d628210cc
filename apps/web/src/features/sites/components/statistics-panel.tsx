/**
 * The statistics panel: devices online and offline, projects and stations, devices by type, then
 * the user's statistic cards (statistic-cards.tsx); cards 233 px high. On a project's or station's
 * page (and a device's, for its station) it counts that site only, on a client's page that
 * client's projects and their stations only, and says so in its titles.
 */
import { Card, Flex, List, Progress, Statistic, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDeviceTypeRefs } from '../../../lib/sites';
import { useGroupId } from '../../../lib/group';
import { overviewQueryOptions, projectPageQueryOptions } from '../api/projects-api';
import { typeName } from '../../../components/sites/device-type-label';
import { STAT_CARD_HEIGHT, StatisticCards } from './statistic-cards';

/** The site whose numbers the panel shows. */
export interface StatisticsSite {
  Id: number;
  Name: string;
  ProjectKind: 'client' | 'project' | 'station';
  SitesNum: number;
}

/** The client whose numbers the panel shows (its page). */
export interface StatisticsClient {
  Id: number;
  Name: string;
}

export function StatisticsPanel({ site, client }: { site?: StatisticsSite | undefined; client?: StatisticsClient | undefined }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const g = useGroupId();
  const scope = { projectId: site?.Id ?? 0, clientId: site ? 0 : (client?.Id ?? 0) };
  const of = scope.clientId > 0 ? { ClientId: scope.clientId } : {};
  const overview = useQuery(overviewQueryOptions(g, scope));
  const projects = useQuery({
    ...projectPageQueryOptions(g, 'project', { PageNo: 1, PageSize: 1, ...of }),
    enabled: g > 0 && !site,
  });
  const stations = useQuery({
    ...projectPageQueryOptions(g, 'station', { PageNo: 1, PageSize: 1, ...of }),
    enabled: g > 0 && !site,
  });
  const name = site?.Name ?? client?.Name;
  const types = useDeviceTypeRefs();
  const o = overview.data;
  const percent = o && o.Num > 0 ? Math.floor((o.OnlineNum / o.Num) * 100) : 0;
  const cardStyles = {
    body: { height: STAT_CARD_HEIGHT - 56, overflow: 'auto' },
  };
  return (
    <div className="sluice-home-stats">
      {name !== undefined && (
        <Typography.Title level={2} className="sluice-home-stats-site" style={{ fontSize: 15, margin: 0 }}>
          {t('home.stats.of', { name })}
        </Typography.Title>
      )}
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
      <Card title={site ? t('home.stats.site') : t('home.stats.sites')} className="sluice-stat-card" styles={cardStyles}>
        <Flex gap={16} justify="space-around" wrap style={{ paddingTop: 24 }}>
          {!site && <Statistic title={t('menu.projects')} value={projects.data?.count ?? 0} loading={projects.isPending} />}
          {(!site || site.ProjectKind !== 'station') && (
            <Statistic
              title={t('menu.stations')}
              value={site ? site.SitesNum : (stations.data?.count ?? 0)}
              loading={!site && stations.isPending}
            />
          )}
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
              <Typography.Text ellipsis={{ tooltip: typeName(types.data, row.TypeId, t) }} style={{ maxWidth: '60%' }}>
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
      <StatisticCards scope={scope} />
    </div>
  );
}
