/**
 * Below its panels: a device's details in tabs. Its own tabs (overview, images, settings, data
 * points and panels, hardware rows, migration history) come from here; the app puts them in
 * order with the tabs other features add (control, history, log, the SIM card, the principals).
 */
import { Suspense } from 'react';
import { Card, Flex, Skeleton, Tabs, type TabsProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DistanceText } from '../../../components/sites/distance-text';
import { withDeviceTypesCatalog } from '../../../lib/feature-catalogs';
import { useGroupId } from '../../../lib/group';
import { lazyComponent } from '../../../lib/lazy-page';
import { useDeviceTypeRefs } from '../../../lib/sites';
import { deviceQueryOptions, type DeviceDto } from '../api/devices-api';
import { DeviceFacts } from './device-card';
import { DeviceImages } from './device-images';
import { MigrationHistory } from './migration-history';
import { AuditHistoryButton } from '../../../components/audit-history-button';

/** Settings share the device-types catalog's data-type texts: both load on first opening. */
const DeviceConfigTab = lazyComponent(withDeviceTypesCatalog(() => import('./device-config-tab').then((m) => m.DeviceConfigTab)));
/** The device's own data points and panels share the device-types catalog's data-point texts. */
const DevicePointsTab = lazyComponent(withDeviceTypesCatalog(() => import('./device-points-tab').then((m) => m.DevicePointsTab)));
/** Hardware rows share the device-types catalog's hardware texts. */
const DeviceHardwareTab = lazyComponent(
  withDeviceTypesCatalog(() => import('./device-hardware-tab').then((m) => m.DeviceHardwareTab)),
);

export type DeviceTab = NonNullable<TabsProps['items']>[number];

/** The device's own tabs. */
export interface OwnDeviceTabs {
  overview: DeviceTab;
  images: DeviceTab;
  config: DeviceTab;
  hardware: DeviceTab;
  /** Its own data points and panels (what its page shows). */
  dataPoints: DeviceTab;
  migrations: DeviceTab;
}

export function DeviceDetails({
  sn,
  you,
  tabs,
}: {
  sn: string;
  you: readonly [number, number] | undefined;
  /** The tabs shown, in order: the device's own and those of other features. */
  tabs: (device: DeviceDto, own: OwnDeviceTabs) => DeviceTab[];
}) {
  const { t } = useTranslation();
  const g = useGroupId();
  const types = useDeviceTypeRefs();
  const { data } = useQuery(deviceQueryOptions(g, sn));
  if (!data) return null;
  const own: OwnDeviceTabs = {
    overview: {
      key: 'overview',
      label: t('home.tabs.overview'),
      children: (
        <Flex vertical gap={8}>
          <DeviceFacts device={data} types={types.data} />
          <div>
            {t('home.distance')}: <DistanceText from={you} to={data.Position} />
          </div>
        </Flex>
      ),
    },
    images: {
      key: 'images',
      label: t('home.tabs.images'),
      children: <DeviceImages sn={data.DeviceSn} name={data.DeviceName} />,
    },
    config: {
      key: 'config',
      label: t('deviceConfig.tab'),
      children: (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
          <DeviceConfigTab sn={data.DeviceSn} />
        </Suspense>
      ),
    },
    hardware: {
      key: 'hardware',
      label: t('deviceHardware.tab'),
      children: (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
          <DeviceHardwareTab sn={data.DeviceSn} />
        </Suspense>
      ),
    },
    dataPoints: {
      key: 'data-points',
      label: t('devicePoints.tab'),
      children: (
        <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
          <DevicePointsTab sn={data.DeviceSn} />
        </Suspense>
      ),
    },
    migrations: {
      key: 'migrations',
      label: t('devices.migrate.history'),
      children: <MigrationHistory sn={data.DeviceSn} />,
    },
  };
  return (
    <Card title={t('home.deviceDetails')} extra={<AuditHistoryButton kind="device" id={data.DeviceSn} name={data.DeviceName} />}>
      <Tabs className="sluice-wrap-tabs" items={tabs(data, own)} />
    </Card>
  );
}
