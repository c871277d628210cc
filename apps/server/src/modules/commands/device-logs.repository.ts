/** The device log: each command sent to a device (key, old and new value, when) and its acknowledgement; operators' notes. */
import type { Insertable, Selectable } from 'kysely';
import { DEVICE_LOG_STATE } from '@sluice/shared/telemetry.schema';
import type { Db } from '../../db/database.ts';
import type { DeviceLogTable } from '../../db/tables.ts';
import { likeAny } from '../../http/resource.ts';

export type DeviceLogRow = Selectable<DeviceLogTable>;

export class DeviceLogsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async insert(row: Insertable<DeviceLogTable>): Promise<DeviceLogRow> {
    return this.db.insertInto('device_logs').values(row).returningAll().executeTakeFirstOrThrow();
  }

  /** Records a device's acknowledgement; the log row, or undefined when the command is unknown. */
  async acknowledge(
    groupId: number,
    deviceSn: string,
    commandId: string,
    done: boolean,
    message: string,
    at: number,
  ): Promise<DeviceLogRow | undefined> {
    await this.db
      .updateTable('device_logs')
      .set({ state: done ? DEVICE_LOG_STATE.done : DEVICE_LOG_STATE.refusedByDevice, ack_time: at, message })
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('command_id', '=', commandId)
      .execute();
    return this.db
      .selectFrom('device_logs')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('command_id', '=', commandId)
      .executeTakeFirst();
  }

  /** Marks the commands sent at or before `sentBy` that no device has answered as timed out; those rows. */
  async expire(sentBy: number): Promise<DeviceLogRow[]> {
    return this.db
      .updateTable('device_logs')
      .set({ state: DEVICE_LOG_STATE.timedOut })
      .where('state', '=', DEVICE_LOG_STATE.sent)
      .where('send_time', '<=', sentBy)
      .returningAll()
      .execute();
  }

  /** Deletes one row of a device's log; whether there was one. */
  async delete(groupId: number, deviceSn: string, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('device_logs')
      .where('group_id', '=', groupId)
      .where('device_sn', '=', deviceSn)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async page(
    groupId: number,
    deviceSn: string,
    filter: { from?: number | undefined; to?: number | undefined; search?: string | undefined; desc: boolean },
    page: { no: number; size: number },
  ): Promise<{ rows: DeviceLogRow[]; count: number }> {
    let q = this.db.selectFrom('device_logs').where('group_id', '=', groupId).where('device_sn', '=', deviceSn);
    if (filter.from !== undefined) q = q.where('send_time', '>=', filter.from);
    if (filter.to !== undefined) q = q.where('send_time', '<', filter.to);
    if (filter.search) q = q.where(likeAny(['data_key', 'key_name', 'user_name', 'message'], filter.search));
    const { count } = await q.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    const rows = await q
      .selectAll()
      .orderBy('send_time', filter.desc ? 'desc' : 'asc')
      .orderBy('id', filter.desc ? 'desc' : 'asc')
      .limit(page.size)
      .offset((page.no - 1) * page.size)
      .execute();
    return { rows, count };
  }
}
