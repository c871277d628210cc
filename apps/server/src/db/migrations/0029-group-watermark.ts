/**
 * The watermark of spec §2 (a canvas with the account and the time over signed-in pages) is set
 * per group: on for every group unless its administrator or the platform administrator turns it off.
 */
import type { Kysely } from 'kysely';

export const up = async (db: Kysely<unknown>) => {
  await db.schema
    .alterTable('groups')
    .addColumn('watermark', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
};
