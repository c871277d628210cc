/**
 * What a device's page shows of its data: its newest values (GET {g}/{sn}/DeviceHisData/Latest,
 * fetched again after a live reconnect), and its own data points and panels, copied from its
 * type's standard template (GET GetDeviceDataDefine and GetDevicePanels).
 */
import { queryOptions } from '@tanstack/react-query';
import type { DeviceDataDefineDto, DevicePanelDto } from '@sluice/shared/device-data.schema';
import type { LatestDto } from '@sluice/shared/telemetry.schema';
import { api } from '../../../lib/api-client';

export const latestDataQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: ['home', 'latest', sn],
    queryFn: async () => (await api.get<LatestDto>(`/${String(g)}/${encodeURIComponent(sn)}/DeviceHisData/Latest`)).data,
    meta: { live: true, persist: false },
  });

export const deviceLayoutQueryOptions = (sn: string) =>
  queryOptions({
    queryKey: ['home', 'device-layout', sn],
    queryFn: async () => {
      const [defines, panels] = await Promise.all([
        api.get<DeviceDataDefineDto[]>('/GetDeviceDataDefine', { deviceSn: sn }),
        api.get<DevicePanelDto[]>('/GetDevicePanels', { deviceSn: sn }),
      ]);
      return { defines: defines.data, panels: panels.data };
    },
  });
