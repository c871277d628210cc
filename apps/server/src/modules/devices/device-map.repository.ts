/**
 * The rows of the device map: every device and station the user reaches, with position and state,
 * in one query (a device without a position of its own stands at its station's).
 */
import { sql } from 'kysely';
import { PROJECT_TYPE } from '@sluice/shared/project.schema';
import type { Db } from '../../db/database.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { projectReachable } from '../sites/site-scope.ts';

export interface MapRow {
  kind: string;
  sn: string | null;
  id: number | null;
  name: string;
  position: string | null;
  online: number | null;
  parent: number | null;
  extra: number | null;
}

/** 0 offline, 1 online, 2 online with an active alarm (a Warn record the device still reports). */
const warned = (alias: string) =>
  sql`case when ${sql.ref(`${alias}.online`)} = 1 and exists (select 1 from warns w where w.device_sn = ${sql.ref(`${alias}.device_sn`)} and w.active = 1) then 2 else ${sql.ref(`${alias}.online`)} end`;

export class DeviceMapRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async rows(user: CurrentUser): Promise<MapRow[]> {
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
    `.execute(this.db);
    return rows;
  }
}
