/**
 * The home page's list panel: projects (or stations) with search and "load more"; a project shows
 * its stations, a station its devices, a device its facts, each with a breadcrumb and Back to the
 * parent (project → station → device). A station's devices and a device's node come from the
 * devices feature (`DeviceNodes`, given by the app).
 */
import { Fragment, useState, type ReactNode } from 'react';
import { Button, Flex, Input, List, Segmented, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../../components/query-state';
import { ChildrenHeading, ListPanelHeader, ListPanelItem } from '../../../components/sites/list-panel';
import { SiteStateTag } from '../../../components/sites/state-tag';
import { api } from '../../../lib/api-client';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { HOME_PATH, homePath } from '../../../lib/paths';
import { normalizeSearch, sitesKeys } from '../../../lib/sites';
import { projectInfoQueryOptions, type ProjectDto, type ProjectPage, type SiteKind } from '../api/projects-api';
import { ClientNode } from './client-view';
import { ProjectFormDialog } from './project-form-dialog';

/** What the list panel shows of devices, from the devices feature (the app composes them). */
export interface DeviceNodes {
  /** A station's devices, below its header. */
  stationDevices: (stationId: number) => ReactNode;
  /** A device's node. */
  device: (sn: string) => ReactNode;
}

const PAGE = 20;

function SiteItem({ site }: { site: ProjectDto }) {
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
          {kind === 'project' ? `${t('sites.counts.stationsN', { n: site.SitesNum })} · ` : ''}
          {t('sites.counts.devicesN', { n: site.DeviceNum })} ·{' '}
          {t('sites.counts.onlineOf', {
            online: site.OnlineNum,
            total: site.DeviceNum,
          })}
        </>
      }
    />
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
        {query.isError || query.isPending ? '' : t('sites.list.total', { count: total })}
      </Typography.Text>
      <QueryState query={query} empty={rows.length === 0}>
        <List dataSource={rows} rowKey="Id" renderItem={(site) => <SiteItem site={site} />} />
      </QueryState>
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

function ProjectNode({ id }: { id: number }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('project.manage');
  const info = useQuery(projectInfoQueryOptions(g, id));
  const [adding, setAdding] = useState(false);
  const openAdd = () => {
    setAdding(true);
  };
  const data = info.data;
  if (!data) return <QueryState query={info} empty notFoundText={t('home.projectGone')} />;
  return (
    <Flex vertical gap={12}>
      <ListPanelHeader
        crumbs={[{ key: 'p', label: data.Name }]}
        back={HOME_PATH}
        title={data.Name}
        extra={<SiteStateTag site={data} />}
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

function StationNode({ id, devices }: { id: number; devices: DeviceNodes['stationDevices'] }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const info = useQuery(projectInfoQueryOptions(g, id));
  const data = info.data;
  if (!data) return <QueryState query={info} empty notFoundText={t('home.stationGone')} />;
  const parent = data.ParentId > 0 ? homePath('project', data.ParentId) : HOME_PATH;
  return (
    <Flex vertical gap={12}>
      <ListPanelHeader
        crumbs={[
          ...(data.ParentId > 0 ? [{ key: 'p', label: data.ParentName ?? '', to: parent }] : []),
          { key: 's', label: data.Name },
        ]}
        back={parent}
        title={data.Name}
        extra={<SiteStateTag site={data} />}
      />
      {devices(id)}
    </Flex>
  );
}

export function SitesBrowser({
  title,
  itemId,
  devices,
}: {
  title: string | undefined;
  itemId: string | undefined;
  devices: DeviceNodes;
}) {
  const id = Number(itemId);
  if (title === 'client' && id > 0) return <ClientNode key={id} id={id} />;
  if (title === 'project' && id > 0) return <ProjectNode key={id} id={id} />;
  if (title === 'station' && id > 0) return <StationNode key={id} id={id} devices={devices.stationDevices} />;
  if (title === 'device' && itemId) return <Fragment key={itemId}>{devices.device(itemId)}</Fragment>;
  return <TopList />;
}
