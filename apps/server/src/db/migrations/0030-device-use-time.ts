/**
 * The day a device was put into use (spec §7 Devices, legacy Device/UpdateDeviceUseTime), as
 * YYYY-MM-DD text; '' while nobody has said.
 */
import type { Kysely } from 'kysely';

export const up = async (db: Kysely<unknown>) => {
  await db.schema
    .alterTable('devices')
    .addColumn('use_time', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
};
