/**
 * A device's own data points and the panels of its page, edited with the same tables, forms and
 * rules as a type template's (components/data-value/points-and-panels); changes apply to this
 * device only. Read-only for a user who does not manage devices. Loaded with the device-types
 * catalog, whose data-point texts it shares.
 */
import { useMemo } from 'react';
import { Flex, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { DeviceDataDefineDto, DevicePanelDto } from '@sluice/shared/device-data.schema';
import { panelsTableConfig, pointsTableConfig, usePanelTypeName } from '../../../components/data-value/points-and-panels';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { devicePanelsResource, devicePointsResource } from '../api/device-points-api';

export function DevicePointsTab({ sn }: { sn: string }) {
  const { t } = useTranslation();
  const ctx = useResourceContext();
  const params = useMemo(() => ({ deviceSn: sn }), [sn]);
  const panelsQuery = useQuery({ ...devicePanelsResource.listQueryOptions(ctx, params), enabled: ctx.groupId > 0 });
  const panels = panelsQuery.data?.rows;
  const panelTypeName = usePanelTypeName();
  const pointsConfig = useMemo(
    () =>
      pointsTableConfig<DeviceDataDefineDto>({
        resource: devicePointsResource,
        owner: 'device',
        panels: (panels ?? []).map((p) => ({ Id: p.Id, PanelName: p.PanelName, type: p.typeId })),
        panelTypeName,
        autoLabel: (auto) => (auto ? t('typeDataDefines.auto') : t('typeDataDefines.manual')),
      }),
    [panels, panelTypeName, t],
  );
  const panelsConfig = useMemo(
    () =>
      panelsTableConfig<DevicePanelDto>({
        resource: devicePanelsResource,
        owner: 'device',
        panelTypeName,
      }),
    [panelTypeName],
  );
  return (
    <Flex vertical gap={16}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('devicePoints.description')}
      </Typography.Paragraph>
      <section aria-label={t('devicePoints.panels')}>
        <Typography.Title level={3} style={{ fontSize: 15 }}>
          {t('devicePoints.panels')}
        </Typography.Title>
        <ResourceTable config={panelsConfig} params={params} createPreset={{ deviceSn: sn }} compact />
      </section>
      <section aria-label={t('devicePoints.points')}>
        <Typography.Title level={3} style={{ fontSize: 15 }}>
          {t('devicePoints.points')}
        </Typography.Title>
        <ResourceTable config={pointsConfig} params={params} createPreset={{ DeviceSn: sn }} compact />
      </section>
    </Flex>
  );
}
