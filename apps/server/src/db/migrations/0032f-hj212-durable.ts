/**
 * HJ 212 state that must outlive a restart (issue 21): a supervising platform's requests for a
 * range again (answered 9011 when stored, sent and closed with 9012 by the forwarding job on
 * the job leader), and the parts of a logger's split upload (PNUM/PNO), each answered once
 * stored here, joined into one upload when the last has come (or when the split is left open).
 */
import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  await t
    .id(db.schema.createTable('hj212_forward_requests'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('forward_id', 'integer', (c) => c.notNull().references('hj212_forwards.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // The start of the next period to send, and EndTime (periods starting after it are not sent).
    .addColumn('next_at', t.bigint, (c) => c.notNull())
    .addColumn('end_at', t.bigint, (c) => c.notNull())
    .addColumn('qn', 'text', (c) => c.notNull().defaultTo(''))
    // Whether a period of the range held data (9012's ExeRtn 1, else 100).
    .addColumn('sent_any', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('hj212_forward_requests_forward_idx').on('hj212_forward_requests').column('forward_id').execute();
  await t
    .id(db.schema.createTable('hj212_split_parts'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('cn', 'text', (c) => c.notNull())
    .addColumn('qn', 'text', (c) => c.notNull())
    .addColumn('pnum', 'integer', (c) => c.notNull())
    .addColumn('pno', 'integer', (c) => c.notNull())
    // The part's CP fields as sent (JSON [key, value] pairs), DataTime among them when it has one.
    .addColumn('cp', 'text', (c) => c.notNull())
    .addColumn('received_at', t.bigint, (c) => c.notNull())
    // A part sent again (its answer lost) is the same part.
    .addUniqueConstraint('hj212_split_parts_part', ['device_sn', 'cn', 'qn', 'pno'])
    .execute();
  await db.schema.createIndex('hj212_split_parts_received_idx').on('hj212_split_parts').column('received_at').execute();
};
