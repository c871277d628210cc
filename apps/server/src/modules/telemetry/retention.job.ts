/**
 * Retention of live data and of the audit trail, run hourly: raw rows older than
 * HISTORY_RAW_DAYS, hourly roll-ups older than HISTORY_HOURLY_DAYS, daily ones older than
 * HISTORY_DAILY_DAYS and audit entries older than AUDIT_RETENTION_DAYS (0 keeps for ever) are
 * deleted (audit entries in chunks through Kysely, yielding between them: they are few). On PostgreSQL the job also makes the raw history's month partitions three
 * months ahead and drops expired months whole (the rows left to delete are then those of the
 * month the limit falls in); it runs under an advisory lock, so that of several server
 * instances one does the work.
 *
 * Rows are deleted in chunks of at most `chunkRows`, each its own statement (retention-chunks.ts):
 * one statement over millions of rows held the (synchronous) SQLite connection for seconds
 * (14.5 M rows: 8.3 s with nothing else served). On SQLite the chunks run in the ingest writer's
 * thread, between its batches, so that the main thread never runs a delete (chunks on the main
 * thread still stalled it 151–656 ms at load 10–20); on PostgreSQL on the job's connection.
 */
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { DialectName } from '../../db/migrations.ts';
import { dropRawPartitionsBefore, ensureRawPartitions } from '../../db/telemetry-partitions.ts';
import { KyselyExpiredRows, type ExpiredRows, type RetentionTable } from './retention-chunks.ts';
import { AuditRepository } from '../audit/audit.repository.ts';

const DAY = 86_400_000;
/** pg_advisory_lock key of the job ('sluice retention'). */
const LOCK_KEY = 0x5e1ce;

export interface RetentionReport {
  ran: boolean;
  raw: number;
  hourly: number;
  daily: number;
  /** Audit trail entries past AUDIT_RETENTION_DAYS. */
  audit: number;
  partitionsMade: string[];
  partitionsDropped: string[];
}

export class RetentionJob {
  private readonly db: Db;
  private readonly dialect: DialectName;
  private readonly config: Pick<
    Config,
    'HISTORY_RAW_DAYS' | 'HISTORY_HOURLY_DAYS' | 'HISTORY_DAILY_DAYS' | 'AUDIT_RETENTION_DAYS'
  >;
  private readonly log: FastifyBaseLogger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  private readonly chunkRows: number;
  /** Where SQLite's deletes run (the ingest writer's thread); by default through `db`. */
  private readonly expired: ExpiredRows | undefined;

  constructor(
    db: Db,
    dialect: DialectName,
    config: RetentionJob['config'],
    log: FastifyBaseLogger,
    options: { chunkRows?: number; expired?: ExpiredRows | undefined } = {},
  ) {
    this.db = db;
    this.dialect = dialect;
    this.config = config;
    this.log = log;
    this.chunkRows = options.chunkRows ?? 2000;
    this.expired = dialect === 'sqlite' ? options.expired : undefined;
  }

  /** Runs hourly (first after 5 s) while this instance `leads` (the job leader; on SQLite always). */
  start(leads: () => boolean = () => true, intervalMs = 3_600_000): void {
    this.stopped = false;
    const tick = () => {
      if (!leads()) return;
      this.running ??= this.run()
        .catch((error: unknown) => {
          this.log.error({ err: error }, 'retention of live data failed');
        })
        .finally(() => {
          this.running = undefined;
        });
    };
    setTimeout(tick, 5000).unref();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer, and a run under way after its current chunk (what it deleted stays deleted). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.stopped = true;
    await this.running;
  }

  async run(now = Date.now()): Promise<RetentionReport> {
    if (this.dialect === 'sqlite') return this.work(this.db, now);
    return this.db.connection().execute(async (conn) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${LOCK_KEY}) as locked`.execute(conn);
      if (!rows[0]?.locked)
        return { ran: false, raw: 0, hourly: 0, daily: 0, audit: 0, partitionsMade: [], partitionsDropped: [] };
      try {
        return await this.work(conn, now);
      } finally {
        await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
      }
    });
  }

  private async work(db: Db, now: number): Promise<RetentionReport> {
    const report: RetentionReport = {
      ran: true,
      raw: 0,
      hourly: 0,
      daily: 0,
      audit: 0,
      partitionsMade: [],
      partitionsDropped: [],
    };
    const { HISTORY_RAW_DAYS: rawDays, HISTORY_HOURLY_DAYS: hourlyDays, HISTORY_DAILY_DAYS: dailyDays } = this.config;
    if (this.dialect === 'postgres') {
      report.partitionsMade = await ensureRawPartitions(db, now, 3, 0);
      if (rawDays > 0) report.partitionsDropped = await dropRawPartitionsBefore(db, now - rawDays * DAY);
    }
    const expired = this.expired ?? new KyselyExpiredRows(db);
    const expire = (table: RetentionTable, days: number) =>
      days > 0 && !this.stopped
        ? expired.deleteExpired({ table, cutoff: now - days * DAY, chunkRows: this.chunkRows }, () => this.stopped)
        : Promise.resolve(0);
    report.raw = await expire('telemetry_raw', rawDays);
    report.hourly = await expire('telemetry_hourly', hourlyDays);
    report.daily = await expire('telemetry_daily', dailyDays);
    const auditDays = this.config.AUDIT_RETENTION_DAYS;
    if (auditDays > 0 && !this.stopped) {
      report.audit = await deleteExpiredAudit(
        new AuditRepository(db, this.dialect),
        now - auditDays * DAY,
        this.chunkRows,
        () => this.stopped,
      );
    }
    if (report.raw + report.hourly + report.daily + report.audit > 0 || report.partitionsDropped.length > 0)
      this.log.info(report, 'expired live data and audit entries deleted');
    return report;
  }
}

/**
 * Deletes the audit entries older than `cutoff`, tenant by tenant, `chunkRows` at a time (each
 * chunk its own short statement on the tenant's time index), yielding to the event loop between
 * chunks; answers how many.
 */
export async function deleteExpiredAudit(
  audit: AuditRepository,
  cutoff: number,
  chunkRows: number,
  stopped: () => boolean,
): Promise<number> {
  let deleted = 0;
  for (const groupId of await audit.tenants()) {
    while (!stopped()) {
      const chunk = await audit.deleteExpired(groupId, cutoff, chunkRows);
      deleted += chunk;
      if (chunk < chunkRows) break;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return deleted;
}

/** Deletes everything live data keeps of a device (when it is purged from the recycle bin). */
export async function purgeDeviceLiveData(trx: Db, device: { groupId: number; deviceSn: string }): Promise<void> {
  const series = trx
    .selectFrom('telemetry_series')
    .select('id')
    .where('group_id', '=', device.groupId)
    .where('device_sn', '=', device.deviceSn);
  for (const table of ['telemetry_raw', 'telemetry_hourly', 'telemetry_daily'] as const) {
    await trx.deleteFrom(table).where('series_id', 'in', series).execute();
  }
  await trx
    .deleteFrom('telemetry_series')
    .where('group_id', '=', device.groupId)
    .where('device_sn', '=', device.deviceSn)
    .execute();
  for (const table of ['device_latest', 'device_online_periods', 'warns', 'device_logs'] as const) {
    await trx.deleteFrom(table).where('group_id', '=', device.groupId).where('device_sn', '=', device.deviceSn).execute();
  }
}
