/**
 * A device as a card: name, online state, type icon and site; hovering or focusing it shows a
 * popover with its key facts. Enter or a click opens it on the home page.
 */
import { Card, Descriptions, Flex, Popover, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/dates';
import type { DeviceDto } from '../api/devices-api';
import type { DeviceTypeRef } from '../../../lib/sites';
import { DeviceTypeIcon, typeName } from '../../../components/sites/device-type-label';
import { DeviceStateTag, StateTag, stateLabelKey, useDeviceState } from '../../../components/sites/state-tag';
import type { ReactNode } from 'react';

export function siteLabel(device: DeviceDto): string {
  const names = [device.ParentProjectName, device.ProjectName].filter((n): n is string => Boolean(n));
  return [...new Set(names)].join(' / ');
}

export function DeviceFacts({ device, types }: { device: DeviceDto; types: readonly DeviceTypeRef[] | undefined }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      size="small"
      column={1}
      style={{ maxWidth: 340 }}
      items={[
        { key: 'sn', label: t('devices.fields.sn'), children: device.DeviceSn },
        {
          key: 'no',
          label: t('devices.fields.no'),
          children: device.DeviceNo || '—',
        },
        {
          key: 'type',
          label: t('devices.fields.type'),
          children: typeName(types, device.TypeId, t),
        },
        {
          key: 'site',
          label: t('devices.fields.site'),
          children: siteLabel(device) || t('devices.unassigned'),
        },
        {
          key: 'state',
          label: t('devices.fields.state'),
          children: <DeviceStateTag device={device} />,
        },
        {
          key: 'seen',
          label: t('devices.fields.lastSeen'),
          children: device.LastSeen ? formatDateTime(device.LastSeen) : '—',
        },
        {
          key: 'useTime',
          label: t('devices.fields.useTime'),
          children: device.UseTime || '—',
        },
        {
          key: 'position',
          label: t('sites.fields.position'),
          children: device.Position || '—',
        },
        {
          key: 'address',
          label: t('sites.fields.address'),
          children: device.Address || '—',
        },
      ]}
    />
  );
}

export function DeviceCard({
  device,
  types,
  onOpen,
  actions,
}: {
  device: DeviceDto;
  types: readonly DeviceTypeRef[] | undefined;
  onOpen: (device: DeviceDto) => void;
  actions?: ReactNode[];
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const state = useDeviceState(device);
  const place = `${typeName(types, device.TypeId, t)} · ${siteLabel(device) || t('devices.unassigned')}`;
  return (
    <Popover
      content={<DeviceFacts device={device} types={types} />}
      title={device.DeviceName}
      trigger={['hover', 'focus']}
      mouseEnterDelay={0.3}
      placement="right"
    >
      <Card
        hoverable
        size="small"
        actions={actions}
        tabIndex={0}
        role="article"
        aria-label={t('devices.cardLabel', {
          name: device.DeviceName,
          state: t(stateLabelKey(state)),
        })}
        data-device-sn={device.DeviceSn}
        onClick={() => {
          onOpen(device);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && event.target === event.currentTarget) onOpen(device);
        }}
        styles={{ body: { padding: 14 } }}
      >
        <Flex gap={12} align="center">
          <div
            style={{
              width: 44,
              height: 44,
              borderRadius: 10,
              display: 'grid',
              placeItems: 'center',
              background: state > 0 ? 'rgba(110, 186, 68, 0.14)' : token.colorFillSecondary,
              color: state > 0 ? token.colorSuccess : token.colorTextSecondary,
              flex: 'none',
            }}
          >
            <DeviceTypeIcon types={types} typeId={device.TypeId} />
          </div>
          <div style={{ minWidth: 0, flex: 1 }}>
            <Flex justify="space-between" gap={8} align="center">
              <Typography.Text strong ellipsis={{ tooltip: device.DeviceName }}>
                {device.DeviceName}
              </Typography.Text>
              <StateTag state={state} alarm={state === 2 ? device.Alarm : undefined} lastSeen={device.LastSeen} />
            </Flex>
            <Typography.Text type="secondary" ellipsis={{ tooltip: place }} style={{ display: 'block', fontSize: 12 }}>
              {place}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {device.DeviceSn}
            </Typography.Text>
          </div>
        </Flex>
      </Card>
    </Popover>
  );
}
