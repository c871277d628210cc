/** Clients' SQL beyond the generic resource. */
import type { Db } from '../../db/database.ts';

export class ClientsRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async exists(id: number, groupId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('clients')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row !== undefined;
  }
}
