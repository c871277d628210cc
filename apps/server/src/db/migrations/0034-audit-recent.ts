/**
 * The audit trail's newest entries (issue 22's cost): an audited write adds its entry here, in
 * its own transaction, to a table without secondary indexes — one page to write instead of four
 * (the entry and its three index entries in audit_log cost a write call on SQLite 25–40 µs, most
 * of what the trail added). The entries are moved into audit_log in batches, where each index
 * page is written once for many entries (audit.repository.ts: soon after they are written, and
 * before every read of the trail). Ids follow audit_log's: on PostgreSQL its sequence, on SQLite
 * one more than the highest of both tables (one process writes).
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect-types.ts';
import { auditColumns } from './0033-audit-log.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const table = db.schema
    .createTable('audit_recent')
    .addColumn('id', 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey().defaultTo(sql`nextval('audit_log_id_seq')`) : c.primaryKey(),
    );
  await auditColumns(table, dialect).execute();
};
