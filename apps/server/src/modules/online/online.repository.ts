/**
 * Online state of devices: the online flag and last_seen of the devices table, and the online
 * periods that DeviceOnline/GetDeviceOnline adds up. Transitions are conditional updates, so
 * several server instances sharing the ingestion agree on one transition.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Devices whose last_seen one statement writes. */
const LAST_SEEN_CHUNK = 250;

export interface OnlinePeriod {
  deviceSn: string;
  startedAt: number;
  endedAt: number | null;
}

export class OnlineRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Marks a device online; true when it was offline (a period starts). */
  async markOnline(groupId: number, deviceSn: string, at: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const changed = await trx
        .updateTable('devices')
        .set({ online: 1, last_seen: at })
        .where('device_sn', '=', deviceSn)
        .where('group_id', '=', groupId)
        .where('online', '=', 0)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) {
        // Already online (a restart of the server, or a seeded flag): make sure a period is open.
        const open = await trx
          .selectFrom('device_online_periods')
          .select('id')
          .where('device_sn', '=', deviceSn)
          .where('group_id', '=', groupId)
          .where('ended_at', 'is', null)
          .executeTakeFirst();
        if (!open)
          await trx
            .insertInto('device_online_periods')
            .values({ group_id: groupId, device_sn: deviceSn, started_at: at, ended_at: null })
            .execute();
        return false;
      }
      await trx
        .updateTable('device_online_periods')
        .set({ ended_at: at, end_reason: 'superseded' })
        .where('device_sn', '=', deviceSn)
        .where('group_id', '=', groupId)
        .where('ended_at', 'is', null)
        .execute();
      await trx
        .insertInto('device_online_periods')
        .values({ group_id: groupId, device_sn: deviceSn, started_at: at, ended_at: null })
        .execute();
      return true;
    });
  }

  /** Marks a device offline; true when it was online (its period ends at `endedAt`). */
  async markOffline(groupId: number, deviceSn: string, endedAt: number, reason: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const changed = await trx
        .updateTable('devices')
        .set({ online: 0 })
        .where('device_sn', '=', deviceSn)
        .where('group_id', '=', groupId)
        .where('online', '=', 1)
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('device_online_periods')
        .set({ ended_at: sql<number>`case when ${endedAt} < started_at then started_at else ${endedAt} end`, end_reason: reason })
        .where('device_sn', '=', deviceSn)
        .where('group_id', '=', groupId)
        .where('ended_at', 'is', null)
        .execute();
      return true;
    });
  }

  /**
   * Writes last_seen of many devices: one statement per 250 (a sweep writes every connected
   * device's, 10,000 of them in a large fleet), yielding to the event loop between them — one
   * update a device in one transaction held the thread for seconds.
   */
  async saveLastSeen(seen: { groupId: number; deviceSn: string; at: number }[]): Promise<void> {
    for (let i = 0; i < seen.length; i += LAST_SEEN_CHUNK) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const rows = seen
        .slice(i, i + LAST_SEEN_CHUNK)
        .map((s) => sql`(cast(${s.groupId} as integer), cast(${s.deviceSn} as text), cast(${s.at} as bigint))`);
      await sql`update devices set last_seen = v.column3 from (values ${sql.join(rows)}) as v
        where devices.group_id = v.column1 and devices.device_sn = v.column2
          and (devices.last_seen is null or devices.last_seen < v.column3)`.execute(this.db);
    }
  }

  /** Online devices not heard of since `before`. */
  async silentSince(before: number): Promise<{ groupId: number; deviceSn: string; lastSeen: number }[]> {
    const rows = await this.db
      .selectFrom('devices')
      .select(['group_id', 'device_sn', 'last_seen'])
      .where('online', '=', 1)
      .where((eb) => eb.or([eb('last_seen', 'is', null), eb('last_seen', '<', before)]))
      .execute();
    return rows.map((r) => ({ groupId: r.group_id, deviceSn: r.device_sn, lastSeen: r.last_seen ?? before }));
  }

  /** Online periods of a group's devices overlapping [from, to). */
  async periods(groupId: number, deviceSns: string[], from: number, to: number): Promise<OnlinePeriod[]> {
    if (deviceSns.length === 0) return [];
    const rows = await this.db
      .selectFrom('device_online_periods')
      .select(['device_sn', 'started_at', 'ended_at'])
      .where('group_id', '=', groupId)
      .where('device_sn', 'in', deviceSns)
      .where('started_at', '<', to)
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', from)]))
      .orderBy('started_at')
      .execute();
    return rows.map((r) => ({ deviceSn: r.device_sn, startedAt: r.started_at, endedAt: r.ended_at }));
  }
}
