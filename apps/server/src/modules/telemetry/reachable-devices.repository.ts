/** The devices a user reaches (group and role-project grants), optionally of one project or station, of one client, or one device. */
import type { Db } from '../../db/database.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { clientProjectIds, projectReachable } from '../sites/site-scope.ts';

export interface ReachableDevice {
  deviceSn: string;
  name: string;
  projectId: number | null;
  typeId: number | null;
  online: boolean;
}

export async function reachableDevices(
  db: Db,
  user: CurrentUser,
  filter: { projectId?: number | undefined; deviceSn?: string | undefined; clientId?: number | undefined },
): Promise<ReachableDevice[]> {
  let q = db
    .selectFrom('devices')
    .select(['device_sn', 'device_name', 'project_id', 'type_id', 'online'])
    .where('group_id', '=', user.groupId)
    .where('deleted_at', 'is', null)
    .where(projectReachable(user, 'devices.project_id'));
  if (filter.deviceSn) q = q.where('device_sn', '=', filter.deviceSn);
  if (filter.projectId !== undefined) {
    const id = filter.projectId;
    // A project's devices include those of its stations (and of a client's projects' stations).
    q = q.where((eb) =>
      eb.or([
        eb('project_id', '=', id),
        eb(
          'project_id',
          'in',
          eb.selectFrom('projects as s').select('s.id').where('s.group_id', '=', user.groupId).where('s.parent_id', '=', id),
        ),
        eb(
          'project_id',
          'in',
          eb
            .selectFrom('projects as s2')
            .innerJoin('projects as p2', 'p2.id', 's2.parent_id')
            .select('s2.id')
            .where('s2.group_id', '=', user.groupId)
            .where('p2.parent_id', '=', id),
        ),
      ]),
    );
  }
  if (filter.clientId !== undefined) q = q.where('project_id', 'in', clientProjectIds(user.groupId, filter.clientId));
  const rows = await q.orderBy('device_sn').execute();
  return rows.map((r) => ({
    deviceSn: r.device_sn,
    name: r.device_name,
    projectId: r.project_id,
    typeId: r.type_id,
    online: r.online === 1,
  }));
}
