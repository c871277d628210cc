/** GET DeviceMap/GetDeviceMap, read from its compact arrays into map points. */
import { queryOptions } from '@tanstack/react-query';
import type { DeviceMapDto } from '@sluice/shared/device.schema';
import { api } from '../../../lib/api-client';
import type { MapPoint } from '../../../components/map/map-types';
import { sitesKeys } from '../../../lib/sites';

function column(fields: readonly string[], name: string): number {
  return fields.indexOf(name);
}

/** Turns the compact answer into points, stations first; keys are 's:<id>' and 'd:<sn>'. */
export function readDeviceMap(dto: DeviceMapDto): MapPoint[] {
  const points: MapPoint[] = [];
  const s = {
    id: column(dto.StationFields, 'Id'),
    name: column(dto.StationFields, 'Name'),
    lng: column(dto.StationFields, 'Lng'),
    lat: column(dto.StationFields, 'Lat'),
    state: column(dto.StationFields, 'State'),
  };
  for (const row of dto.Stations) {
    const id = String(row[s.id] ?? '');
    points.push({
      key: `s:${id}`,
      kind: 'station',
      id,
      name: String(row[s.name] ?? ''),
      lng: Number(row[s.lng]),
      lat: Number(row[s.lat]),
      state: toState(row[s.state]),
    });
  }
  const d = {
    sn: column(dto.DeviceFields, 'DeviceSn'),
    name: column(dto.DeviceFields, 'DeviceName'),
    lng: column(dto.DeviceFields, 'Lng'),
    lat: column(dto.DeviceFields, 'Lat'),
    state: column(dto.DeviceFields, 'State'),
    parent: column(dto.DeviceFields, 'ProjectId'),
  };
  for (const row of dto.Devices) {
    const id = String(row[d.sn] ?? '');
    const parent = row[d.parent];
    points.push({
      key: `d:${id}`,
      kind: 'device',
      id,
      name: String(row[d.name] ?? ''),
      lng: Number(row[d.lng]),
      lat: Number(row[d.lat]),
      state: toState(row[d.state]),
      ...(parent === null || parent === undefined ? {} : { parent: String(parent) }),
    });
  }
  return points.filter((p) => Number.isFinite(p.lng) && Number.isFinite(p.lat));
}

function toState(value: unknown): 0 | 1 | 2 {
  return value === 2 ? 2 : value === 1 ? 1 : 0;
}

export const deviceMapQueryOptions = () =>
  queryOptions({
    queryKey: sitesKeys.map,
    queryFn: async () => readDeviceMap((await api.get<DeviceMapDto>('/DeviceMap/GetDeviceMap')).data),
    staleTime: 30_000,
    // 10,000 rows are cheap to fetch again and not worth keeping in IndexedDB.
    meta: { persist: false, live: true },
  });
