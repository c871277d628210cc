/** A device's cameras, and the provider token cached on each. Scoped by group. */
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DeviceVideoTable } from '../../db/tables.ts';

export type DeviceVideoRow = Selectable<DeviceVideoTable>;

export class DeviceVideosRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async find(groupId: number, id: number): Promise<DeviceVideoRow | undefined> {
    return this.db
      .selectFrom('device_videos')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Keeps the provider's token (sealed) and when it expires; an empty token forgets it. */
  async saveToken(groupId: number, id: number, sealedToken: string, expireTime: number | null): Promise<void> {
    await this.db
      .updateTable('device_videos')
      .set({ access_token: sealedToken, expire_time: expireTime })
      .where('group_id', '=', groupId)
      .where('id', '=', id)
      .execute();
  }

  /** A purged device takes its cameras along. */
  async removeOfDevice(groupId: number, deviceSn: string): Promise<void> {
    await this.db.deleteFrom('device_videos').where('group_id', '=', groupId).where('device_sn', '=', deviceSn).execute();
  }
}
