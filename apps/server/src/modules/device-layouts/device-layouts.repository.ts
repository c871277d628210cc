/** Accounts' arrangements of device pages, one per account and device, scoped by group. */
import type { LayoutItem } from '@sluice/shared/panel-layout';
import type { Db } from '../../db/database.ts';

export class DeviceLayoutsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async of(groupId: number, userId: number, sn: string): Promise<LayoutItem[] | null> {
    const row = await this.db
      .selectFrom('device_panel_layouts')
      .select('layout')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .where('device_sn', '=', sn)
      .executeTakeFirst();
    return row ? (JSON.parse(row.layout) as LayoutItem[]) : null;
  }

  /** Keeps the account's layout of the device, replacing the one before. */
  async save(groupId: number, userId: number, sn: string, layout: LayoutItem[], now = Date.now()): Promise<void> {
    await this.db
      .insertInto('device_panel_layouts')
      .values({ group_id: groupId, user_id: userId, device_sn: sn, layout: JSON.stringify(layout), updated_at: now })
      .onConflict((oc) =>
        oc.columns(['user_id', 'device_sn']).doUpdateSet({ layout: JSON.stringify(layout), updated_at: now, group_id: groupId }),
      )
      .execute();
  }

  /** Forgets the account's layout of the device: the page shows the defaults again. */
  async forget(groupId: number, userId: number, sn: string): Promise<void> {
    await this.db
      .deleteFrom('device_panel_layouts')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .where('device_sn', '=', sn)
      .execute();
  }

  /** Forgets every account's layout of a purged device. */
  async removeDevice(device: { groupId: number; deviceSn: string }): Promise<void> {
    await this.db
      .deleteFrom('device_panel_layouts')
      .where('group_id', '=', device.groupId)
      .where('device_sn', '=', device.deviceSn)
      .execute();
  }
}
