/**
 * Chemicals added on an inspection round (issue 16's monthly report: chemicals dosed): a round
 * keeps what was put into the dosing tanks as a JSON array of { Chemical, Quantity, Unit }.
 */
import type { Kysely } from 'kysely';

export const up = async (db: Kysely<unknown>) => {
  await db.schema
    .alterTable('polls')
    .addColumn('chemicals', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
};
