/**
 * A device's page as a dashboard (spec §2 Home panels): the device's own panels (GetDevicePanels,
 * each drawn by its type) and the page's own (its alarms, its other data points, its facts, its
 * images, its place on the map) on the 12-column grid, arranged per account (DevicePanelLayout).
 * It composes features (the home feature's values, the devices feature's facts, images and
 * settings, the notices feature's alarms, the map), so it lives in the app layer; the home page
 * loads it, and the grid library with it, only for a device.
 */
import { Suspense, useMemo, type ReactNode } from 'react';
import { App, Flex, Skeleton, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PANEL_TYPES, type DeviceDataDefineDto } from '@sluice/shared/device-data.schema';
import type { PanelCode } from '@sluice/shared/panel-layout';
import { DashboardGrid, type DashboardPanel } from '../../components/dashboard/dashboard-grid';
import { LoadMore } from '../../components/dashboard/load-more';
import { MediaCarousel } from '../../components/dashboard/media-carousel';
import { QueryError } from '../../components/query-state';
import { errorMessage } from '../../lib/form-errors';
import { useGroupId } from '../../lib/group';
import { lazyComponent } from '../../lib/lazy-page';
import { useMayOperate } from '../../lib/operates';
import { withDeviceTypesCatalog } from '../../lib/feature-catalogs';
import { useDeviceTypeRefs } from '../../lib/sites';
import { deviceQueryOptions } from '../../features/devices/api/devices-api';
import { deviceImagesQueryOptions } from '../../features/devices/api/device-images-api';
import { DeviceFacts } from '../../features/devices/components/device-card';
import { deviceLayoutQueryOptions, latestDataQueryOptions } from '../../features/home/api/device-data-api';
import { panelLayoutQueryOptions, typeViewsQueryOptions, useSavePanelLayout } from '../../features/home/api/panel-layout-api';
import { shownFormat, useStoredName } from '../../lib/stored-names';
import { PointsPanel } from '../../features/home/components/dashboard/points-panel';
import type { PointRow, ViewKind } from '../../features/home/components/dashboard/point-view';
import { deviceAlarmsQueryOptions } from '../../features/notices/api/notices-api';
import { AlarmName } from '../../features/notices/components/alarm-tags';
import { camerasResource } from '../../features/video/api/video-api';

/** The camera panel, and hls.js when a camera plays, only where a device has a video panel. */
const VideoPanel = lazyComponent(() => import('../../features/video/components/video-panel').then((m) => m.VideoPanel));
const DeviceConfigTab = lazyComponent(
  withDeviceTypesCatalog(() => import('../../features/devices/components/device-config-tab').then((m) => m.DeviceConfigTab)),
);

const codeOf = (typeId: number): PanelCode => PANEL_TYPES.find((p) => p.Id === typeId)?.Code ?? 'deviceDataDefine';

function AlarmsPanel({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const alarms = useQuery(deviceAlarmsQueryOptions(sn));
  if (alarms.isPending) return <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  if (alarms.isError) return <QueryError query={alarms} title={t('notices.deviceFailed')} />;
  if (alarms.data.length === 0) return <Typography.Text type="secondary">{t('dashboard.noAlarms')}</Typography.Text>;
  return (
    <LoadMore items={alarms.data} pageSize={6}>
      {(shown) => (
        <Flex vertical gap={4}>
          {shown.map((alarm) => (
            <div key={alarm.Id}>
              <AlarmName alarm={alarm} />
            </div>
          ))}
        </Flex>
      )}
    </LoadMore>
  );
}

function ImagesPanel({ g, sn }: { g: number; sn: string }) {
  const { t } = useTranslation();
  const images = useQuery(deviceImagesQueryOptions(g, sn));
  if (images.isPending) return <Skeleton.Image active />;
  if (images.isError) return <QueryError query={images} />;
  return (
    <MediaCarousel
      images={images.data.map((image) => ({ id: image.Id, url: image.url, name: image.ImageName }))}
      emptyText={t('dashboard.noImages')}
    />
  );
}

function InfoPanel({ g, sn }: { g: number; sn: string }) {
  const types = useDeviceTypeRefs();
  const device = useQuery(deviceQueryOptions(g, sn));
  if (!device.data) return <Skeleton active paragraph={{ rows: 3 }} />;
  return <DeviceFacts device={device.data} types={types.data} />;
}

export function DeviceDashboard({ sn, map }: { sn: string; map: ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const g = useGroupId();
  const client = useQueryClient();
  const mayArrange = useMayOperate('device.manage');
  const device = useQuery(deviceQueryOptions(g, sn));
  const data = useQuery(deviceLayoutQueryOptions(sn));
  const latest = useQuery(latestDataQueryOptions(g, sn));
  const saved = useQuery(panelLayoutQueryOptions(sn));
  const views = useQuery(typeViewsQueryOptions(device.data?.TypeId ?? null));
  const save = useSavePanelLayout(sn);
  const name = useStoredName();

  const panels = useMemo<DashboardPanel[]>(() => {
    if (!data.data) return [];
    const { defines, panels: own } = data.data;
    const viewOf = (key: string): ViewKind => (views.data?.[key] ?? 0) as ViewKind;
    const rowOf = (d: DeviceDataDefineDto): PointRow => ({
      key: d.DataKey,
      name: name(d.DataName) || d.DataKey,
      unit: d.Unit,
      type: d.DataType,
      format: shownFormat(name, d.DataType, d.Format),
      view: viewOf(d.DataKey),
    });
    const refreshValues = () => {
      void latest.refetch();
    };
    const pointsPanel = (key: string, title: string, rows: PointRow[]) => (
      <PointsPanel g={g} sn={sn} points={rows} title={title} key={key} />
    );
    const result: DashboardPanel[] = [
      {
        key: 'alarms',
        code: 'deviceError',
        title: t('notices.deviceAlarms'),
        content: <AlarmsPanel sn={sn} />,
        onRefresh: () => {
          void client.invalidateQueries({ queryKey: deviceAlarmsQueryOptions(sn).queryKey });
        },
      },
    ];
    const sorted = [...own].sort((a, b) => a.Sn - b.Sn || a.Id - b.Id);
    const codes = new Set<PanelCode>();
    for (const panel of sorted) {
      const code = codeOf(panel.typeId);
      codes.add(code);
      const key = `p${String(panel.Id)}`;
      const rows = defines.filter((d) => d.PanelId === panel.Id).map(rowOf);
      let content: ReactNode;
      let onRefresh: (() => void) | undefined = refreshValues;
      switch (code) {
        case 'deviceMap':
          content = map;
          onRefresh = undefined;
          break;
        case 'image':
          content = <ImagesPanel g={g} sn={sn} />;
          onRefresh = () => {
            void client.invalidateQueries({ queryKey: deviceImagesQueryOptions(g, sn).queryKey });
          };
          break;
        case 'deviceBaseInfo':
          content = <InfoPanel g={g} sn={sn} />;
          onRefresh = () => {
            void device.refetch();
          };
          break;
        case 'video':
          content = (
            <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
              <VideoPanel sn={sn} />
            </Suspense>
          );
          onRefresh = () => {
            void client.invalidateQueries({ queryKey: camerasResource.keys.all });
          };
          break;
        case 'deviceError':
          content = <AlarmsPanel sn={sn} />;
          break;
        case 'deviceConfig':
          content = (
            <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
              <DeviceConfigTab sn={sn} />
            </Suspense>
          );
          onRefresh = undefined;
          break;
        default:
          content = pointsPanel(key, name(panel.PanelName), rows);
      }
      result.push({ key, code, title: name(panel.PanelName), content, onRefresh });
    }
    // The device's data points outside its panels, and keys it reports that it does not define.
    const panelIds = new Set(own.map((p) => p.Id));
    const others = defines.filter((d) => d.PanelId === null || !panelIds.has(d.PanelId)).map(rowOf);
    const seen = new Set(defines.map((d) => d.DataKey));
    for (const p of latest.data?.Points ?? []) {
      if (seen.has(p.Key)) continue;
      seen.add(p.Key);
      others.push({ key: p.Key, name: p.Name || p.Key, unit: p.Unit, type: undefined, format: '', view: viewOf(p.Key) });
    }
    if (others.length > 0 || own.length === 0) {
      const title = own.length > 0 ? t('dashboard.otherPoints') : t('live.tab');
      result.push({
        key: 'values',
        code: 'deviceDataDefine',
        title,
        content: pointsPanel('values', title, others),
        onRefresh: refreshValues,
      });
    }
    if (!codes.has('deviceBaseInfo'))
      result.push({ key: 'info', code: 'deviceBaseInfo', title: t('home.tabs.overview'), content: <InfoPanel g={g} sn={sn} /> });
    if (!codes.has('image'))
      result.push({ key: 'images', code: 'image', title: t('home.tabs.images'), content: <ImagesPanel g={g} sn={sn} /> });
    if (!codes.has('deviceMap')) result.push({ key: 'map', code: 'deviceMap', title: t('dashboard.mapTitle'), content: map });
    return result;
  }, [data.data, views.data, latest, g, sn, t, name, client, map, device]);

  if (data.isError) return <QueryError query={data} title={t('dashboard.loadFailed')} />;
  if (data.isPending || saved.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;

  return (
    <Flex vertical gap={8}>
      {saved.isError ? <QueryError query={saved} title={t('dashboard.loadFailed')} /> : null}
      <DashboardGrid
        label={t('live.tab')}
        panels={panels}
        saved={saved.data}
        mayArrange={mayArrange}
        onSave={(layout) => {
          save.mutate(layout, {
            onSuccess: () => {
              if (layout.length === 0) void message.success(t('dashboard.resetDone'));
            },
            onError: (error) => {
              void message.error(t('dashboard.saveFailed', { message: errorMessage(error) }));
            },
          });
        }}
      />
    </Flex>
  );
}
