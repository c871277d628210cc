/**
 * PostgreSQL only: raw history is partitioned by month (declarative range partitions on ts,
 * UTC months), with a default partition catching anything outside them. Partitions are made
 * ahead of time by the maintenance job; expired months are dropped whole.
 */
import { sql, type Kysely } from 'kysely';

export interface MonthRange {
  name: string;
  from: number;
  to: number;
}

/** The UTC month containing `at`, shifted by `offset` months. */
export function monthOf(at: number, offset = 0): MonthRange {
  const d = new Date(at);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1);
  const start = new Date(from);
  const to = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
  const name = `telemetry_raw_y${String(start.getUTCFullYear())}m${String(start.getUTCMonth() + 1).padStart(2, '0')}`;
  return { name, from, to };
}

/** The month partitions of raw history that exist now. */
export async function rawPartitions<T>(db: Kysely<T>): Promise<MonthRange[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname = 'telemetry_raw' and c.relname like 'telemetry_raw_y%'`.execute(db);
  return rows
    .map((r) => /^telemetry_raw_y(\d{4})m(\d{2})$/.exec(r.name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => monthOf(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)));
}

/** Makes the month partitions from `behind` months before `now` to `ahead` months after it. */
export async function ensureRawPartitions<T>(db: Kysely<T>, now: number, ahead: number, behind: number): Promise<string[]> {
  const existing = new Set((await rawPartitions(db)).map((p) => p.name));
  const made: string[] = [];
  for (let offset = -behind; offset <= ahead; offset++) {
    const month = monthOf(now, offset);
    if (existing.has(month.name)) continue;
    await createPartition(db, month);
    made.push(month.name);
  }
  return made;
}

async function createPartition<T>(db: Kysely<T>, month: MonthRange): Promise<void> {
  const table = sql.table(month.name);
  const strays = await sql<{
    n: number;
  }>`select count(*)::int as n from telemetry_raw_default where ts >= ${month.from} and ts < ${month.to}`.execute(db);
  if ((strays.rows[0]?.n ?? 0) === 0) {
    await sql`create table if not exists ${table} partition of telemetry_raw for values from (${sql.lit(month.from)}) to (${sql.lit(month.to)})`.execute(
      db,
    );
    return;
  }
  // Rows of that month already sit in the default partition: move them into the new one.
  await db.transaction().execute(async (trx) => {
    await sql`alter table telemetry_raw detach partition telemetry_raw_default`.execute(trx);
    await sql`create table ${table} partition of telemetry_raw for values from (${sql.lit(month.from)}) to (${sql.lit(month.to)})`.execute(
      trx,
    );
    await sql`insert into ${table} select * from telemetry_raw_default where ts >= ${month.from} and ts < ${month.to}`.execute(
      trx,
    );
    await sql`delete from telemetry_raw_default where ts >= ${month.from} and ts < ${month.to}`.execute(trx);
    await sql`alter table telemetry_raw attach partition telemetry_raw_default default`.execute(trx);
  });
}

/** Drops the month partitions that end before `cutoff`; answers their names. */
export async function dropRawPartitionsBefore<T>(db: Kysely<T>, cutoff: number): Promise<string[]> {
  const dropped: string[] = [];
  for (const month of await rawPartitions(db)) {
    if (month.to > cutoff) continue;
    await sql`drop table if exists ${sql.table(month.name)}`.execute(db);
    dropped.push(month.name);
  }
  return dropped;
}
