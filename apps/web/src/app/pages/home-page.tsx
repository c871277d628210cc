/**
 * /common/home/:activeTitle?/:activeItemId?: the list panel, the map with the selected item's
 * details, and the statistics panel (spec §2 home panels). Selecting in the list or on the map
 * puts the item in the URL (activeTitle project, station or device; activeItemId its id or
 * serial number).
 *
 * The home page composes features — the sites feature's lists, forms and details, the devices
 * feature's nodes and details, a device's live values, control panel and log (features/home) and active alarms (features/notices), its SIM card (features/sim)
 * and its principals (features/sites) — so it lives here, in the app layer, and the features do
 * not import each other (conventions: `components/lib ← features ← app`).
 *
 * A device's page leads with the device: its name, state and Back, its active alarms, then its
 * panels on their grid (device-dashboard.tsx: values, alarms, facts, images, the map), then its
 * details in tabs. The statistics panel counts the project or
 * station shown (a device's station), not the whole tenant.
 */
import { Fragment, Suspense, useCallback, useMemo, useState } from 'react';
import { Flex, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { parsePosition } from '@sluice/shared/geo.schema';
import { ClusterMap, type MapView } from '../../components/map/cluster-map';
import { withLiveStates } from '../../components/map/live-states';
import { useLiveStates } from '../../lib/live/live-hooks';
import type { MapPoint } from '../../components/map/map-types';
import { useMapConfig } from '../../lib/client-config';
import { useBrowserPosition } from '../../lib/use-browser-position';
import { useGroupId } from '../../lib/group';
import { homePath } from '../../lib/paths';
import { usePageName } from '../../lib/page-name';
import { useAllProjects } from '../../lib/sites';
import { DeviceDetails, type OwnDeviceTabs } from '../../features/devices/components/device-details';
import { DeviceHeadline } from '../../features/devices/components/device-headline';
import { DeviceNode, StationDevices } from '../../features/devices/components/device-nodes';
import { deviceQueryOptions, type DeviceDto } from '../../features/devices/api/devices-api';
import { DeviceLogTable } from '../../features/home/components/device-log-table';
import { withDeviceTypesCatalog } from '../../lib/feature-catalogs';
import { lazyComponent } from '../../lib/lazy-page';
import { DeviceAlarms } from '../../features/notices/components/device-alarms';
import { DeviceCardTab } from '../../features/sim/components/device-card-tab';
import { Hj212LoggerTab } from '../../features/hj212/components/hj212-logger-tab';
import { deviceMapQueryOptions } from '../../features/sites/api/map-api';
import { projectInfoQueryOptions } from '../../features/sites/api/projects-api';
import { AddressSearch, type SearchTarget } from '../../features/sites/components/address-search';
import { PrincipalsPanel } from '../../features/sites/components/principals-panel';
import { SiteDetails } from '../../features/sites/components/site-details';
import { SitesBrowser, type DeviceNodes } from '../../features/sites/components/sites-browser';
import { StatisticsPanel } from '../../features/sites/components/statistics-panel';
import { useClient } from '../../features/sites/components/client-view';
import './home-page.css';

/** The control panel checks values with the data-type rules, whose messages come with the device-types catalog. */
const ControlPanel = lazyComponent(
  withDeviceTypesCatalog(() => import('../../features/home/components/control/control-panel').then((m) => m.ControlPanel)),
);
/** The device's panels on their grid, with the grid library, only on a device's page. */
const DeviceDashboard = lazyComponent(() => import('./device-dashboard').then((m) => m.DeviceDashboard));
/** The Video tab brings the camera panel (and, when a camera plays, hls.js) only when opened. */
const VideoPanel = lazyComponent(() => import('../../features/video/components/video-panel').then((m) => m.VideoPanel));
/** The History tab brings ECharts with it, only when opened. */
/** Field records load with their tab. */
const QualityTable = lazyComponent(() => import('../../features/records/components/quality-table').then((m) => m.QualityTable));
const RepairTable = lazyComponent(() => import('../../features/records/components/repair-table').then((m) => m.RepairTable));
const StationRecords = lazyComponent(() =>
  import('../../features/records/components/station-records').then((m) => m.StationRecords),
);
const recordsFallback = <Skeleton active paragraph={{ rows: 4 }} />;

const HistoryPanel = lazyComponent(() =>
  import('../../features/home/components/history/history-panel').then((m) => m.HistoryPanel),
);

function Legend() {
  const { t } = useTranslation();
  const dot = (color: string, square = false) => (
    <span
      aria-hidden
      style={{
        display: 'inline-block',
        width: 10,
        height: 10,
        borderRadius: square ? 3 : '50%',
        background: color,
        marginInlineEnd: 4,
      }}
    />
  );
  return (
    <Flex gap={12} wrap className="sluice-home-legend" aria-label={t('map.legend')} role="group">
      <span>
        {dot('var(--sluice-brand)')}
        {t('map.state.online')}
      </span>
      <span>
        {dot('var(--sluice-warning)')}
        {t('map.state.warning')}
      </span>
      <span>
        {dot('var(--sluice-offline)')}
        {t('map.state.offline')}
      </span>
      <span>
        {dot('currentColor', true)}
        {t('map.station')}
      </span>
    </Flex>
  );
}

const deviceNodes: DeviceNodes = {
  stationDevices: (stationId) => <StationDevices stationId={stationId} />,
  device: (sn) => <DeviceNode sn={sn} />,
};

export function HomePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { activeTitle, activeItemId } = useParams();
  const g = useGroupId();
  const { config } = useMapConfig();
  const you = useBrowserPosition();
  const { data: fetchedPoints } = useQuery(deviceMapQueryOptions());
  const liveStates = useLiveStates(500);
  const points = useMemo(() => fetchedPoints && withLiveStates(fetchedPoints, liveStates), [fetchedPoints, liveStates]);
  const sites = useAllProjects(g);
  const [search, setSearch] = useState<{ view: MapView; label: string }>();

  const selectedKey =
    activeTitle === 'station' ? `s:${activeItemId ?? ''}` : activeTitle === 'device' ? `d:${activeItemId ?? ''}` : undefined;
  const point = points?.find((p) => p.key === selectedKey);
  const projectId = activeTitle === 'project' ? Number(activeItemId) : 0;
  const project = useQuery({ ...projectInfoQueryOptions(g, projectId), enabled: projectId > 0 && g > 0 });
  const projectAt = parsePosition(projectId > 0 ? project.data?.Position : undefined);
  // The project, station or device shown names the page (the tab and the breadcrumb); the same
  // calls as the list panel's, so answered from its cache.
  const nodeId = activeTitle === 'project' || activeTitle === 'station' ? Number(activeItemId) : 0;
  const node = useQuery({ ...projectInfoQueryOptions(g, nodeId), enabled: nodeId > 0 && g > 0 });
  const sn = activeTitle === 'device' ? (activeItemId ?? '') : '';
  const device = useQuery({ ...deviceQueryOptions(g, sn), enabled: sn !== '' && g > 0 });
  usePageName(sn ? device.data?.DeviceName || (device.data ? sn : undefined) : nodeId > 0 ? node.data?.Name : undefined);
  // The numbers of the site shown: the project or station, or the device's station (or project).
  const deviceSiteId = device.data?.ProjectId ?? 0;
  const deviceSite = useQuery({ ...projectInfoQueryOptions(g, deviceSiteId), enabled: deviceSiteId > 0 && g > 0 });
  const statsSite = sn ? (deviceSiteId > 0 ? deviceSite.data : undefined) : nodeId > 0 ? node.data : undefined;
  // On a client's page, the client's numbers (named as its record, or "Client" to those who may not read it).
  const clientId = activeTitle === 'client' ? Number(activeItemId) : 0;
  const client = useClient(clientId);
  const statsClient = clientId > 0 ? { Id: clientId, Name: client.data?.ClientName ?? t('client.title') } : undefined;

  const lng = point?.lng ?? projectAt?.[0] ?? search?.view.lng;
  const lat = point?.lat ?? projectAt?.[1] ?? search?.view.lat;
  const zoom = point ? 15 : projectAt ? 13 : search?.view.zoom;
  const seq = search?.view.seq;
  const view = useMemo<MapView | undefined>(
    () => (lng !== undefined && lat !== undefined ? { lng, lat, zoom, seq } : undefined),
    [lng, lat, zoom, seq],
  );

  const select = useCallback(
    (picked: MapPoint) => {
      setSearch(undefined);
      void navigate(homePath(picked.kind, picked.id));
    },
    [navigate],
  );

  const go = (target: SearchTarget) => {
    if ((target.kind === 'project' || target.kind === 'station') && target.id) {
      setSearch(undefined);
      void navigate(homePath(target.kind, target.id));
    } else if (target.lng !== undefined && target.lat !== undefined) {
      if (activeTitle) void navigate('/common/home');
      setSearch({ view: { lng: target.lng, lat: target.lat, zoom: target.zoom, seq: Date.now() }, label: target.label });
    }
  };

  const pin = useMemo(() => (search ? { lng: search.view.lng, lat: search.view.lat, label: search.label } : undefined), [search]);

  // A device's live values lead its page (above the tabs); its control panel, history and log open its tabs, its SIM card and principals join its own.
  const deviceTabs = useCallback(
    (device: DeviceDto, own: OwnDeviceTabs) => [
      {
        key: 'control',
        label: t('control.tab'),
        children: (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <ControlPanel g={g} sn={device.DeviceSn} deviceName={device.DeviceName || device.DeviceSn} />
          </Suspense>
        ),
      },
      {
        key: 'history',
        label: t('deviceHistory.tab'),
        children: (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <HistoryPanel g={g} sn={device.DeviceSn} stationId={device.ProjectId} />
          </Suspense>
        ),
      },
      { key: 'log', label: t('deviceLog.tab'), children: <DeviceLogTable g={g} sn={device.DeviceSn} /> },
      {
        key: 'video',
        label: t('video.tab'),
        children: (
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <VideoPanel sn={device.DeviceSn} />
          </Suspense>
        ),
      },
      own.overview,
      own.images,
      own.config,
      own.dataPoints,
      own.hardware,
      { key: 'card', label: t('deviceCard.tab'), children: <DeviceCardTab sn={device.DeviceSn} /> },
      { key: 'hj212', label: t('hj212.loggerTab'), children: <Hj212LoggerTab sn={device.DeviceSn} /> },
      own.migrations,
      { key: 'principals', label: t('home.tabs.principals'), children: <PrincipalsPanel kind="device" id={device.DeviceSn} /> },
      {
        key: 'quality',
        label: t('records.quality.tab'),
        children: (
          <Suspense fallback={recordsFallback}>
            <QualityTable sn={device.DeviceSn} />
          </Suspense>
        ),
      },
      {
        key: 'repairs',
        label: t('records.repair.tab'),
        children: (
          <Suspense fallback={recordsFallback}>
            <RepairTable params={{ DeviceSn: device.DeviceSn }} />
          </Suspense>
        ),
      },
    ],
    [g, t],
  );

  // A project's or station's field records: its standard, water quality, repairs and rounds.
  const siteTabs = useCallback(
    (projectId: number) => [
      {
        key: 'records',
        label: t('menu.fieldRecords'),
        children: (
          <Suspense fallback={recordsFallback}>
            <StationRecords projectId={projectId} />
          </Suspense>
        ),
      },
    ],
    [t],
  );

  const map = (
    <>
      <Flex gap={12} align="center" wrap className="sluice-home-toolbar">
        <div style={{ flex: '1 1 260px', minWidth: 0 }}>
          <AddressSearch sites={sites.data ?? []} geocoderUrl={config?.GeocoderUrl} onGo={go} />
        </div>
        <Legend />
      </Flex>
      <ClusterMap
        className={sn ? 'sluice-home-map sluice-home-map-secondary' : 'sluice-home-map'}
        config={config}
        points={points}
        selectedKey={selectedKey}
        onSelect={select}
        label={t('map.label')}
        view={view}
        you={you}
        pin={activeTitle ? undefined : pin}
      />
    </>
  );

  // On a device's page the map is one of its panels: the device's place, filling the panel.
  const deviceMap = (
    <ClusterMap
      className="sluice-panel-map"
      config={config}
      points={points}
      selectedKey={selectedKey}
      onSelect={select}
      label={t('map.label')}
      view={view}
      you={you}
    />
  );

  return (
    <div className="sluice-home">
      <section className="sluice-home-list" aria-label={t('home.listPanel')}>
        <SitesBrowser title={activeTitle} itemId={activeItemId} devices={deviceNodes} />
      </section>
      <section className="sluice-home-content" aria-label={t('home.contentPanel')}>
        {sn ? (
          <Fragment key={sn}>
            <DeviceHeadline sn={sn} />
            <DeviceAlarms sn={sn} />
            <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
              <DeviceDashboard sn={sn} map={deviceMap} />
            </Suspense>
            <DeviceDetails sn={sn} you={you} tabs={deviceTabs} />
          </Fragment>
        ) : (
          <>
            <Typography.Title level={1} className="visually-hidden">
              {t('routes.home')}
            </Typography.Title>
            {map}
            <SiteDetails title={activeTitle} itemId={activeItemId} you={you} extraTabs={siteTabs} />
          </>
        )}
      </section>
      <aside className="sluice-home-stats-panel" aria-label={t('home.statsPanel')}>
        <StatisticsPanel site={statsSite} client={statsClient} />
      </aside>
    </div>
  );
}
