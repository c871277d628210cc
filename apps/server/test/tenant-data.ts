/**
 * A tenant with a row in every table, for the security suite: what another tenant must neither
 * see nor change. Built in group 1 right after start-up, before any other tenant exists, so that
 * the first row of every table (id 1) is this tenant's: a request that names "record 1" anywhere
 * names one of its records. Every name-like text of its rows carries MARKER, which another
 * tenant's answers and rows must never hold.
 */
import { sql } from 'kysely';
import { ADMIN, type TestApp } from './harness.ts';
import {
  buildCategory,
  buildClient,
  buildDataDefine,
  buildFullType,
  buildPrincipal,
  buildRegion,
  buildRole,
  buildSites,
  buildUser,
  buildWarnCode,
  buildWarnType,
} from './factories.ts';
import { declaredSchema } from './schema.ts';
import { TelemetryWriteRepository } from '../src/modules/telemetry/telemetry-write.repository.ts';

export const MARKER = 'ZQXA';

/** Tables a tenant's data need not fill: throttling counters are keyed by account and address, not by tenant. */
const NOT_TENANT_DATA = new Set(['login_throttle']);
/** Tables the tenant holds no row of: their rows move on by themselves (the newest audit entries, into audit_log). */
const TRANSIENT = new Set(['audit_recent']);

export interface TenantData {
  groupId: number;
  deviceSn: string;
  warnCode: string;
  /** Answers a digest of the tenant's rows in every table (to tell whether a call changed any), and whether any other tenant's row holds MARKER. */
  snapshot: () => Promise<{ tables: Map<string, string>; markedElsewhere: string[] }>;
}

/** Builds the tenant's data in group 1, which must be the only group yet. */
export async function buildTenantData(t: TestApp): Promise<TenantData> {
  const { db, dialect, secrets } = t.app.ctx;
  const groupId = 1;
  const now = Date.now();
  const g = { group_id: groupId };

  const role = await buildRole(db, { groupId, name: `Inspectors ${MARKER}`, operates: ['device.view', 'project.view'] });
  const inspector = await buildUser(db, { groupId, userName: 'Inspector', roles: [role] });
  await buildClient(db, { groupId, name: 'Client' });
  await buildRegion(db, { groupId, name: 'Region' });
  const category = await buildCategory(db, { groupId, name: `Tag ${MARKER}` });
  const type = await buildFullType(db, { groupId, name: 'Station type' });
  await buildDataDefine(db, { groupId, key: 'Note', name: 'Note', type: 'string', category });
  const sn = 'SLZQXA000001';
  const sites = await buildSites(t.app.ctx, {
    groupId,
    tree: {
      client: 'Client node',
      projects: [
        {
          name: 'Project',
          stations: [{ name: 'Station', devices: [{ sn, name: 'Pump', online: true, typeId: type.id }] }],
        },
      ],
    },
    roles: [{ roleId: role }],
  });
  const station = sites.id('Station');
  await buildPrincipal(db, { groupId, projectId: station, name: 'Principal' });
  const warnType = await buildWarnType(db, { groupId, name: 'Warn type' });
  const warnCode = await buildWarnCode(db, {
    groupId,
    warnTypeId: warnType,
    code: 'Q901',
    description: 'Fault',
    dataKey: 'Note',
  });
  const { id: menu } = await db
    .insertInto('sys_menus')
    .values({ ...g, name: 'Menu', parent_id: 0, url: '', router: '', menu_type: 0, icon: '', remarks: '', sn: 99 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('role_menus').values({ role_id: role, menu_id: menu }).execute();

  await db
    .insertInto('project_images')
    .values({ ...g, project_id: station, storage_key: 'project-images/a.png', sn: 0, created_at: now })
    .execute();
  await db
    .insertInto('project_affiliates')
    .values({ ...g, project_id: station, affiliate_name: 'Capacity', affiliate_value: '50' })
    .execute();
  const device = { ...g, device_sn: sn };
  await db
    .insertInto('device_migrations')
    .values({
      ...device,
      from_project_id: null,
      from_project_name: '',
      to_project_id: station,
      to_project_name: 'Station',
      user_id: 1,
      user_name: 'admin',
      created_at: now,
    })
    .execute();
  await db
    .insertInto('device_configs')
    .values({ ...device, data_name: 'Slave', data_type: 'textbox', data_value: '3' })
    .execute();
  await db
    .insertInto('device_hardware_configs')
    .values({ ...device, data_define_id: type.keys.get('TankLevel') ?? 0, no: 'AI01', reg_ad: 4, lens: 2 })
    .execute();
  await db
    .insertInto('device_panel_layouts')
    .values({ ...device, user_id: inspector.id, layout: '[{"i":"p1","x":0,"y":0,"w":6,"h":7}]', updated_at: now })
    .execute();
  await db
    .insertInto('device_accessories')
    .values({ ...device, name: `Pump ${MARKER}`, icon: '' })
    .execute();
  const { id: system } = await db
    .insertInto('device_systems')
    .values({ ...device, name: `Duty ${MARKER}`, rest_time: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: accessory } = await db
    .insertInto('device_system_accessories')
    .values({ ...device, system_id: system, name: `1# ${MARKER}`, icon: '' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('device_system_control_data')
    .values({
      ...device,
      system_id: system,
      accessory_id: accessory,
      control_name: `Run ${MARKER}`,
      data_value: 3600,
      data_define_id: type.keys.get('LiftPump1Run') ?? 0,
      associate_define_id: null,
    })
    .execute();
  await db
    .insertInto('device_cards')
    .values({ ...device, iccid: '89860012345678901234', created_at: now })
    .execute();
  await db
    .insertInto('hj212_loggers')
    .values({ ...device, mn: `${MARKER}MN1`, password_hash: '0'.repeat(64) })
    .execute();
  const forward = await db
    .insertInto('hj212_forwards')
    .values({
      ...device,
      name: `${MARKER} bureau`,
      host: '127.0.0.1',
      port: 9,
      mn: `${MARKER}MN2`,
      password: 'v1:x',
      start_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('hj212_forward_requests')
    .values({ ...g, forward_id: forward.id, kind: 'minute', next_at: now - 3_600_000, end_at: now, created_at: now })
    .execute();
  await db
    .insertInto('hj212_split_parts')
    .values({
      ...device,
      cn: '2051',
      qn: '20260122103000123',
      pnum: 2,
      pno: 1,
      cp: JSON.stringify([['DataTime', '20260122103000']]),
      received_at: now,
    })
    .execute();
  await db
    .insertInto('device_videos')
    .values({ ...device, video_name: 'Inlet', provider: 'hls', url: 'http://127.0.0.1:9/inlet.m3u8' })
    .execute();
  await db
    .insertInto('device_images')
    .values({ ...device, image_name: 'Front', storage_key: 'device-images/a.png', rank: 0, created_at: now })
    .execute();
  await db
    .insertInto('type_images')
    .values({
      ...g,
      type_id: type.id,
      image_name: 'Front',
      sn: 1,
      storage_key: 'type-images/a.png',
      kind: 'png',
      created_at: now,
    })
    .execute();
  await db
    .insertInto('type_update_files')
    .values({
      ...g,
      type_id: type.id,
      file_name: 'boot.bin',
      version: 'V1.0.0',
      role: 'bootloader',
      size: 1,
      sha256: '0'.repeat(64),
      storage_key: 'firmware/a.bin',
      created_at: now,
    })
    .execute();
  await db
    .insertInto('app_versions')
    .values({
      ...g,
      app_type: 'android',
      version_no: 'V1.0.0',
      description: 'App',
      state: 1,
      file_name: 'a.apk',
      size: 1,
      sha256: '0'.repeat(64),
      storage_key: 'apps/a.apk',
      created_at: now,
    })
    .execute();
  await db
    .insertInto('sim_accounts')
    .values({ ...g, sim_account: 'sim', sim_password: secrets.seal('x'), app_id: 'app', app_secret: secrets.seal('x') })
    .execute();
  await new TelemetryWriteRepository(db, dialect, 480).commit(
    [{ groupId, deviceSn: sn, key: 'Inflow', defined: true, ts: now - 60_000, num: 7, txt: null }],
    [{ groupId, deviceSn: sn, ts: now - 60_000, data: { Inflow: 7 } }],
  );
  await db
    .insertInto('device_online_periods')
    .values({ ...device, started_at: now - 3_600_000, ended_at: null })
    .execute();
  await db
    .insertInto('warns')
    .values({
      ...device,
      project_id: station,
      code: warnCode,
      warn_type_id: warnType,
      description: 'Fault',
      dt: now,
      cleared_at: null,
      handled_at: null,
    })
    .execute();
  const { id: channel } = await db
    .insertInto('notify_channels')
    .values({
      ...g,
      name: 'Duty webhook',
      kind: 'webhook',
      url: 'https://hooks.example.cn/a',
      secret: secrets.seal('whsec-0123456789abcdef'),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: rule } = await db
    .insertInto('notify_rules')
    .values({ ...g, name: 'Faults', channel_id: channel, type_ids: String(warnType), project_ids: String(station) })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('notify_settings')
    .values({ ...g, quiet_enabled: 1 })
    .execute();
  await db
    .insertInto('notify_deliveries')
    .values({
      ...device,
      warn_id: 1,
      rule_id: rule,
      rule_name: 'Faults',
      channel_id: channel,
      channel_name: 'Duty webhook',
      kind: 'webhook',
      level: 1,
      user_id: null,
      recipient: 'hooks.example.cn',
      status: 'failed',
      error: 'HTTP 500',
      due_at: now,
      done_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  // Field records: a standard, the station's, a water-quality result, a repair, a round and a photo.
  const { id: standard } = await db
    .insertInto('discharge_standards')
    .values({
      ...g,
      name: 'Rural class 1',
      cod: 60,
      bod5: null,
      nh3_n: 8,
      nh3_n_cold: null,
      tn: null,
      tp: 1,
      ss: 20,
      ph_min: 6,
      ph_max: 9,
      fc: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('station_standards')
    .values({ ...g, project_id: station, standard: `custom:${String(standard)}` })
    .execute();
  const blank = {
    cod_in: null,
    cod_out: 30,
    bod5_in: null,
    bod5_out: null,
    nh3_n_in: null,
    nh3_n_out: 2,
    tn_in: null,
    tn_out: null,
    tp_in: null,
    tp_out: null,
    ss_in: null,
    ss_out: null,
  };
  const { id: input } = await db
    .insertInto('device_inputs')
    .values({
      ...device,
      ...blank,
      project_id: station,
      dt: now,
      water_inflow: 120,
      water_temp: 18,
      ph_in: 7,
      ph_out: 7.1,
      fc_in: null,
      fc_out: null,
      remark: 'Sample',
      created_by: 1,
      created_by_name: 'Admin',
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('repairs')
    .values({
      ...device,
      project_id: station,
      repair_title: 'Pump',
      repair_content: 'Trips',
      state: 'reported',
      assignee_id: null,
      due_at: now,
      cost: null,
      warn_id: 1,
      reported_by: 1,
      reported_by_name: 'Admin',
      created_at: now,
      updated_at: now,
      assigned_at: null,
      started_at: null,
      done_at: null,
      verified_at: null,
    })
    .execute();
  const { id: maintenance } = await db
    .insertInto('type_maintenance')
    .values({
      ...g,
      type_id: type.id,
      data_define_id: type.keys.get('LiftPump1Run') ?? 0,
      run_key: 'LiftPump1Run',
      name: 'Pump service',
      interval_hours: 2000,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('maintenance_counters')
    .values({ ...g, device_sn: sn, maintenance_id: maintenance, counted_to: now, open_repair_id: null })
    .execute();
  await db
    .insertInto('poll_plans')
    .values({ ...g, project_id: station, items: '["Grid"]', interval_days: 7 })
    .execute();
  await db
    .insertInto('polls')
    .values({
      ...g,
      project_id: station,
      poll_title: 'Round',
      results: '[]',
      arrived_at: now,
      left_at: null,
      created_by: 1,
      inspector: 'Admin',
      created_at: now,
    })
    .execute();
  await db
    .insertInto('record_photos')
    .values({ ...g, record_kind: 'input', record_id: input, stage: '', storage_key: 'record-photos/none.png', created_at: now })
    .execute();
  await db
    .insertInto('device_logs')
    .values({ ...device, command_id: 'a'.repeat(32), data_key: 'DOSet', send_time: now, ack_time: null, user_id: 1 })
    .execute();

  await db
    .insertInto('audit_log')
    .values({
      ...g,
      at: now,
      user_id: 1,
      account: ADMIN.account,
      user_name: 'Admin',
      action: 'update',
      resource_kind: 'device',
      resource_id: sn,
      resource_name: 'Pump',
      after: JSON.stringify({ DeviceName: `Pump ${MARKER}` }),
    })
    .execute();

  // Every name-like text of the tenant's rows carries the marker.
  const schema = declaredSchema();
  for (const [table, columns] of Object.entries(schema)) {
    // The default roles keep their names, by which tests find them (factories.ts, defaultRole).
    if (!('group_id' in columns) || table === 'roles') continue;
    const texts = Object.entries(columns)
      .filter(
        ([name, c]) => c.kind === 'string' && /(^|_)name$|description|remark|comments|^address$|linkman|^remarks$/.test(name),
      )
      .map(([name]) => name);
    for (const column of texts) {
      await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${sql.ref(column)} || ${` ${MARKER}`} WHERE group_id = ${groupId}`.execute(
        db,
      );
    }
  }
  await db
    .updateTable('groups')
    .set({ group_name: `Sluice ${MARKER}`, description: MARKER })
    .where('id', '=', groupId)
    .execute();
  // A session of the tenant's administrator, which no one else may end.
  await t.login(ADMIN.account, ADMIN.password);

  const roles = (await db.selectFrom('roles').select('id').where('group_id', '=', groupId).execute()).map((r) => r.id);
  const users = (await db.selectFrom('users').select('id').where('group_id', '=', groupId).execute()).map((r) => r.id);
  const series = (await db.selectFrom('telemetry_series').select('id').where('group_id', '=', groupId).execute()).map(
    (r) => r.id,
  );
  /** The tenant's rows of a table: by group, else by what they belong to. */
  const ownedBy: Record<string, { column: string; values: number[] }> = {
    groups: { column: 'id', values: [groupId] },
    sessions: { column: 'user_id', values: users },
    role_operates: { column: 'role_id', values: roles },
    role_menus: { column: 'role_id', values: roles },
    role_projects: { column: 'role_id', values: roles },
    telemetry_raw: { column: 'series_id', values: series },
    telemetry_hourly: { column: 'series_id', values: series },
    telemetry_daily: { column: 'series_id', values: series },
  };
  const rowsOf = async (table: string, column: string, values: number[]) =>
    (
      await sql<
        Record<string, unknown>
      >`SELECT * FROM ${sql.table(table)} WHERE ${sql.ref(column)} IN (${sql.join(values.length > 0 ? values : [-1])})`.execute(
        db,
      )
    ).rows;

  const snapshot: TenantData['snapshot'] = async () => {
    // The newest audit entries moved first, as a read of the trail does (else a move in between shows as a change).
    await t.app.ctx.audit.settle();
    const tables = new Map<string, string>();
    const markedElsewhere: string[] = [];
    for (const [table, columns] of Object.entries(schema)) {
      if (NOT_TENANT_DATA.has(table)) continue;
      const owner = 'group_id' in columns ? { column: 'group_id', values: [groupId] } : ownedBy[table];
      if (!owner) throw new Error(`tenant-data.ts: say how the rows of ${table} belong to a tenant`);
      const rows = (await rowsOf(table, owner.column, owner.values)).map((row) => JSON.stringify(row)).sort();
      tables.set(table, rows.join('\n'));
      if ('group_id' in columns) {
        const others = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE group_id <> ${groupId}`.execute(
          db,
        );
        if (others.rows.some((row) => JSON.stringify(row).includes(MARKER))) markedElsewhere.push(table);
      }
    }
    return { tables, markedElsewhere };
  };

  // Every table holds a row of the tenant, and the first row of every table with ids is its.
  const empty: string[] = [];
  const notFirst: string[] = [];
  const { tables } = await snapshot();
  for (const [table, rows] of tables) {
    if (TRANSIENT.has(table)) continue;
    if (rows === '') empty.push(table);
    if (!('id' in (schema[table] ?? {}))) continue;
    const first = await sql<{ group_id?: number; id: number }>`SELECT * FROM ${sql.table(table)} ORDER BY id LIMIT 1`.execute(db);
    const row = first.rows[0];
    if (row?.id !== 1 || ('group_id' in row && row.group_id !== groupId)) notFirst.push(table);
  }
  if (empty.length > 0 || notFirst.length > 0) {
    throw new Error(
      `tenant-data.ts: tables without a row of the tenant: ${empty.join(', ') || 'none'}; tables whose first row is not its: ${notFirst.join(', ') || 'none'}`,
    );
  }
  return { groupId, deviceSn: sn, warnCode, snapshot };
}
