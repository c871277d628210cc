/**
 * GET DeviceMap/GetDeviceMap: every device and station the caller reaches, with position and
 * state, in one query and a compact answer (rows as arrays) for a map of 10,000 devices.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { DEVICE_MAP_FIELDS, deviceMapDto, STATION_MAP_FIELDS, type DeviceMapDto } from '@sluice/shared/device.schema';
import { parsePosition } from '@sluice/shared/geo.schema';
import { PROJECT_TYPE } from '@sluice/shared/project.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import type { CurrentUser } from '../account/users.repository.ts';
import type { Db } from '../../db/database.ts';
import { projectReachable } from '../sites/site-scope.ts';

interface MapRow {
  kind: string;
  sn: string | null;
  id: number | null;
  name: string;
  position: string | null;
  online: number | null;
  parent: number | null;
  extra: number | null;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/** 0 offline, 1 online, 2 online with an active alarm (a Warn record the device still reports). */
const warned = (alias: string) =>
  sql`case when ${sql.ref(`${alias}.online`)} = 1 and exists (select 1 from warns w where w.device_sn = ${sql.ref(`${alias}.device_sn`)} and w.active = 1) then 2 else ${sql.ref(`${alias}.online`)} end`;

/** Devices without a position of their own stand at their station's. Unplaceable rows are left out. */
export async function deviceMap(db: Db, user: CurrentUser): Promise<DeviceMapDto> {
  const g = user.groupId;
  const { rows } = await sql<MapRow>`
    select 'd' as kind, d.device_sn as sn, null as id, d.device_name as name,
      case when d.position = '' then p.position else d.position end as position,
      ${warned('d')} as online, d.project_id as parent, d.type_id as extra
    from devices d left join projects p on p.id = d.project_id
    where d.group_id = ${g} and d.deleted_at is null and ${projectReachable(user, 'd.project_id')}
    union all
    select 's' as kind, null as sn, s.id as id, s.name as name, s.position as position,
      coalesce(agg.online, 0) as online, s.parent_id as parent, coalesce(agg.num, 0) as extra
    from projects s
    left join (
      select ad.project_id, max(${warned('ad')}) as online, count(*) as num
      from devices ad where ad.group_id = ${g} and ad.deleted_at is null group by ad.project_id
    ) agg on agg.project_id = s.id
    where s.group_id = ${g} and s.project_type = ${PROJECT_TYPE.station} and ${projectReachable(user, 's.id')}
  `.execute(db);
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

export function deviceMapRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/DeviceMap/GetDeviceMap',
    {
      config: { access: { operate: 'device.view' } },
      schema: {
        tags: ['Devices'],
        summary:
          'Every device and station on the map: rows are arrays in the order of DeviceFields and StationFields; State 0 offline, 1 online, 2 online with a warning',
        response: { 200: envelopeOf(deviceMapDto) },
      },
    },
    async (request) => ok(request, await deviceMap(app.ctx.db, currentUser(request))),
  );
}
