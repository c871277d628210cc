/**
 * HJ 212 forwarding sends each period's total (-Cou, issue 21): a code is a flow (its volume),
 * a pollutant (its load) or neither. Existing tables take the standard's meaning of the codes
 * every group started with.
 */
import { sql, type Kysely } from 'kysely';
import { HJ212_DEFAULT_CODES } from '@sluice/shared/hj212.schema';

export const up = async (db: Kysely<unknown>) => {
  await db.schema
    .alterTable('hj212_codes')
    .addColumn('total', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  for (const c of HJ212_DEFAULT_CODES) {
    if (c.Total !== '') await sql`UPDATE hj212_codes SET total = ${c.Total} WHERE code = ${c.Code}`.execute(db);
  }
};
