/**
 * Online state of devices: the online flag and last_seen of the devices table, and the online
 * periods that DeviceOnline/GetDeviceOnline adds up. Transitions are conditional updates, so
 * several server instances sharing the ingestion agree on one transition.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

/** Devices whose last_seen one statement writes, and whose transitions one transaction writes. */
const LAST_SEEN_CHUNK = 250;
const TRANSITION_CHUNK = 250;

/** A device heard of: online from `at`. */
export interface OnlineTransition {
  groupId: number;
  deviceSn: string;
  at: number;
}

/** A device going offline: its period ends at `endedAt` (not before it started) for `reason`. */
export interface OfflineTransition {
  groupId: number;
  deviceSn: string;
  endedAt: number;
  reason: string;
}

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

  /**
   * Marks devices online, 250 in a transaction, yielding to the event loop between them (a connect
   * storm of 10,000 devices was 10,000 transactions); answers the transitions of the devices that
   * were offline, whose periods start. A device online already keeps its open period, or gets one
   * (after a restart, or a seeded flag).
   */
  markOnline(transitions: OnlineTransition[]): Promise<OnlineTransition[]> {
    return this.inChunks(transitions, markChunkOnline);
  }

  /**
   * Marks devices offline, 250 in a transaction, yielding to the event loop between them (10,000
   * devices leaving at once were 10,000 transactions, 7.6 s of the main thread); answers the
   * transitions of the devices that were online, whose periods end.
   */
  markOffline(transitions: OfflineTransition[]): Promise<OfflineTransition[]> {
    return this.inChunks(transitions, markChunkOffline);
  }

  private async inChunks<T>(transitions: T[], write: (trx: Db, chunk: T[]) => Promise<T[]>): Promise<T[]> {
    const changed: T[] = [];
    for (let i = 0; i < transitions.length; i += TRANSITION_CHUNK) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const chunk = transitions.slice(i, i + TRANSITION_CHUNK);
      changed.push(...(await this.db.transaction().execute((trx) => write(trx, chunk))));
    }
    return changed;
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

const keyOf = (groupId: number, deviceSn: string) => `${String(groupId)}\u0000${deviceSn}`;

/** The first transition of each device (a device heard of twice in one turn starts one period). */
function firstOfEach(chunk: OnlineTransition[]): OnlineTransition[] {
  const seen = new Set<string>();
  return chunk.filter((t) => {
    const key = keyOf(t.groupId, t.deviceSn);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function markChunkOnline(trx: Db, chunk: OnlineTransition[]): Promise<OnlineTransition[]> {
  const firsts = firstOfEach(chunk);
  const values = (list: OnlineTransition[]) =>
    sql.join(list.map((t) => sql`(cast(${t.groupId} as integer), cast(${t.deviceSn} as text), cast(${t.at} as bigint))`));
  const { rows } = await sql<{ group_id: number; device_sn: string }>`update devices set online = 1, last_seen = v.column3
    from (values ${values(firsts)}) as v
    where devices.group_id = v.column1 and devices.device_sn = v.column2 and devices.online = 0
      and devices.deleted_at is null
    returning devices.group_id, devices.device_sn`.execute(trx);
  const changed = new Set(rows.map((r) => keyOf(r.group_id, r.device_sn)));
  const came = firsts.filter((t) => changed.has(keyOf(t.groupId, t.deviceSn)));
  if (came.length > 0) {
    await sql`update device_online_periods set ended_at = v.column3, end_reason = 'superseded'
      from (values ${values(came)}) as v
      where device_online_periods.group_id = v.column1 and device_online_periods.device_sn = v.column2
        and device_online_periods.ended_at is null`.execute(trx);
  }
  // A period for each device that came online, and for each one online already without an open period.
  await sql`insert into device_online_periods (group_id, device_sn, started_at)
    select v.column1, v.column2, v.column3 from (values ${values(firsts)}) as v
    where exists (select 1 from devices d where d.group_id = v.column1 and d.device_sn = v.column2 and d.deleted_at is null)
      and not exists (select 1 from device_online_periods p
        where p.group_id = v.column1 and p.device_sn = v.column2 and p.ended_at is null)`.execute(trx);
  return came;
}

async function markChunkOffline(trx: Db, chunk: OfflineTransition[]): Promise<OfflineTransition[]> {
  const values = (list: OfflineTransition[]) =>
    sql.join(
      list.map(
        (t) =>
          sql`(cast(${t.groupId} as integer), cast(${t.deviceSn} as text), cast(${t.endedAt} as bigint), cast(${t.reason} as text))`,
      ),
    );
  const { rows } = await sql<{ group_id: number; device_sn: string }>`update devices set online = 0
    from (values ${values(chunk)}) as v
    where devices.group_id = v.column1 and devices.device_sn = v.column2 and devices.online = 1
    returning devices.group_id, devices.device_sn`.execute(trx);
  const changed = new Set(rows.map((r) => keyOf(r.group_id, r.device_sn)));
  const went = chunk.filter((t) => changed.has(keyOf(t.groupId, t.deviceSn)));
  if (went.length === 0) return went;
  await sql`update device_online_periods
    set ended_at = case when v.column3 < device_online_periods.started_at then device_online_periods.started_at else v.column3 end,
      end_reason = v.column4
    from (values ${values(went)}) as v
    where device_online_periods.group_id = v.column1 and device_online_periods.device_sn = v.column2
      and device_online_periods.ended_at is null`.execute(trx);
  return went;
}
