/**
 * The home page's list panel: projects (or stations) with search and "load more"; a project shows
 * its stations, a station its devices, a device its facts, each with a breadcrumb and Back to the
 * parent (project → station → device).
 */
import { useState, type ReactNode } from 'react';
import { Breadcrumb, Button, Empty, Flex, Input, List, Segmented, Skeleton, Typography } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, EditOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { HOME_PATH } from '../../../lib/paths';
import { deviceQueryOptions, projectDevicesQueryOptions, useDeviceTypes, type DeviceDto } from '../api/devices-api';
import { useGroupId } from '../api/group';
import { normalizeSearch, projectInfoQueryOptions, type ProjectDto, type ProjectPage, type SiteKind } from '../api/projects-api';
import { sitesKeys } from '../api/sites-keys';
import { useDeviceActions } from './device-actions';
import { DeviceFacts } from './device-card';
import { DeviceFormDialog } from './device-form-dialog';
import { ProjectFormDialog } from './project-form-dialog';
import { DeviceStateTag, StateTag } from './state-tag';
import { useMayOperate } from '../../../lib/operates';
import './site-items.css';

export const homePath = (kind: 'project' | 'station' | 'device', id: string | number) => `${HOME_PATH}/${kind}/${String(id)}`;

const PAGE = 20;

function SiteItem({ site }: { site: ProjectDto }) {
  const { t } = useTranslation();
  const kind = site.ProjectKind === 'station' ? 'station' : 'project';
  return (
    <List.Item style={{ paddingInline: 4 }}>
      <Link to={homePath(kind, site.Id)} className="sluice-home-item" data-site-id={site.Id}>
        <Flex justify="space-between" gap={8} align="center">
          <Typography.Text strong ellipsis>
            {site.Name}
          </Typography.Text>
          <StateTag online={site.Online} />
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {kind === 'project' ? `${t('sites.counts.stationsN', { n: site.SitesNum })} · ` : ''}
          {t('sites.counts.devicesN', { n: site.DeviceNum })} ·{' '}
          {t('sites.counts.onlineOf', {
            online: site.OnlineNum,
            total: site.DeviceNum,
          })}
        </Typography.Text>
      </Link>
    </List.Item>
  );
}

function DeviceItem({ device }: { device: DeviceDto }) {
  return (
    <List.Item style={{ paddingInline: 4 }}>
      <Link to={homePath('device', device.DeviceSn)} className="sluice-home-item" data-device-sn={device.DeviceSn}>
        <Flex justify="space-between" gap={8} align="center">
          <Typography.Text strong ellipsis>
            {device.DeviceName}
          </Typography.Text>
          <DeviceStateTag sn={device.DeviceSn} online={device.Online} />
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {device.DeviceSn}
        </Typography.Text>
      </Link>
    </List.Item>
  );
}

function TopList() {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('project.manage');
  const [kind, setKind] = useState<SiteKind>('project');
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const query = useInfiniteQuery({
    queryKey: sitesKeys.projectPage(kind, {
      g,
      Search: search,
      infinite: true,
    }),
    queryFn: async ({ pageParam }) =>
      (
        await api.get<ProjectPage>(`/${String(g)}/project/${kind === 'project' ? 'myProject' : 'mySite'}`, {
          PageNo: pageParam,
          PageSize: PAGE,
          Search: normalizeSearch(search),
        })
      ).data,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.currentPage < last.totalPage ? last.currentPage + 1 : undefined),
    enabled: g > 0,
  });
  const rows = query.data?.pages.flatMap((p) => p.data) ?? [];
  const total = query.data?.pages[0]?.count ?? 0;
  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" gap={8} wrap>
        <Segmented<SiteKind>
          aria-label={t('home.listKind')}
          value={kind}
          onChange={(value) => {
            setKind(value);
          }}
          options={[
            { value: 'project', label: t('menu.projects') },
            { value: 'station', label: t('menu.stations') },
          ]}
        />
        {mayManage && (
          <Button
            icon={<PlusOutlined />}
            onClick={() => {
              setAdding(true);
            }}
          >
            {kind === 'project' ? t('sites.form.newProject') : t('sites.form.newStation')}
          </Button>
        )}
      </Flex>
      <Input.Search allowClear placeholder={t('sites.list.search')} aria-label={t('sites.list.search')} onSearch={setSearch} />
      <Typography.Text type="secondary" aria-live="polite">
        {t('sites.list.total', { count: total })}
      </Typography.Text>
      {query.isPending ? (
        <Skeleton active />
      ) : (
        <List
          dataSource={rows}
          rowKey="Id"
          renderItem={(site) => <SiteItem site={site} />}
          locale={{ emptyText: <Empty description={t('common.empty')} /> }}
        />
      )}
      {query.hasNextPage && (
        <Button
          block
          loading={query.isFetchingNextPage}
          onClick={() => {
            void query.fetchNextPage();
          }}
        >
          {t('home.loadMore')}
        </Button>
      )}
      <ProjectFormDialog
        kind={kind}
        open={adding}
        onClose={() => {
          setAdding(false);
        }}
      />
    </Flex>
  );
}

interface Crumb {
  key: string;
  label: string;
  to?: string;
}

function Header({
  crumbs,
  back,
  title,
  extra,
}: {
  /** The way here after "All projects". */
  crumbs: Crumb[];
  back: string;
  title: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Flex vertical gap={8}>
      <nav aria-label={t('home.location')}>
        <Breadcrumb
          items={[{ key: 'all', label: t('home.allProjects'), to: HOME_PATH }, ...crumbs].map((c) => ({
            key: c.key,
            title: c.to ? <Link to={c.to}>{c.label}</Link> : c.label,
          }))}
        />
      </nav>
      <Flex align="center" gap={8}>
        <Button
          icon={<ArrowLeftOutlined />}
          aria-label={t('home.back')}
          onClick={() => {
            void navigate(back);
          }}
        >
          {t('home.back')}
        </Button>
        <Typography.Title level={2} style={{ fontSize: 18, margin: 0, flex: 1, minWidth: 0 }} ellipsis>
          {title}
        </Typography.Title>
        {extra}
      </Flex>
    </Flex>
  );
}

/** Above a node's stations or devices: their heading (with the count) and the add button. */
function ChildrenHeading({
  title,
  addLabel,
  onAdd,
}: {
  title: string;
  addLabel: string;
  /** Omit to show no add button (a user who may not). */
  onAdd?: () => void;
}) {
  return (
    <Flex justify="space-between" align="center">
      <Typography.Title level={3} style={{ fontSize: 15, margin: 0 }}>
        {title}
      </Typography.Title>
      {onAdd && (
        <Button size="small" icon={<PlusOutlined />} onClick={onAdd}>
          {addLabel}
        </Button>
      )}
    </Flex>
  );
}

function ProjectNode({ id }: { id: number }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('project.manage');
  const { data, isPending } = useQuery(projectInfoQueryOptions(g, id));
  const [adding, setAdding] = useState(false);
  const openAdd = () => {
    setAdding(true);
  };
  if (isPending) return <Skeleton active />;
  if (!data) return <Empty description={t('common.empty')} />;
  return (
    <Flex vertical gap={12}>
      <Header
        crumbs={[{ key: 'p', label: data.Name }]}
        back={HOME_PATH}
        title={data.Name}
        extra={<StateTag online={data.Online} />}
      />
      <ChildrenHeading
        title={t('home.stationsOf', { count: data.Child.length })}
        addLabel={t('sites.form.newStation')}
        onAdd={mayManage ? openAdd : undefined}
      />
      <List
        dataSource={data.Child}
        rowKey="Id"
        renderItem={(site) => <SiteItem site={site} />}
        locale={{ emptyText: t('home.noStations') }}
      />
      <ProjectFormDialog
        kind="station"
        open={adding}
        parentId={id}
        onClose={() => {
          setAdding(false);
        }}
      />
    </Flex>
  );
}

function StationNode({ id }: { id: number }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const info = useQuery(projectInfoQueryOptions(g, id));
  const devices = useQuery(projectDevicesQueryOptions(g, id));
  const [adding, setAdding] = useState(false);
  const openAdd = () => {
    setAdding(true);
  };
  if (info.isPending) return <Skeleton active />;
  const data = info.data;
  if (!data) return <Empty description={t('common.empty')} />;
  const parent = data.ParentId > 0 ? homePath('project', data.ParentId) : HOME_PATH;
  return (
    <Flex vertical gap={12}>
      <Header
        crumbs={[
          ...(data.ParentId > 0 ? [{ key: 'p', label: data.ParentName ?? '', to: parent }] : []),
          { key: 's', label: data.Name },
        ]}
        back={parent}
        title={data.Name}
        extra={<StateTag online={data.Online} />}
      />
      <ChildrenHeading
        title={t('home.devicesOf', { count: devices.data?.length ?? 0 })}
        addLabel={t('devices.form.new')}
        onAdd={mayManage ? openAdd : undefined}
      />
      <List
        loading={devices.isPending}
        dataSource={devices.data ?? []}
        rowKey="DeviceSn"
        renderItem={(device) => <DeviceItem device={device} />}
        locale={{ emptyText: t('home.noDevices') }}
      />
      <DeviceFormDialog
        open={adding}
        projectId={id}
        onClose={() => {
          setAdding(false);
        }}
      />
    </Flex>
  );
}

function DeviceNode({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const navigate = useNavigate();
  const types = useDeviceTypes();
  const { data, isPending } = useQuery(deviceQueryOptions(g, sn));
  const actions = useDeviceActions();
  if (isPending) return <Skeleton active />;
  if (!data) return <Empty description={t('home.deviceGone')} />;
  const station = data.ProjectType === 1 ? data.ProjectId : null;
  const project = data.ParentProjectId;
  const parent = station ? homePath('station', station) : project ? homePath('project', project) : HOME_PATH;
  const crumbs: Crumb[] = [];
  if (project)
    crumbs.push({
      key: 'p',
      label: data.ParentProjectName ?? '',
      to: homePath('project', project),
    });
  if (station)
    crumbs.push({
      key: 's',
      label: data.ProjectName ?? '',
      to: homePath('station', station),
    });
  crumbs.push({ key: 'd', label: data.DeviceName });
  return (
    <Flex vertical gap={12}>
      <Header
        crumbs={crumbs}
        back={parent}
        title={data.DeviceName}
        extra={<DeviceStateTag sn={data.DeviceSn} online={data.Online} />}
      />
      <DeviceFacts device={data} types={types.data} />
      {mayManage && (
        <Flex gap={8} wrap>
          <Button
            icon={<EditOutlined />}
            onClick={() => {
              actions.edit(data);
            }}
          >
            {t('sites.actions.edit')}
          </Button>
          <Button
            icon={<SwapOutlined />}
            onClick={() => {
              actions.migrate(data);
            }}
          >
            {t('devices.migrate.action')}
          </Button>
          <Button
            danger
            icon={<DeleteOutlined />}
            onClick={() => {
              actions.remove(data, () => {
                void navigate(parent);
              });
            }}
          >
            {t('sites.actions.delete')}
          </Button>
        </Flex>
      )}
      {actions.dialogs}
    </Flex>
  );
}

export function SitesBrowser({ title, itemId }: { title: string | undefined; itemId: string | undefined }) {
  const id = Number(itemId);
  if (title === 'project' && id > 0) return <ProjectNode key={id} id={id} />;
  if (title === 'station' && id > 0) return <StationNode key={id} id={id} />;
  if (title === 'device' && itemId) return <DeviceNode key={itemId} sn={itemId} />;
  return <TopList />;
}
