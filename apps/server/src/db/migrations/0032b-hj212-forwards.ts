/**
 * HJ 212 forwarding (issue 21): links from a station's device to a supervising platform, with
 * the platform's address, the MN and password Sluice sends as (sealed), which codes and data
 * kinds, the minute interval, and how far each kind has been sent and answered.
 */
import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  await t
    .id(db.schema.createTable('hj212_forwards'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('port', 'integer', (c) => c.notNull())
    .addColumn('mn', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull())
    .addColumn('codes', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('kinds', 'text', (c) => c.notNull().defaultTo('minute'))
    .addColumn('minute_interval', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    // Epoch ms from which data is sent; then, per kind, the end of the last period answered (JSON).
    .addColumn('start_at', t.bigint, (c) => c.notNull())
    .addColumn('cursors', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.createIndex('hj212_forwards_device_idx').on('hj212_forwards').columns(['group_id', 'device_sn']).execute();
};
