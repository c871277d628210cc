/**
 * A device's own settings and SIM card (spec §3 Device config and Device card):
 * {g}/{sn}/DeviceConfig as a resource, {g}/{sn}/DeviceCard (the ICCID) and
 * {g}/{sn}/DeviceCard/simboss (the card as the SIM provider reports it).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { deviceCardDto, deviceConfigDto } from '@sluice/shared/device.schema';
import type { simCardDto } from '@sluice/shared/sim.schema';
import { api } from '../../../lib/api-client';
import { defineResource } from '../../../components/resource-table/resource';
import { sitesKeys } from './sites-keys';

export type DeviceConfigDto = z.infer<typeof deviceConfigDto>;
export type DeviceCardDto = z.infer<typeof deviceCardDto>;
export type SimCardDto = z.infer<typeof simCardDto>;

export const deviceConfigsResource = defineResource<DeviceConfigDto>({
  key: 'device-configs',
  operate: 'device.manage',
  list: 'GET /{g}/{sn}/DeviceConfig',
  paging: 'none',
  create: 'POST /{g}/{sn}/DeviceConfig',
  update: 'PUT /{g}/{sn}/DeviceConfig',
  remove: 'DELETE /{g}/{sn}/DeviceConfig/:id',
});

const cardPath = (g: number, sn: string) => `/${String(g)}/${encodeURIComponent(sn)}/DeviceCard`;

export const deviceCardQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: sitesKeys.deviceCard(sn),
    queryFn: async () => (await api.get<DeviceCardDto | null>(cardPath(g, sn))).data,
    enabled: g > 0 && sn !== '',
  });

/** The provider's answer is fetched when asked for, never cached across visits. */
export const simCardQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: [...sitesKeys.deviceCard(sn), 'sim'] as const,
    queryFn: async () => (await api.get<SimCardDto>(`${cardPath(g, sn)}/simboss`)).data,
    enabled: false,
    retry: false,
    meta: { persist: false },
  });

export function useSaveDeviceCard(g: number, sn: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ICCID: string) => api.put<DeviceCardDto>(cardPath(g, sn), { ICCID }),
    onSuccess: () => client.invalidateQueries({ queryKey: sitesKeys.deviceCard(sn) }),
  });
}

export function useRemoveDeviceCard(g: number, sn: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<null>(`${cardPath(g, sn)}/${String(id)}`),
    onSuccess: () => {
      client.removeQueries({ queryKey: sitesKeys.deviceCard(sn) });
    },
  });
}
