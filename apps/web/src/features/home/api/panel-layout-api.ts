/**
 * The device page as a dashboard: the account's arrangement of its panels (GET/PUT
 * DevicePanelLayout), and the panel view of each of its type's data points (the type's
 * TypeDataDefine ShowType: detection, monitoring or status).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { PanelLayoutDto, LayoutItem } from '@sluice/shared/panel-layout';
import type { TypeDataDefineDto } from '@sluice/shared/device-type.schema';
import { api } from '../../../lib/api-client';

export const panelLayoutQueryOptions = (sn: string) =>
  queryOptions({
    queryKey: ['home', 'panel-layout', sn],
    queryFn: async () => (await api.get<PanelLayoutDto>('/DevicePanelLayout', { deviceSn: sn })).data.Layout,
    meta: { persist: false },
  });

/** Keeps the arrangement; the page does not fetch everything again after it (keepCache). */
export function useSavePanelLayout(sn: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (layout: LayoutItem[]) =>
      (await api.put<PanelLayoutDto>('/DevicePanelLayout', { deviceSn: sn, Layout: layout }, { keepCache: true })).data.Layout,
    onSuccess: (saved) => {
      client.setQueryData(panelLayoutQueryOptions(sn).queryKey, saved);
    },
  });
}

/** The panel view (ShowType) of the type's data points, by data key. */
export const typeViewsQueryOptions = (typeId: number | null) =>
  queryOptions({
    queryKey: ['home', 'type-views', typeId],
    queryFn: async () => {
      const rows = (await api.get<TypeDataDefineDto[]>(`/type/${String(typeId)}/TypeDataDefine`)).data;
      return Object.fromEntries(rows.map((row) => [row.DataKey, row.ShowType]));
    },
    enabled: typeId !== null && typeId > 0,
  });
