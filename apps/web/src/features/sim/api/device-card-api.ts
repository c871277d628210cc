/**
 * A device's SIM card (spec §3 Device card): {g}/{sn}/DeviceCard (the ICCID) and
 * {g}/{sn}/DeviceCard/simboss (the card as the SIM provider reports it).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { deviceCardDto } from '@sluice/shared/device.schema';
import type { simCardDto } from '@sluice/shared/sim.schema';
import { api } from '../../../lib/api-client';
import { sitesKeys } from '../../../lib/sites';

export type DeviceCardDto = z.infer<typeof deviceCardDto>;
export type SimCardDto = z.infer<typeof simCardDto>;

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
