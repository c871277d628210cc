/**
 * Alarm handling: who handled an alarm (the user, and their name as it was), and where the
 * alarm came from (a device's error code or data, the offline time-out, or a person adding it),
 * with the indexes the notice centre's lists and the header's count read by.
 */
import type { Kysely } from 'kysely';

export const up = async (db: Kysely<unknown>) => {
  await db.schema.alterTable('warns').addColumn('handled_by', 'integer').execute();
  await db.schema
    .alterTable('warns')
    .addColumn('handled_by_name', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  // device (error topic or linked data), offline, manual.
  await db.schema
    .alterTable('warns')
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('device'))
    .execute();
  await db.schema.createIndex('warns_group_state_idx').on('warns').columns(['group_id', 'state', 'active']).execute();
};
