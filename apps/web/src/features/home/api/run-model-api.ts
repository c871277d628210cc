/**
 * A device's run model (spec §7 DeviceSystem, DeviceSystemAccessory, DeviceSystemCotrolData; §4
 * accessory rotation): the whole model (GET {g}/{sn}/DeviceRunModel), its systems, accessories and
 * steps written one call each, and the two messages to the device (send the model, rotate now).
 */
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { RunModelDto } from '@sluice/shared/run-model.schema';
import type { DeviceLogDto } from '@sluice/shared/telemetry.schema';
import { api } from '../../../lib/api-client';

export type { RunModelDto };

const base = (g: number, sn: string) => `/${String(g)}/${encodeURIComponent(sn)}`;

export const runModelKeys = { model: (sn: string) => ['home', 'run-model', sn] as const };

export const runModelQueryOptions = (g: number, sn: string) =>
  queryOptions({
    queryKey: runModelKeys.model(sn),
    queryFn: async () => (await api.get<RunModelDto>(`${base(g, sn)}/DeviceRunModel`)).data,
    meta: { persist: false },
  });

export const refreshRunModel = (client: QueryClient, sn: string) =>
  client.invalidateQueries({ queryKey: runModelKeys.model(sn) });

export const addSystem = (g: number, sn: string, body: { Name: string; RestTime: number }) =>
  api.post<{ Id: number }>(`${base(g, sn)}/DeviceSystem/AddDeviceSystem`, body);

export const updateSystem = (g: number, sn: string, body: { Id: number; Name: string; RestTime: number }) =>
  api.put<{ Id: number }>(`${base(g, sn)}/DeviceSystem/UpdateDeviceSystem`, body);

export const removeSystem = (g: number, sn: string, id: number) =>
  api.delete<null>(`${base(g, sn)}/DeviceSystem/RemoveDeviceSystem/${String(id)}`);

export const addSystemAccessory = (g: number, sn: string, body: { SystemId: number; Name: string }) =>
  api.post<{ Id: number }>(`${base(g, sn)}/DeviceSystemAccessory`, body);

export const updateSystemAccessory = (g: number, sn: string, body: { Id: number; Name: string }) =>
  api.put<{ Id: number }>(`${base(g, sn)}/DeviceSystemAccessory`, body);

export const removeSystemAccessory = (g: number, sn: string, id: number) =>
  api.delete<null>(`${base(g, sn)}/DeviceSystemAccessory/${String(id)}`);

export interface StepBody {
  AccessoryId: number;
  ControlName: string;
  DataValue: number;
  DataDefineId: number;
  AssociateDefineId: number | null;
  SequenceIn: number;
}

export const addStep = (g: number, sn: string, body: StepBody) =>
  api.post<{ Id: number }>(`${base(g, sn)}/DeviceSystemCotrolData`, body);

export const updateStep = (g: number, sn: string, body: Partial<StepBody> & { Id: number }) =>
  api.put<{ Id: number }>(`${base(g, sn)}/DeviceSystemCotrolData`, body);

export const sendRunModel = (g: number, sn: string) => api.post<DeviceLogDto>(`${base(g, sn)}/DeviceRunModel/Send`, {});

export const rotateSystem = (g: number, sn: string, systemId: number) =>
  api.post<DeviceLogDto>(`${base(g, sn)}/DeviceRunModel/Rotate`, { SystemId: systemId });
