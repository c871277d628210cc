/**
 * Schema migrations, run at start. The same code serves SQLite and PostgreSQL; only the
 * identity column and the wide integer type differ, and `dialectTypes` hides that.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { DialectName } from './dialect-types.ts';
import { up as accounts } from './migrations/0001-accounts.ts';
import { up as administration } from './migrations/0002-administration.ts';
import { up as sites } from './migrations/0003-sites.ts';
import { up as deviceTypes } from './migrations/0004-device-types.ts';
import { up as telemetry } from './migrations/0005-telemetry.ts';
import { up as deviceTypeParts } from './migrations/0006-device-type-parts.ts';
import { up as deviceLogPending } from './migrations/0007-device-log-pending.ts';
import { up as alarmHandling } from './migrations/0009-alarm-handling.ts';
import { up as notifications } from './migrations/0010-notifications.ts';
import { up as deviceHardware } from './migrations/0011-device-hardware.ts';
import { up as panelLayouts } from './migrations/0014-panel-layouts.ts';
import { up as deviceRunModel } from './migrations/0016-device-run-model.ts';
import { up as deviceVideos } from './migrations/0019-device-videos.ts';
import { up as fieldRecords } from './migrations/0020-field-records.ts';
import { up as boxDataMenu } from './migrations/0024-box-data-menu.ts';
import { up as roundChemicals } from './migrations/0027-round-chemicals.ts';
import { up as maintenance } from './migrations/0027b-maintenance.ts';
import { up as groupWatermark } from './migrations/0029-group-watermark.ts';
import { up as deviceUseTime } from './migrations/0030-device-use-time.ts';
import { up as hj212 } from './migrations/0032-hj212.ts';
import { up as hj212Forwards } from './migrations/0032b-hj212-forwards.ts';
import { up as hj212Menu } from './migrations/0032c-hj212-menu.ts';
import { up as hj212Totals } from './migrations/0032d-hj212-totals.ts';
import { up as hj212State } from './migrations/0032e-hj212-state.ts';
import { up as hj212Durable } from './migrations/0032f-hj212-durable.ts';
import { up as auditLog } from './migrations/0033-audit-log.ts';
import { up as auditRecent } from './migrations/0034-audit-recent.ts';

export { dialectTypes, type DialectName } from './dialect-types.ts';

type Step = (db: Kysely<unknown>, dialect: DialectName) => Promise<void>;

/**
 * Applied in order of name. Each feature adds its own file; unordered application is allowed
 * so that features landing in a different order than their numbers still migrate.
 */
const steps: [string, Step][] = [
  ['0001_accounts', accounts],
  ['0002_administration', administration],
  ['0003_sites', sites],
  ['0004_device_types', deviceTypes],
  ['0005_telemetry', telemetry],
  ['0006_device_type_parts', deviceTypeParts],
  ['0007_device_log_pending', deviceLogPending],
  ['0009_alarm_handling', alarmHandling],
  ['0010_notifications', notifications],
  ['0011_device_hardware', deviceHardware],
  ['0014_panel_layouts', panelLayouts],
  ['0016_device_run_model', deviceRunModel],
  ['0019_device_videos', deviceVideos],
  ['0020_field_records', fieldRecords],
  ['0024_box_data_menu', boxDataMenu],
  ['0027_round_chemicals', roundChemicals],
  ['0027b_maintenance', maintenance],
  ['0029_group_watermark', groupWatermark],
  ['0030_device_use_time', deviceUseTime],
  ['0032_hj212', hj212],
  ['0032b_hj212_forwards', hj212Forwards],
  ['0032c_hj212_menu', hj212Menu],
  ['0032d_hj212_totals', hj212Totals],
  ['0032e_hj212_state', hj212State],
  ['0032f_hj212_durable', hj212Durable],
  ['0033_audit_log', auditLog],
  ['0034_audit_recent', auditRecent],
];

/** The migrations' names, in order. */
export const migrationNames = (): string[] => steps.map(([name]) => name);

/**
 * The last migration of the previous release. A migration is never changed once released (a
 * database that ran it will not run it again); the upgrade test builds a database with the
 * migrations up to this one, fills it, and migrates it to the current schema. Move it forward
 * when a release ships.
 */
export const PREVIOUS_RELEASE = '0005_telemetry';

class InlineProvider implements MigrationProvider {
  readonly dialect: DialectName;
  constructor(dialect: DialectName) {
    this.dialect = dialect;
  }
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(
      Object.fromEntries(steps.map(([name, up]) => [name, { up: (db: Kysely<unknown>) => up(db, this.dialect) }])),
    );
  }
}

/** The migrations this server knows that the database has not run (none once it is up to date). */
export async function pendingMigrations(db: Kysely<unknown>, dialect: DialectName): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new InlineProvider(dialect), allowUnorderedMigrations: true });
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Migrates to the latest schema, or up to the migration named (the upgrade test's older database). */
export async function migrate(db: Kysely<unknown>, dialect: DialectName, upTo?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: new InlineProvider(dialect), allowUnorderedMigrations: true });
  const { error, results } = upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo);
  const failed = results?.find((r) => r.status === 'Error');
  if (error ?? failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed`, { cause: error });
  }
}
