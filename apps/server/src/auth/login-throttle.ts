/**
 * Slows repeated sign-in failures, per account and per address. Kept in the database so that
 * several server instances share it. After a key's free failures inside the window, each further
 * failure locks the key for a doubling delay, capped at MAX_LOCK_MS. An address gets more free
 * failures than an account, since many people may share one address.
 */
import type { Db } from '../db/database.ts';

export const FREE_FAILURES = { account: 5, ip: 20 };
const WINDOW_MS = 15 * 60 * 1000;
const BASE_LOCK_MS = 30 * 1000;
const MAX_LOCK_MS = 15 * 60 * 1000;

export class LoginThrottle {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Milliseconds until any of the keys may try again; 0 if none is locked. */
  async lockedFor(keys: string[], now = Date.now()): Promise<number> {
    const rows = await this.db.selectFrom('login_throttle').select('locked_until').where('key', 'in', keys).execute();
    return Math.max(0, ...rows.map((r) => r.locked_until - now));
  }

  async recordFailure(keys: string[], now = Date.now()): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const key of keys) {
        const row = await trx.selectFrom('login_throttle').selectAll().where('key', '=', key).executeTakeFirst();
        const fresh = !row || now - row.window_start > WINDOW_MS;
        const failures = fresh ? 1 : row.failures + 1;
        const over = failures - (key.startsWith('ip:') ? FREE_FAILURES.ip : FREE_FAILURES.account);
        const lockedUntil = over > 0 ? now + Math.min(MAX_LOCK_MS, BASE_LOCK_MS * 2 ** (over - 1)) : 0;
        const values = { failures, window_start: fresh ? now : row.window_start, locked_until: lockedUntil };
        if (row) await trx.updateTable('login_throttle').set(values).where('key', '=', key).execute();
        else
          await trx
            .insertInto('login_throttle')
            .values({ key, ...values })
            .execute();
      }
    });
  }

  async clear(keys: string[]): Promise<void> {
    await this.db.deleteFrom('login_throttle').where('key', 'in', keys).execute();
  }
}
