/** Checks that a record's references (region, client, area) are the caller's group's and exist. */
import { AppError } from '../../http/errors.ts';
import type { Db } from '../../db/database.ts';
import { areaExists } from '../areas/areas.service.ts';

export interface SiteRefs {
  RegionId?: number | null | undefined;
  ClientId?: number | null | undefined;
  AreaId?: string | null | undefined;
}

export async function checkSiteRefs(db: Db, groupId: number, refs: SiteRefs): Promise<void> {
  if (typeof refs.RegionId === 'number') {
    const region = await db
      .selectFrom('regions')
      .select('id')
      .where('id', '=', refs.RegionId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    if (!region) throw new AppError(400, 'ref.unknown', { what: 'RegionId', id: refs.RegionId }, 'RegionId');
  }
  if (typeof refs.ClientId === 'number') {
    const client = await db
      .selectFrom('clients')
      .select('id')
      .where('id', '=', refs.ClientId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    if (!client) throw new AppError(400, 'ref.unknown', { what: 'ClientId', id: refs.ClientId }, 'ClientId');
  }
  if (typeof refs.AreaId === 'string' && !(await areaExists(refs.AreaId))) {
    throw new AppError(400, 'area.unknown', { code: refs.AreaId }, 'AreaId');
  }
}
