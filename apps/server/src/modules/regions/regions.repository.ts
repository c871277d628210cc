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

  /** A region of the group and every region under it, or [] when the group has no such region. */
  async withDescendants(id: number, groupId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('regions').select(['id', 'parent_id']).where('group_id', '=', groupId).execute();
    if (!rows.some((r) => r.id === id)) return [];
    const found = [id];
    for (let i = 0; i < found.length; i++) {
      for (const r of rows) if (r.parent_id === found[i] && !found.includes(r.id)) found.push(r.id);
    }
    return found;
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
