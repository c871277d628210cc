/**
 * Commands still waiting for their device's answer (device log state 0), found by send time:
 * the time-out marks them timed out (3) without scanning the whole log.
 */
import { sql, type Kysely } from 'kysely';

export const up = async (db: Kysely<unknown>) => {
  await db.schema
    .createIndex('device_logs_pending_idx')
    .on('device_logs')
    .column('send_time')
    .where(sql.ref('state'), '=', 0)
    .execute();
};
