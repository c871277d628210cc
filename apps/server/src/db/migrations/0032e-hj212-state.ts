/**
 * HJ 212 state every instance can answer (issue 20): a logger's counters, last packet, last
 * refusal and the instance its connection is held by, and a forwarding link's state as the job
 * leader last saw it. Before, each instance kept them in memory, so a console served by another
 * instance than the one a logger or the forwarding job ran on showed nothing.
 */
import type { Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  for (const [column, type, fallback] of [
    ['received', 'integer', 0],
    ['stored', 'integer', 0],
    ['refused', 'text', '{}'],
    ['last_refusal', 'text', ''],
    ['connection', 'text', ''],
  ] as const) {
    await db.schema
      .alterTable('hj212_loggers')
      .addColumn(column, type, (c) => c.notNull().defaultTo(fallback))
      .execute();
  }
  await db.schema.alterTable('hj212_loggers').addColumn('last_packet', t.bigint).execute();
  for (const [column, type, fallback] of [
    ['link_connected', 'integer', 0],
    ['link_backlog', 'integer', 0],
    ['last_error', 'text', ''],
  ] as const) {
    await db.schema
      .alterTable('hj212_forwards')
      .addColumn(column, type, (c) => c.notNull().defaultTo(fallback))
      .execute();
  }
  await db.schema.alterTable('hj212_forwards').addColumn('last_sent', t.bigint).execute();
  await db.schema.alterTable('hj212_forwards').addColumn('state_at', t.bigint).execute();
};
