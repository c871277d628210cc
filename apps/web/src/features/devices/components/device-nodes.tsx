/**
 * Devices in the home page's list panel: a station's devices with the add button, and a
 * device's node (its place, facts and actions). The app places them in the sites feature's list.
 */
import { useState } from 'react';
import { Button, Empty, Flex, List, Skeleton } from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, SwapOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ChildrenHeading, ListPanelHeader, ListPanelItem, type Crumb } from '../../../components/sites/list-panel';
import { DeviceStateTag } from '../../../components/sites/state-tag';
import { useGroupId } from '../../../lib/group';
import { useMayOperate } from '../../../lib/operates';
import { HOME_PATH, homePath } from '../../../lib/paths';
import { useDeviceTypeRefs } from '../../../lib/sites';
import { deviceQueryOptions, projectDevicesQueryOptions, type DeviceDto } from '../api/devices-api';
import { useDeviceActions } from './device-actions';
import { DeviceFacts } from './device-card';
import { DeviceFormDialog } from './device-form-dialog';

function DeviceItem({ device }: { device: DeviceDto }) {
  return (
    <ListPanelItem
      to={homePath('device', device.DeviceSn)}
      data={{ 'data-device-sn': device.DeviceSn }}
      name={device.DeviceName}
      state={<DeviceStateTag device={device} />}
      details={device.DeviceSn}
    />
  );
}

/** A station's devices, under its header. */
export function StationDevices({ stationId }: { stationId: number }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const devices = useQuery(projectDevicesQueryOptions(g, stationId));
  const [adding, setAdding] = useState(false);
  const openAdd = () => {
    setAdding(true);
  };
  return (
    <>
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
        projectId={stationId}
        onClose={() => {
          setAdding(false);
        }}
      />
    </>
  );
}

/** A device's node: where it is (project, station), its facts, and edit, migrate and delete. */
export function DeviceNode({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const mayManage = useMayOperate('device.manage');
  const navigate = useNavigate();
  const types = useDeviceTypeRefs();
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
      <ListPanelHeader crumbs={crumbs} back={parent} title={data.DeviceName} extra={<DeviceStateTag device={data} />} />
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
            icon={<KeyOutlined aria-hidden />}
            onClick={() => {
              actions.newSecret(data);
            }}
          >
            {t('devices.credential.reset')}
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
