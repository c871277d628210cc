/** A device's SIM card (its ICCID). Scoped by group. */
import type { Db } from '../../db/database.ts';

export interface DeviceCard {
  Id: number;
  DeviceSn: string;
  ICCID: string;
  /** whether a SIM provider is configured to answer the card's data (not yet: the SIM issue) */
  SimConfigured: boolean;
  Sim: null;
}

export class DeviceCardsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async of(groupId: number, sn: string): Promise<DeviceCard | undefined> {
    const row = await this.db
      .selectFrom('device_cards')
      .select(['id', 'device_sn', 'iccid'])
      .where('group_id', '=', groupId)
      .where('device_sn', '=', sn)
      .executeTakeFirst();
    return row && { Id: row.id, DeviceSn: row.device_sn, ICCID: row.iccid, SimConfigured: false, Sim: null };
  }

  /** Sets the device's ICCID, adding the card when it has none. */
  async set(groupId: number, sn: string, iccid: string, now = Date.now()): Promise<void> {
    const existing = await this.of(groupId, sn);
    if (existing) {
      await this.db
        .updateTable('device_cards')
        .set({ iccid })
        .where('id', '=', existing.Id)
        .where('group_id', '=', groupId)
        .execute();
    } else {
      await this.db.insertInto('device_cards').values({ group_id: groupId, device_sn: sn, iccid, created_at: now }).execute();
    }
  }

  async remove(groupId: number, sn: string, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('device_cards')
      .where('id', '=', id)
      .where('device_sn', '=', sn)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
