/** HJ 212 (issue 21): the group's pollutant code table, the forwarding links with their state, a device's logger settings. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Hj212CodeDto, Hj212ForwardDto, Hj212LoggerDto } from '@sluice/shared/hj212.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api } from '../../../lib/api-client';

export const hj212CodesResource = defineResource<Hj212CodeDto>({
  key: 'hj212-codes',
  operate: 'system.manage',
  list: 'GET /Hj212Code',
  create: 'POST /Hj212Code',
  update: 'PUT /Hj212Code',
  remove: 'DELETE /Hj212Code/:id',
});

export const hj212ForwardsResource = defineResource<Hj212ForwardDto>({
  key: 'hj212-forwards',
  operate: 'device.manage',
  list: 'GET /Hj212Forward',
  create: 'POST /Hj212Forward',
  update: 'PUT /Hj212Forward',
  remove: 'DELETE /Hj212Forward/:id',
});

const loggerPath = (g: number, sn: string) => `/${String(g)}/${encodeURIComponent(sn)}/Hj212Logger`;
const loggerKey = (sn: string) => ['hj212-logger', sn] as const;

/** A device's HJ 212 logger settings and counters (its MN is empty when it is no logger). */
export const hj212LoggerQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: loggerKey(sn),
    queryFn: async () => (await api.get<Hj212LoggerDto>(loggerPath(g, sn))).data,
    enabled: g > 0 && sn !== '',
    // Whether the logger is connected, and its counters, change on the server.
    refetchInterval: 10_000,
    meta: { persist: false },
  });

export function useSaveHj212Logger(g: number, sn: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { Mn: string; Password: string }) => api.put<Hj212LoggerDto>(loggerPath(g, sn), body),
    onSuccess: () => client.invalidateQueries({ queryKey: loggerKey(sn) }),
  });
}

export function useRemoveHj212Logger(g: number, sn: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<null>(loggerPath(g, sn)),
    onSuccess: () => client.invalidateQueries({ queryKey: loggerKey(sn) }),
  });
}
