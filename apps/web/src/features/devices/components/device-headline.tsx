/**
 * The top of a device's page: Back to its station (or project), its name as the page's heading,
 * its state (the alarm on hover), and its type and place. On a phone this is the first thing on
 * the page; the list panel with the same Back comes later.
 */
import { Button, Flex, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DeviceTypeIcon, typeName } from '../../../components/sites/device-type-label';
import { DeviceStateTag } from '../../../components/sites/state-tag';
import { useGroupId } from '../../../lib/group';
import { HOME_PATH, homePath } from '../../../lib/paths';
import { useDeviceTypeRefs } from '../../../lib/sites';
import { deviceQueryOptions, type DeviceDto } from '../api/devices-api';
import { siteLabel } from './device-card';

/** Where Back goes from a device: its station, else its project, else home. */
export function deviceParentPath(device: Pick<DeviceDto, 'ProjectType' | 'ProjectId' | 'ParentProjectId'>): string {
  if (device.ProjectType === 1 && device.ProjectId) return homePath('station', device.ProjectId);
  if (device.ParentProjectId) return homePath('project', device.ParentProjectId);
  return HOME_PATH;
}

export function DeviceHeadline({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const g = useGroupId();
  const navigate = useNavigate();
  const types = useDeviceTypeRefs();
  const { data } = useQuery(deviceQueryOptions(g, sn));
  if (!data) return null;
  return (
    <header className="sluice-device-headline" data-testid="device-headline">
      <Flex align="center" gap={12} wrap>
        <Button
          icon={<ArrowLeftOutlined aria-hidden />}
          onClick={() => {
            void navigate(deviceParentPath(data));
          }}
        >
          {t('home.back')}
        </Button>
        <span aria-hidden style={{ fontSize: 22, lineHeight: 1, display: 'inline-flex' }}>
          <DeviceTypeIcon types={types.data} typeId={data.TypeId} />
        </span>
        <Typography.Title level={1} style={{ fontSize: 22, margin: 0, minWidth: 0, overflowWrap: 'anywhere' }}>
          {data.DeviceName || data.DeviceSn}
        </Typography.Title>
        <DeviceStateTag device={data} />
      </Flex>
      <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
        {[typeName(types.data, data.TypeId, t), siteLabel(data) || t('devices.unassigned'), data.DeviceSn].join(' · ')}
      </Typography.Text>
    </header>
  );
}
