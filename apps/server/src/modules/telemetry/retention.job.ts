/**
 * Retention of live data, run hourly: raw rows older than HISTORY_RAW_DAYS, hourly roll-ups
 * older than HISTORY_HOURLY_DAYS and daily ones older than HISTORY_DAILY_DAYS (0 keeps for
 * ever) are deleted. On PostgreSQL the job also makes the raw history's month partitions three
 * months ahead and drops expired months whole; it runs under an advisory lock, so that of
 * several server instances one does the work.
 */
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { DialectName } from '../../db/migrations.ts';
import { dropRawPartitionsBefore, ensureRawPartitions } from '../../db/telemetry-partitions.ts';

const DAY = 86_400_000;
/** pg_advisory_lock key of the job ('sluice retention'). */
const LOCK_KEY = 0x5e1ce;

export interface RetentionReport {
  ran: boolean;
  raw: number;
  hourly: number;
  daily: number;
  partitionsMade: string[];
  partitionsDropped: string[];
}

export class RetentionJob {
  private readonly db: Db;
  private readonly dialect: DialectName;
  private readonly config: Pick<Config, 'HISTORY_RAW_DAYS' | 'HISTORY_HOURLY_DAYS' | 'HISTORY_DAILY_DAYS'>;
  private readonly log: FastifyBaseLogger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(db: Db, dialect: DialectName, config: RetentionJob['config'], log: FastifyBaseLogger) {
    this.db = db;
    this.dialect = dialect;
    this.config = config;
    this.log = log;
  }

  start(intervalMs = 3_600_000): void {
    const tick = () => {
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

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  async run(now = Date.now()): Promise<RetentionReport> {
    if (this.dialect === 'sqlite') return this.work(this.db, now);
    return this.db.connection().execute(async (conn) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${LOCK_KEY}) as locked`.execute(conn);
      if (!rows[0]?.locked) return { ran: false, raw: 0, hourly: 0, daily: 0, partitionsMade: [], partitionsDropped: [] };
      try {
        return await this.work(conn, now);
      } finally {
        await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
      }
    });
  }

  private async work(db: Db, now: number): Promise<RetentionReport> {
    const report: RetentionReport = { ran: true, raw: 0, hourly: 0, daily: 0, partitionsMade: [], partitionsDropped: [] };
    const { HISTORY_RAW_DAYS: rawDays, HISTORY_HOURLY_DAYS: hourlyDays, HISTORY_DAILY_DAYS: dailyDays } = this.config;
    if (this.dialect === 'postgres') {
      report.partitionsMade = await ensureRawPartitions(db, now, 3, 0);
      if (rawDays > 0) report.partitionsDropped = await dropRawPartitionsBefore(db, now - rawDays * DAY);
    }
    // Deleting by series uses the primary key (series_id, ts) instead of scanning every row.
    const expire = async (
      table: 'telemetry_raw' | 'telemetry_hourly' | 'telemetry_daily',
      column: 'ts' | 'bucket',
      days: number,
    ) => {
      if (days <= 0) return 0;
      const result =
        await sql`delete from ${sql.table(table)} where series_id in (select id from telemetry_series) and ${sql.ref(column)} < ${now - days * DAY}`.execute(
          db,
        );
      return Number(result.numAffectedRows ?? 0);
    };
    report.raw = await expire('telemetry_raw', 'ts', rawDays);
    report.hourly = await expire('telemetry_hourly', 'bucket', hourlyDays);
    report.daily = await expire('telemetry_daily', 'bucket', dailyDays);
    if (report.raw + report.hourly + report.daily > 0 || report.partitionsDropped.length > 0)
      this.log.info(report, 'expired live data deleted');
    return report;
  }
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
