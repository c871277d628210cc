/**
 * Removing a tenant: every row of the group, in one transaction (but its audit trail's, which
 * outlives the tenant until its retention). The tables are read from the
 * database itself (those with a group_id column, and the foreign keys between them), so a table
 * added later goes with its group without a list here to keep: rows that refer to others are
 * deleted before those they refer to. Rows without a group_id go with their owner: sessions and
 * role links by their foreign keys' ON DELETE CASCADE, telemetry by its series. The keys of its
 * stored files are read from the columns storage/upload-keys.ts declares, for the caller to
 * delete the files once the rows are gone.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { DialectName } from '../../db/migrations.ts';
import { UPLOAD_KEY_COLUMNS, uploadKeyOf } from '../../storage/upload-keys.ts';

/** Tables whose rows of the group stay: the audit trail outlives its tenant until its retention. */
const KEPT_TABLES = new Set(['audit_log', 'audit_recent']);

/** Telemetry values keyed by their series (no group_id, no foreign key: too many rows for one). */
const SERIES_TABLES = ['telemetry_raw', 'telemetry_hourly', 'telemetry_daily'] as const;

/** What a group holds, as its confirmation names it. */
export interface TenantContents {
  Users: number;
  Devices: number;
  Sites: number;
  Clients: number;
}

/** What removing a group leaves to do once it has committed. */
export interface RemovedTenant {
  userIds: number[];
  deviceSns: string[];
  /** The stored files its rows referred to (none still referred to by another group's row). */
  fileKeys: string[];
}

/** Values per IN list, within every database's limit on bound parameters. */
const IN_CHUNK = 500;

/** The keys of the stored files the group's rows refer to (the group's own row: its logo). */
async function fileKeysOf(trx: Db, groupId: number): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const entry of UPLOAD_KEY_COLUMNS) {
    const owner = entry.table === 'groups' ? 'id' : 'group_id';
    const rows = await sql<{ value: unknown }>`select ${sql.ref(entry.column)} as value from ${sql.table(entry.table)}
      where ${sql.ref(owner)} = ${groupId}`.execute(trx);
    for (const { value } of rows.rows) {
      const key = uploadKeyOf(entry, value);
      if (key !== undefined) keys.add(key);
    }
  }
  return keys;
}

/** Of `keys`, those a row still refers to (once the group's rows are deleted: another group's). */
async function stillReferred(trx: Db, keys: string[]): Promise<Set<string>> {
  const referred = new Set<string>();
  for (const entry of UPLOAD_KEY_COLUMNS) {
    for (let at = 0; at < keys.length; at += IN_CHUNK) {
      const values = keys.slice(at, at + IN_CHUNK).map((key) => entry.prefix + key);
      const rows = await sql<{ value: unknown }>`select ${sql.ref(entry.column)} as value from ${sql.table(entry.table)}
        where ${sql.ref(entry.column)} in (${sql.join(values)})`.execute(trx);
      for (const { value } of rows.rows) {
        const key = uploadKeyOf(entry, value);
        if (key !== undefined) referred.add(key);
      }
    }
  }
  return referred;
}

/** The tables with a group_id column, and the tables each of them refers to. */
async function groupTables(db: Db, dialect: DialectName): Promise<Map<string, Set<string>>> {
  const withGroup =
    dialect === 'sqlite'
      ? await sql<{ table: string }>`select m.name as "table" from sqlite_master m join pragma_table_info(m.name) c
          where m.type = 'table' and c.name = 'group_id'`.execute(db)
      : await sql<{ table: string }>`select c.table_name as "table" from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = current_schema() and c.column_name = 'group_id' and t.table_type = 'BASE TABLE'`.execute(db);
  const links =
    dialect === 'sqlite'
      ? await sql<{ table: string; ref: string }>`select m.name as "table", f."table" as ref from sqlite_master m
          join pragma_foreign_key_list(m.name) f where m.type = 'table'`.execute(db)
      : await sql<{ table: string; ref: string }>`select tc.table_name as "table", ccu.table_name as ref
          from information_schema.table_constraints tc
          join information_schema.constraint_column_usage ccu
            on ccu.constraint_name = tc.constraint_name and ccu.constraint_schema = tc.constraint_schema
          where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`.execute(db);
  const tables = new Map(
    withGroup.rows.filter(({ table }) => !KEPT_TABLES.has(table)).map(({ table }) => [table, new Set<string>()]),
  );
  for (const { table, ref } of links.rows) if (ref !== table) tables.get(table)?.add(ref);
  return tables;
}

/** Referring tables before the tables they refer to (a cycle, should one appear, is broken anywhere). */
export function deletionOrder(tables: Map<string, Set<string>>): string[] {
  const order: string[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const referrers = (table: string) => [...tables].filter(([, refs]) => refs.has(table)).map(([name]) => name);
  const place = (table: string) => {
    if (placed.has(table) || visiting.has(table)) return;
    visiting.add(table);
    for (const referrer of referrers(table)) place(referrer);
    visiting.delete(table);
    placed.add(table);
    order.push(table);
  };
  for (const table of [...tables.keys()].sort()) place(table);
  return order;
}

export class TenantRemovalRepository {
  private readonly db: Db;
  private readonly dialect: DialectName;
  constructor(db: Db, dialect: DialectName) {
    this.db = db;
    this.dialect = dialect;
  }

  async contents(groupId: number): Promise<TenantContents> {
    const count = async (table: 'users' | 'devices' | 'projects' | 'clients') => {
      const row = await this.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('group_id', '=', groupId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    return {
      Users: await count('users'),
      Devices: await count('devices'),
      Sites: await count('projects'),
      Clients: await count('clients'),
    };
  }

  /** Deletes the group and every row of it, together; answers whose sessions and devices to end, and which files to delete. */
  async remove(groupId: number): Promise<RemovedTenant> {
    const order = deletionOrder(await groupTables(this.db, this.dialect));
    return this.db.transaction().execute(async (trx) => {
      const userIds = (await trx.selectFrom('users').select('id').where('group_id', '=', groupId).execute()).map((r) => r.id);
      const deviceSns = (await trx.selectFrom('devices').select('device_sn').where('group_id', '=', groupId).execute()).map(
        (r) => r.device_sn,
      );
      const keys = await fileKeysOf(trx, groupId);
      const series = trx.selectFrom('telemetry_series').select('id').where('group_id', '=', groupId);
      for (const table of SERIES_TABLES) await trx.deleteFrom(table).where('series_id', 'in', series).execute();
      for (const table of order) await sql`delete from ${sql.table(table)} where group_id = ${groupId}`.execute(trx);
      await trx.deleteFrom('groups').where('id', '=', groupId).execute();
      const shared = await stillReferred(trx, [...keys]);
      return { userIds, deviceSns, fileKeys: [...keys].filter((key) => !shared.has(key)) };
    });
  }
}
