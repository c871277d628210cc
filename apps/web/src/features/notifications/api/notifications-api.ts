/**
 * Alarm notifications (issue 14), for those who configure alarms (system.manage): channels,
 * rules, the group's quiet hours and the delivery history with its retry. The pickers read the
 * group's warn types, users and sites through their own calls.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotifyChannelDto, NotifyDeliveryDto, NotifyRuleDto, QuietHoursDto } from '@sluice/shared/notify.schema';
import type { UserListItem } from '@sluice/shared/user-admin.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api, fetchAllPages } from '../../../lib/api-client';

export const channelsResource = defineResource<NotifyChannelDto>({
  key: 'notify-channels',
  operate: 'system.manage',
  list: 'GET /NotifyChannel',
  create: 'POST /NotifyChannel',
  update: 'PUT /NotifyChannel',
  remove: 'DELETE /NotifyChannel/:id',
});

export const rulesResource = defineResource<NotifyRuleDto>({
  key: 'notify-rules',
  operate: 'system.manage',
  list: 'GET /NotifyRule',
  create: 'POST /NotifyRule',
  update: 'PUT /NotifyRule',
  remove: 'DELETE /NotifyRule/:id',
});

export const deliveriesResource = defineResource<NotifyDeliveryDto>({
  key: 'notify-deliveries',
  operate: 'system.manage',
  list: 'GET /NotifyDelivery',
});

/** Sends a failed delivery again. */
export const retryDelivery = (id: number) => api.post<null>('/NotifyDelivery/Retry', { Id: id });

/** Every channel of the group (the rules' picker). */
export function useAllChannels() {
  return useQuery({
    queryKey: [...channelsResource.keys.all, 'all'],
    queryFn: async () => (await api.get<NotifyChannelDto[]>('/NotifyChannel/All', { OrderBy: 'Name' })).data,
    staleTime: 30_000,
  });
}

/** The group's users (the rules' recipients). */
export function useUserChoices() {
  return useQuery({
    queryKey: ['users', 'notify-recipients'],
    queryFn: () => fetchAllPages<UserListItem>('/user', { OrderBy: 'UserName' }),
    staleTime: 60_000,
  });
}

const quietKey = ['notify-quiet-hours'] as const;

export function useQuietHours() {
  return useQuery({
    queryKey: quietKey,
    queryFn: async () => (await api.get<QuietHoursDto>('/NotifySettings/QuietHours')).data,
  });
}

export function useSaveQuietHours() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: QuietHoursDto) => api.put<QuietHoursDto>('/NotifySettings/QuietHours', body),
    onSuccess: (res) => {
      queryClient.setQueryData(quietKey, res.data);
    },
  });
}
