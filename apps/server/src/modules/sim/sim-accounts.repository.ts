/** SIM provider accounts' SQL beyond the generic resource: a group's accounts, oldest first. */
import type { Db } from '../../db/database.ts';

export class SimAccountsRepository {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  ofGroup(groupId: number) {
    return this.db.selectFrom('sim_accounts').selectAll().where('group_id', '=', groupId).orderBy('id').execute();
  }
}
