/**
 * The client page (spec §2: client, project, station and device pages live under
 * /common/home/client, …): /common/home/client/{id} shows in the list panel the client's projects
 * (those with its ClientId) and, below the map, the client's record with its numbers, projects,
 * stations, devices (paged) and people (its contact and each station's persons in charge).
 */
import { Card, Collapse, Descriptions, Empty, Flex, List, Statistic, Table, Tabs, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import type { ClientDto } from '@sluice/shared/client.schema';
import { QueryState } from '../../../components/query-state';
import { ListPanelHeader, ListPanelItem } from '../../../components/sites/list-panel';
import { DeviceStateTag, SiteStateTag, type DeviceStateFacts } from '../../../components/sites/state-tag';
import { api, fetchAllPages, isApiError } from '../../../lib/api-client';
import { useGroupId } from '../../../lib/group';
import { usePageName } from '../../../lib/page-name';
import { HOME_PATH, homePath } from '../../../lib/paths';
import { sitesKeys } from '../../../lib/sites';
import type { ProjectDto } from '../api/projects-api';
import { PrincipalsPanel } from './principals-panel';

interface ClientDevice extends DeviceStateFacts {
  Id: number;
  DeviceName: string;
  ProjectName: string | null;
  ParentProjectName: string | null;
}

const DEVICE_PAGE = 10;

/** GET Client/Get?id: a user without client.view reads no record (the page still shows what they reach). */
export function useClient(id: number) {
  return useQuery({
    queryKey: ['clients', 'one', id],
    queryFn: async () => {
      try {
        return (await api.get<ClientDto>('/Client/Get', { id })).data;
      } catch (error) {
        if (isApiError(error) && error.status === 403) return null;
        throw error;
      }
    },
    enabled: id > 0,
  });
}

/** The client's projects and stations the caller reaches, whole. */
function useClientSites(id: number) {
  const g = useGroupId();
  return useQuery({
    queryKey: sitesKeys.projects({ g, ClientId: id }),
    meta: { live: true },
    queryFn: () => fetchAllPages<ProjectDto>(`/${String(g)}/project`, { ClientId: id }),
    enabled: g > 0 && id > 0,
  });
}

function SiteLine({ site }: { site: ProjectDto }) {
  const { t } = useTranslation();
  const kind = site.ProjectKind === 'station' ? 'station' : 'project';
  return (
    <ListPanelItem
      to={homePath(kind, site.Id)}
      data={{ 'data-site-id': site.Id }}
      name={site.Name}
      state={<SiteStateTag site={site} />}
      details={
        <>
          {kind === 'project' ? `${t('sites.counts.stationsN', { n: site.SitesNum })} · ` : `${site.ParentName ?? ''} · `}
          {t('sites.counts.onlineOf', { online: site.OnlineNum, total: site.DeviceNum })}
        </>
      }
    />
  );
}

/** The list panel of a client's page: its projects. */
export function ClientNode({ id }: { id: number }) {
  const { t } = useTranslation();
  const client = useClient(id);
  const sites = useClientSites(id);
  const projects = (sites.data ?? []).filter((s) => s.ProjectKind === 'project');
  const name = client.data?.ClientName ?? t('client.title');
  usePageName(client.data?.ClientName);
  return (
    <Flex vertical gap={12}>
      <ListPanelHeader crumbs={[{ key: 'c', label: name }]} back={HOME_PATH} title={name} />
      <Typography.Title level={3} style={{ fontSize: 15, margin: 0 }}>
        {t('client.projectsOf', { count: projects.length })}
      </Typography.Title>
      <QueryState query={sites} empty={projects.length === 0} emptyText={t('client.noProjects')}>
        <List dataSource={projects} rowKey="Id" renderItem={(site) => <SiteLine site={site} />} />
      </QueryState>
    </Flex>
  );
}

function ClientDevices({ id }: { id: number }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const [page, setPage] = useState(1);
  const devices = useQuery({
    queryKey: sitesKeys.devices({ g, ClientId: id, PageNo: page }),
    meta: { live: true },
    queryFn: async () => {
      const res = await api.get<ClientDevice[]>(`/${String(g)}/Device/MyDevice`, {
        ClientId: id,
        PageNo: page,
        PageSize: DEVICE_PAGE,
      });
      return { rows: res.data, count: res.count ?? res.data.length };
    },
    enabled: g > 0,
  });
  return (
    <QueryState query={devices} empty={devices.data?.count === 0} emptyText={t('client.noDevices')}>
      <Table<ClientDevice>
        size="small"
        rowKey="DeviceSn"
        dataSource={devices.data?.rows ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: page,
          pageSize: DEVICE_PAGE,
          total: devices.data?.count ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        columns={[
          {
            key: 'name',
            title: t('client.device'),
            render: (_, d) => <Link to={homePath('device', d.DeviceSn)}>{d.DeviceName || d.DeviceSn}</Link>,
          },
          { key: 'sn', title: t('client.deviceSn'), dataIndex: 'DeviceSn' },
          {
            key: 'site',
            title: t('client.site'),
            render: (_, d) =>
              [...new Set([d.ParentProjectName, d.ProjectName].filter((n): n is string => Boolean(n)))].join(' / ') || '—',
          },
          { key: 'state', title: t('client.state'), render: (_, d) => <DeviceStateTag device={d} /> },
        ]}
      />
    </QueryState>
  );
}

function ClientPeople({ client, stations }: { client: ClientDto | null | undefined; stations: ProjectDto[] }) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={12}>
      {client && (
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 3 }}
          title={t('client.contact')}
          items={[
            { key: 'linkman', label: t('clients.linkman'), children: client.Linkman || '—' },
            { key: 'mobile', label: t('clients.mobile'), children: client.Mobile || '—' },
            { key: 'telephone', label: t('clients.telephone'), children: client.Telephone || '—' },
          ]}
        />
      )}
      <Typography.Title level={4} style={{ fontSize: 14, margin: 0 }}>
        {t('client.principals')}
      </Typography.Title>
      {stations.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('client.noStations')} />
      ) : (
        <Collapse
          size="small"
          items={stations.map((station) => ({
            key: String(station.Id),
            label: station.Name,
            children: <PrincipalsPanel kind="station" id={station.Id} />,
          }))}
        />
      )}
    </Flex>
  );
}

/** Below the map on a client's page: the record, its numbers and its projects, stations, devices and people. */
export function ClientCard({ id }: { id: number }) {
  const { t } = useTranslation();
  const client = useClient(id);
  const sites = useClientSites(id);
  const all = sites.data ?? [];
  const projects = all.filter((s) => s.ProjectKind === 'project');
  const stations = all.filter((s) => s.ProjectKind === 'station');
  // A project's counts include its stations' devices: sum the projects, and stations outside them.
  const projectIds = new Set(projects.map((p) => p.Id));
  const counted = [...projects, ...stations.filter((s) => !projectIds.has(s.ParentId))];
  const total = counted.reduce((n, s) => n + s.DeviceNum, 0);
  const online = counted.reduce((n, s) => n + s.OnlineNum, 0);
  const warning = counted.reduce((n, s) => n + s.WarningNum, 0);
  const c = client.data;
  return (
    <Card title={t('client.details')}>
      <Tabs
        className="sluice-wrap-tabs"
        items={[
          {
            key: 'overview',
            label: t('home.tabs.overview'),
            children: (
              <Flex vertical gap={16}>
                <QueryState query={client} empty={false}>
                  {c ? (
                    <Descriptions
                      size="small"
                      column={{ xs: 1, sm: 2 }}
                      items={[
                        { key: 'name', label: t('clients.clientName'), children: c.ClientName },
                        { key: 'sn', label: t('clients.clientSn'), children: c.ClientSn || '—' },
                        { key: 'address', label: t('clients.address'), children: c.Address || '—' },
                        { key: 'description', label: t('clients.description'), children: c.Description || '—' },
                      ]}
                    />
                  ) : (
                    <Typography.Text type="secondary">{t('client.noRecord')}</Typography.Text>
                  )}
                </QueryState>
                <Flex gap={24} wrap role="group" aria-label={t('client.numbers')}>
                  <Statistic title={t('menu.projects')} value={projects.length} loading={sites.isPending} />
                  <Statistic title={t('sites.counts.stations')} value={stations.length} loading={sites.isPending} />
                  <Statistic title={t('sites.counts.devices')} value={total} loading={sites.isPending} />
                  <Statistic title={t('home.stats.online')} value={online} loading={sites.isPending} />
                  <Statistic title={t('home.stats.offline')} value={total - online} loading={sites.isPending} />
                  <Statistic title={t('client.warnings')} value={warning} loading={sites.isPending} />
                </Flex>
              </Flex>
            ),
          },
          {
            key: 'projects',
            label: t('client.projectsTab', { count: projects.length }),
            children: (
              <QueryState query={sites} empty={projects.length === 0} emptyText={t('client.noProjects')}>
                <List dataSource={projects} rowKey="Id" renderItem={(site) => <SiteLine site={site} />} />
              </QueryState>
            ),
          },
          {
            key: 'stations',
            label: t('client.stationsTab', { count: stations.length }),
            children: (
              <QueryState query={sites} empty={stations.length === 0} emptyText={t('client.noStations')}>
                <List dataSource={stations} rowKey="Id" renderItem={(site) => <SiteLine site={site} />} />
              </QueryState>
            ),
          },
          { key: 'devices', label: t('client.devicesTab'), children: <ClientDevices id={id} /> },
          { key: 'people', label: t('client.peopleTab'), children: <ClientPeople client={c} stations={stations} /> },
        ]}
      />
    </Card>
  );
}
