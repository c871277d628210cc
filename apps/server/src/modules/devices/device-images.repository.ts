/** A device's images, by rank. Scoped by group. */
import type { Db } from '../../db/database.ts';
import { imageUrl } from '../sites/projects.repository.ts';

export interface DeviceImage {
  Id: number;
  DeviceSn: string;
  ImageName: string;
  Rank: number;
  url: string;
}

export class DeviceImagesRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  async list(groupId: number, sn: string): Promise<DeviceImage[]> {
    const rows = await this.db
      .selectFrom('device_images')
      .select(['id', 'device_sn', 'image_name', 'rank', 'storage_key'])
      .where('group_id', '=', groupId)
      .where('device_sn', '=', sn)
      .orderBy('rank')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      Id: r.id,
      DeviceSn: r.device_sn,
      ImageName: r.image_name,
      Rank: r.rank,
      url: imageUrl(r.storage_key),
    }));
  }

  /** Adds an image at the asked rank, or after the last. */
  async add(
    groupId: number,
    sn: string,
    image: { name: string; key: string; rank?: number | undefined },
    now = Date.now(),
  ): Promise<DeviceImage> {
    const top = await this.db
      .selectFrom('device_images')
      .select((eb) => eb.fn.max<number | null>('rank').as('max'))
      .where('group_id', '=', groupId)
      .where('device_sn', '=', sn)
      .executeTakeFirstOrThrow();
    const rank = image.rank ?? (top.max === null ? 0 : top.max + 1);
    const row = await this.db
      .insertInto('device_images')
      .values({ group_id: groupId, device_sn: sn, image_name: image.name, storage_key: image.key, rank, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { Id: row.id, DeviceSn: sn, ImageName: image.name, Rank: rank, url: imageUrl(image.key) };
  }

  /** Deletes one image of the device; answers its storage key, or undefined when there is none. */
  async remove(groupId: number, sn: string, id: number): Promise<string | undefined> {
    const row = await this.db
      .deleteFrom('device_images')
      .where('id', '=', id)
      .where('device_sn', '=', sn)
      .where('group_id', '=', groupId)
      .returning('storage_key')
      .executeTakeFirst();
    return row?.storage_key;
  }
}
