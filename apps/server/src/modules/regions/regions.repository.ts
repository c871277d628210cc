/** Regions' SQL: a region of the group, its parent, and what still uses it. */
import type { Db } from '../../db/database.ts';

export class RegionsRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async exists(id: number, groupId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('regions')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The parent of a region of the group (0 for a top region or one the group does not have). */
  async parentOf(id: number, groupId: number): Promise<number> {
    const row = await this.db
      .selectFrom('regions')
      .select('parent_id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row?.parent_id ?? 0;
  }

  /** Whether a region, project or device sits in the region. */
  async inUse(id: number): Promise<boolean> {
    const [child, project, device] = await Promise.all([
      this.db.selectFrom('regions').select('id').where('parent_id', '=', id).executeTakeFirst(),
      this.db.selectFrom('projects').select('id').where('region_id', '=', id).executeTakeFirst(),
      this.db.selectFrom('devices').select('id').where('region_id', '=', id).executeTakeFirst(),
    ]);
    return (child ?? project ?? device) !== undefined;
  }
}
