/**
 * HJ 212 data loggers (issue 21): a device's MN and password (its SHA-256, like a device's MQTT
 * secret), and each group's table of pollutant codes → DataKeys, filled with the common codes.
 */
import { sql, type Kysely } from 'kysely';
import { HJ212_DEFAULT_CODES } from '@sluice/shared/hj212.schema';
import { dialectTypes, type DialectName } from '../dialect-types.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  await t
    .id(db.schema.createTable('hj212_loggers'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('device_sn', 'text', (c) => c.notNull().unique())
    .addColumn('mn', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .execute();
  await t
    .id(db.schema.createTable('hj212_codes'))
    .addColumn('group_id', 'integer', (c) => c.notNull().references('groups.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('data_key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('scale', 'double precision', (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint('hj212_codes_group_code', ['group_id', 'code'])
    .execute();
  const groups = await sql<{ id: number }>`SELECT id FROM groups`.execute(db);
  for (const group of groups.rows) {
    for (const c of HJ212_DEFAULT_CODES) {
      await sql`INSERT INTO hj212_codes (group_id, code, data_key, name, scale)
        VALUES (${group.id}, ${c.Code}, ${c.DataKey}, ${c.Name}, ${c.Scale})`.execute(db);
    }
  }
};
