/**
 * The device map (DeviceMap/GetDeviceMap) as a compact answer — rows as arrays in the order of
 * DeviceFields and StationFields, for a map of 10,000 devices. Unplaceable rows are left out.
 */
import { DEVICE_MAP_FIELDS, STATION_MAP_FIELDS, type DeviceMapDto } from '@sluice/shared/device.schema';
import { parsePosition } from '@sluice/shared/geo.schema';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { DeviceMapRepository } from './device-map.repository.ts';

const round = (n: number) => Math.round(n * 1e6) / 1e6;

export class DeviceMapService {
  private readonly repository: DeviceMapRepository;

  constructor(repository: DeviceMapRepository) {
    this.repository = repository;
  }

  async map(user: CurrentUser): Promise<DeviceMapDto> {
    const rows = await this.repository.rows(user);
    const Devices: DeviceMapDto['Devices'] = [];
    const Stations: DeviceMapDto['Stations'] = [];
    for (const r of rows) {
      const at = parsePosition(r.position);
      if (!at) continue;
      const online = r.online ?? 0;
      const state = online > 1 ? 2 : online > 0 ? 1 : 0;
      if (r.kind === 'd') Devices.push([r.sn, r.name, round(at[0]), round(at[1]), state, r.parent, r.extra]);
      else Stations.push([r.id, r.name, round(at[0]), round(at[1]), state, r.parent ?? 0, r.extra ?? 0]);
    }
    return { DeviceFields: [...DEVICE_MAP_FIELDS], Devices, StationFields: [...STATION_MAP_FIELDS], Stations };
  }
}
