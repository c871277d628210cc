/**
 * Live data: the series of each device's data points, raw history (partitioned by month on
 * PostgreSQL), hourly and daily roll-ups, each device's latest values, online periods, alarm
 * (warn) records opened by error codes, and the device log of commands.
 *
 * Raw rows are narrow on purpose — (series, time, number, text) — with the primary key
 * (series_id, ts), so that a chart's range is one index range and a re-delivered message
 * (MQTT QoS 1 may deliver twice) is stored once.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import { dialectTypes, type DialectName } from '../dialect-types.ts';
import { ensureRawPartitions } from '../telemetry-partitions.ts';

export const up = async (db: Kysely<unknown>, dialect: DialectName) => {
  const t = dialectTypes(dialect);
  const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
  const groupId = (c: ColumnDefinitionBuilder) => c.notNull().references('groups.id');
  const double = dialect === 'postgres' ? 'double precision' : 'real';
  const withoutRowid = dialect === 'sqlite' ? sql` without rowid` : sql``;

  await t
    .id(db.schema.createTable('telemetry_series'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('data_key', 'text', (c) => c.notNull())
    // 0 when the key is not among the device type's data definitions (kept, but flagged).
    .addColumn('defined', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', t.bigint, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('telemetry_series_uq').on('telemetry_series').columns(['device_sn', 'data_key']).unique().execute();
  await db.schema.createIndex('telemetry_series_group_idx').on('telemetry_series').columns(['group_id', 'device_sn']).execute();

  const bigint = dialect === 'postgres' ? sql`bigint` : sql`integer`;
  if (dialect === 'postgres') {
    await sql`create table telemetry_raw (
      series_id integer not null, ts bigint not null, num double precision, txt text,
      primary key (series_id, ts)
    ) partition by range (ts)`.execute(db);
    await sql`create table telemetry_raw_default partition of telemetry_raw default`.execute(db);
    await ensureRawPartitions(db, Date.now(), 3, 2);
  } else {
    await sql`create table telemetry_raw (
      series_id integer not null, ts integer not null, num real, txt text,
      primary key (series_id, ts)
    ) without rowid`.execute(db);
  }

  for (const table of ['telemetry_hourly', 'telemetry_daily']) {
    await sql`create table ${sql.table(table)} (
      series_id integer not null, bucket ${bigint} not null,
      cnt integer not null, sum ${sql.raw(double)} not null, min ${sql.raw(double)} not null, max ${sql.raw(double)} not null,
      first_ts ${bigint} not null, first ${sql.raw(double)} not null, last_ts ${bigint} not null, last ${sql.raw(double)} not null,
      primary key (series_id, bucket)
    )${withoutRowid}`.execute(db);
  }

  await db.schema
    .createTable('device_latest')
    .addColumn('device_sn', 'text', (c) => c.primaryKey())
    .addColumn('group_id', 'integer', (c) => c.notNull())
    // The Time of the newest message merged in; an older message (a gateway's buffer) does not overwrite.
    .addColumn('ts', t.bigint, (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('updated_at', t.bigint, (c) => c.notNull())
    .execute();

  await t
    .id(db.schema.createTable('device_online_periods'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('started_at', t.bigint, (c) => c.notNull())
    .addColumn('ended_at', t.bigint)
    .addColumn('end_reason', 'text', text)
    .execute();
  await db.schema
    .createIndex('device_online_periods_sn_idx')
    .on('device_online_periods')
    .columns(['device_sn', 'started_at'])
    .execute();
  await db.schema
    .createIndex('device_online_periods_group_idx')
    .on('device_online_periods')
    .columns(['group_id', 'started_at'])
    .execute();

  await t
    .id(db.schema.createTable('warns'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('project_id', 'integer')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('group_code', 'text', text)
    .addColumn('data_key', 'text', text)
    .addColumn('warn_type_id', 'integer')
    .addColumn('description', 'text', text)
    .addColumn('comments', 'text', text)
    // Handling: 0 not handled, 1 handled.
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    // 1 while the device still reports the code.
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('dt', t.bigint, (c) => c.notNull())
    .addColumn('cleared_at', t.bigint)
    .addColumn('handled_at', t.bigint)
    .execute();
  await db.schema.createIndex('warns_device_idx').on('warns').columns(['device_sn', 'active']).execute();
  await db.schema.createIndex('warns_group_idx').on('warns').columns(['group_id', 'dt']).execute();

  await t
    .id(db.schema.createTable('device_logs'))
    .addColumn('group_id', 'integer', groupId)
    .addColumn('device_sn', 'text', (c) => c.notNull())
    .addColumn('command_id', 'text', (c) => c.notNull().unique())
    .addColumn('data_key', 'text', (c) => c.notNull())
    .addColumn('key_name', 'text', text)
    .addColumn('old_value', 'text', text)
    .addColumn('new_value', 'text', text)
    .addColumn('send_time', t.bigint, (c) => c.notNull())
    // When the device acknowledged (null until then).
    .addColumn('ack_time', t.bigint)
    // 0 sent, 1 done, 2 refused by the device.
    .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message', 'text', text)
    .addColumn('user_id', 'integer')
    .addColumn('user_name', 'text', text)
    .execute();
  await db.schema.createIndex('device_logs_sn_idx').on('device_logs').columns(['device_sn', 'send_time']).execute();
};
