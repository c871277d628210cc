/** Below the map: the selected project's, station's or device's details in tabs. */
import { Suspense, useState } from 'react';
import { Button, Card, Descriptions, Flex, Skeleton, Tabs, type TabsProps } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { HOME_PATH } from '../../../lib/paths';
import { deviceQueryOptions, useDeviceTypes, type DeviceDto } from '../api/devices-api';
import { useGroupId } from '../api/group';
import { projectInfoQueryOptions } from '../api/projects-api';
import { AffiliatesPanel } from './affiliates-panel';
import { DeviceFacts } from './device-card';
import { DeviceImages } from './device-images';
import { DeviceCardTab } from './device-card-tab';
import { lazyComponent } from '../../../lib/lazy-page';
import { withDeviceTypesCatalog } from '../../../lib/feature-catalogs';
import { DistanceText } from './distance-text';
import { MigrationHistory } from './migration-history';
import { PrincipalsPanel } from './principals-panel';
import { useConfirmProjectDelete } from './confirm-delete';
import { ProjectFormDialog } from './project-form-dialog';
import { ProjectImages } from './project-images';
import { homePath } from './sites-browser';
import { useMayOperate } from '../../../lib/operates';
/** Settings share the device-types catalog's data-type texts: both load on first opening. */
const DeviceConfigTab = lazyComponent(withDeviceTypesCatalog(() => import('./device-config-tab').then((m) => m.DeviceConfigTab)));

function SiteCard({ id, you }: { id: number; you: readonly [number, number] | undefined }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('project.manage');
  const navigate = useNavigate();
  const { data } = useQuery(projectInfoQueryOptions(g, id));
  const confirmDelete = useConfirmProjectDelete();
  const [editing, setEditing] = useState(false);
  if (!data) return null;
  const kind = data.ProjectKind === 'station' ? 'station' : 'project';
  const parent = kind === 'station' && data.ParentId > 0 ? homePath('project', data.ParentId) : HOME_PATH;
  return (
    <Card
      title={t(kind === 'station' ? 'home.stationDetails' : 'home.projectDetails')}
      extra={
        mayManage && (
          <Flex gap={8}>
            <Button
              size="small"
              icon={<EditOutlined />}
              onClick={() => {
                setEditing(true);
              }}
            >
              {t('sites.actions.edit')}
            </Button>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => {
                confirmDelete(data, () => {
                  void navigate(parent);
                });
              }}
            >
              {t('sites.actions.delete')}
            </Button>
          </Flex>
        )
      }
    >
      <Tabs
        items={[
          {
            key: 'overview',
            label: t('home.tabs.overview'),
            children: (
              <Descriptions
                column={{ xs: 1, sm: 2, xl: 2 }}
                size="small"
                items={[
                  {
                    key: 'name',
                    label: t('sites.fields.name'),
                    children: data.Name,
                  },
                  {
                    key: 'parent',
                    label: kind === 'station' ? t('sites.fields.project') : t('sites.fields.client'),
                    children: data.ParentName ?? '—',
                  },
                  {
                    key: 'address',
                    label: t('sites.fields.address'),
                    children: data.Address || '—',
                  },
                  {
                    key: 'position',
                    label: t('sites.fields.position'),
                    children: data.Position || '—',
                  },
                  {
                    key: 'distance',
                    label: t('home.distance'),
                    children: <DistanceText from={you} to={data.Position} />,
                  },
                  ...(kind === 'project'
                    ? [
                        {
                          key: 'stations',
                          label: t('sites.counts.stations'),
                          children: data.SitesNum,
                        },
                      ]
                    : []),
                  {
                    key: 'devices',
                    label: t('sites.counts.devices'),
                    children: t('sites.counts.onlineOf', {
                      online: data.OnlineNum,
                      total: data.DeviceNum,
                    }),
                  },
                ]}
              />
            ),
          },
          {
            key: 'images',
            label: t('home.tabs.images'),
            children: <ProjectImages projectId={data.Id} name={data.Name} />,
          },
          {
            key: 'affiliates',
            label: t('home.tabs.affiliates'),
            children: <AffiliatesPanel projectId={data.Id} />,
          },
          {
            key: 'principals',
            label: t('home.tabs.principals'),
            children: <PrincipalsPanel kind={kind} id={data.Id} />,
          },
        ]}
      />
      <ProjectFormDialog
        kind={kind}
        open={editing}
        editing={data}
        onClose={() => {
          setEditing(false);
        }}
      />
    </Card>
  );
}

/** Tabs another part of the console adds to a device's details (its live values), shown first. */
export type DeviceTabs = (device: DeviceDto) => NonNullable<TabsProps['items']>;

function DeviceDetailsCard({
  sn,
  you,
  deviceTabs,
}: {
  sn: string;
  you: readonly [number, number] | undefined;
  deviceTabs: DeviceTabs | undefined;
}) {
  const { t } = useTranslation();
  const g = useGroupId();
  const types = useDeviceTypes();
  const { data } = useQuery(deviceQueryOptions(g, sn));
  if (!data) return null;
  return (
    <Card title={t('home.deviceDetails')}>
      <Tabs
        items={[
          ...(deviceTabs?.(data) ?? []),
          {
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
          {
            key: 'images',
            label: t('home.tabs.images'),
            children: <DeviceImages sn={data.DeviceSn} name={data.DeviceName} />,
          },
          {
            key: 'config',
            label: t('deviceConfig.tab'),
            children: (
              <Suspense fallback={<Skeleton active paragraph={{ rows: 3 }} />}>
                <DeviceConfigTab sn={data.DeviceSn} />
              </Suspense>
            ),
          },
          {
            key: 'card',
            label: t('deviceCard.tab'),
            children: <DeviceCardTab sn={data.DeviceSn} />,
          },
          {
            key: 'migrations',
            label: t('devices.migrate.history'),
            children: <MigrationHistory sn={data.DeviceSn} />,
          },
          {
            key: 'principals',
            label: t('home.tabs.principals'),
            children: <PrincipalsPanel kind="device" id={data.DeviceSn} />,
          },
        ]}
      />
    </Card>
  );
}

export function SiteDetails({
  title,
  itemId,
  you,
  deviceTabs,
}: {
  title: string | undefined;
  itemId: string | undefined;
  you: readonly [number, number] | undefined;
  deviceTabs?: DeviceTabs;
}) {
  const id = Number(itemId);
  if ((title === 'project' || title === 'station') && id > 0) return <SiteCard key={id} id={id} you={you} />;
  if (title === 'device' && itemId) return <DeviceDetailsCard key={itemId} sn={itemId} you={you} deviceTabs={deviceTabs} />;
  return null;
}
