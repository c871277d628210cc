/**
 * The schema cannot drift: db/tables.ts (what the queries are type-checked against) says what the
 * migrations make, on SQLite and PostgreSQL; a database of the previous release, with data in it,
 * migrates to the current schema keeping its data, and the app works on it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { PREVIOUS_RELEASE, migrationNames } from '../src/db/migrations.ts';
import { hashPassword } from '../src/auth/password.ts';
import { createPgDatabase, createTestApp, databaseKinds, type DatabaseKind, type TestApp } from './harness.ts';
import type { ScratchDatabase } from './scratch.ts';
import { databaseSchema, declaredSchema, schemaDrift } from './schema.ts';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');

/**
 * The released migrations as they shipped (the first 16 hex digits of each file's SHA-256). A
 * database that ran one will not run it again, so a change to its file reaches no existing
 * database: add a new migration instead. Moving PREVIOUS_RELEASE forward adds the new ones here.
 */
const RELEASED: Record<string, string> = {
  '0001_accounts': 'fe345cc902caf37e',
  '0002_administration': 'e4364cae9652a651',
  '0003_sites': '7967a76381ecb9b3',
  '0004_device_types': '495399d203e505b0',
  '0005_telemetry': 'bb2aff2bc9ae0de3',
};

/** An empty database of the kind: a folder for SQLite, a scratch database for PostgreSQL. */
async function scratch(kind: DatabaseKind) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-schema-'));
  const pg: ScratchDatabase | undefined = kind === 'postgres' ? await createPgDatabase() : undefined;
  return {
    dataDir,
    databaseUrl: pg?.url,
    async drop() {
      await pg?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type Loose = Kysely<Record<string, Record<string, unknown>>>;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(
  kind: DatabaseKind,
  migrateUpTo?: string,
): Promise<{ handle: DatabaseHandle; place: Awaited<ReturnType<typeof scratch>> }> {
  const place = await scratch(kind);
  cleanups.push(() => place.drop());
  const handle = await openDatabase({
    dataDir: place.dataDir,
    databaseUrl: place.databaseUrl,
    ...(migrateUpTo ? { migrateUpTo } : {}),
  });
  return { handle, place };
}

describe('the released migrations', () => {
  it('are those of the previous release, unchanged', () => {
    const released = migrationNames().slice(0, migrationNames().indexOf(PREVIOUS_RELEASE) + 1);
    expect(released.at(-1)).toBe(PREVIOUS_RELEASE);
    expect(Object.keys(RELEASED)).toEqual(released);
    for (const name of released) {
      const file = path.join(MIGRATIONS_DIR, `${name.replaceAll('_', '-')}.ts`);
      const digest = createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
      expect(digest, `${name} changed after its release: add a new migration instead`).toBe(RELEASED[name]);
    }
  });
});

describe.each(databaseKinds)('the schema on %s', (kind) => {
  it('is what db/tables.ts declares: the same tables and columns, kinds of value, nullability and defaults', async () => {
    const { handle } = await open(kind);
    try {
      const actual = await databaseSchema(handle.db as Kysely<unknown>, handle.dialect);
      expect(Object.keys(actual).length).toBeGreaterThan(50);
      expect(schemaDrift(declaredSchema(), actual)).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it('would notice a drifted declaration', async () => {
    const { handle } = await open(kind);
    try {
      const actual = await databaseSchema(handle.db as Kysely<unknown>, handle.dialect);
      const declared = declaredSchema();
      const devices = declared.devices ?? {};
      const drifted = {
        ...declared,
        devices: {
          ...devices,
          device_name: { kind: 'number' as const, nullable: false, generated: false },
          last_seen: { kind: 'number' as const, nullable: false, generated: false },
          online: { kind: 'number' as const, nullable: false, generated: false },
          secret_hash: { kind: 'string' as const, nullable: false, generated: true },
          misspelt: { kind: 'string' as const, nullable: false, generated: false },
        },
      };
      expect(schemaDrift(drifted, actual).sort()).toEqual(
        [
          'devices.device_name: declared number, the database holds string',
          "devices.last_seen: declared not null, the database's is the other",
          'devices.secret_hash: declared Generated, but the database has no default for it',
          'devices.misspelt: declared, not in the database',
        ].sort(),
      );
    } finally {
      await handle.close();
    }
  });
});

/** Rows a database of the previous release holds: a tenant, a type with its standard template, a device, its live data. */
async function fillPreviousRelease(db: Loose): Promise<{ groupId: number; deviceSn: string }> {
  const now = Date.parse('2026-11-01T08:00:00Z');
  const insert = async (table: string, row: Record<string, unknown>) =>
    Number((await db.insertInto(table).values(row).returning('id').executeTakeFirstOrThrow()).id);
  const groupId = await insert('groups', { group_name: 'Upgrade Water', code: 'upgrade', created_at: now });
  const userId = await insert('users', {
    group_id: groupId,
    account: 'keeper',
    user_name: 'Keeper',
    password_hash: await hashPassword('Keeper12345'),
    created_at: now,
    updated_at: now,
  });
  const roleId = await insert('roles', { group_id: groupId, name: 'Administrators', is_admin: 1 });
  await db.insertInto('user_roles').values({ user_id: userId, role_id: roleId, group_id: groupId }).execute();

  const typeId = await insert('device_types', { group_id: groupId, type_name: 'Lift pump' });
  const tempId = await insert('type_templates', { group_id: groupId, type_id: typeId, temp_name: 'Standard', is_standard: 1 });
  const panelId = await insert('template_panels', { group_id: groupId, temp_id: tempId, panel_type_id: 1, panel_name: 'Pump' });
  await insert('template_profiles', {
    group_id: groupId,
    temp_id: tempId,
    panel_id: panelId,
    data_type: 'readable',
    data_key: 'flow',
    data_name: 'Flow',
  });
  await insert('template_args', {
    group_id: groupId,
    temp_id: tempId,
    data_name: 'interval',
    data_type: 'textbox',
    data_value: '60',
  });
  await insert('template_configs', { group_id: groupId, temp_id: tempId, define_key: 'flow', name: 'threshold' });

  const projectId = await insert('projects', {
    group_id: groupId,
    name: 'Xiaofeng',
    project_type: 1,
    parent_id: 0,
    address: 'Anji',
    position: '119.68,30.64',
    created_at: now,
    updated_at: now,
  });
  const deviceSn = 'UPG0001';
  await insert('devices', {
    group_id: groupId,
    device_sn: deviceSn,
    device_no: 'P-1',
    device_name: 'Lift pump 1',
    device_description: '',
    type_id: typeId,
    project_id: projectId,
    position: '119.68,30.64',
    address: 'Anji',
    online: 0,
    secret_hash: 'x',
    created_at: now,
    updated_at: now,
  });
  const device = { group_id: groupId, device_sn: deviceSn };
  // What the type's standard template put on the device, and what a user added.
  const typePanel = await insert('device_panels', { ...device, panel_name: 'Pump', type_id: 1 });
  await insert('device_panels', { ...device, panel_name: 'Notes', type_id: 1 });
  await insert('device_data_defines', {
    ...device,
    panel_id: typePanel,
    data_key: 'flow',
    data_name: 'Flow',
    data_type: 'readable',
  });
  await insert('device_data_defines', {
    ...device,
    panel_id: null,
    data_key: 'level',
    data_name: 'Level',
    data_type: 'readable',
  });
  await insert('device_configs', { ...device, data_name: 'interval', data_type: 'textbox', data_value: '60' });
  await insert('device_configs', { ...device, data_name: 'threshold', data_value: '3' });
  await insert('device_configs', { ...device, data_name: 'mine', data_value: 'kept' });

  const seriesId = await insert('telemetry_series', { ...device, data_key: 'flow', defined: 1, created_at: now });
  await db
    .insertInto('telemetry_raw')
    .values([0, 1, 2].map((i) => ({ series_id: seriesId, ts: now + i * 60_000, num: 10 + i, txt: null })))
    .execute();
  await db
    .insertInto('device_latest')
    .values({ ...device, ts: now + 120_000, data: JSON.stringify({ flow: 12 }), updated_at: now + 120_000 })
    .execute();
  await insert('warns', { ...device, project_id: projectId, code: 'E01', dt: now });
  return { groupId, deviceSn };
}

/** Rows of every table, to see that an upgrade lost none. */
async function rowCounts(db: Loose, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    counts[table] = row.n;
  }
  return counts;
}

describe.each(databaseKinds)('an upgrade on %s', (kind) => {
  let app: TestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('migrates a database of the previous release with data in it to the current schema, keeping the data', async () => {
    const { handle, place } = await open(kind, PREVIOUS_RELEASE);
    const old = handle.db as unknown as Loose;
    const { groupId, deviceSn } = await fillPreviousRelease(old);
    const tables = Object.keys(await databaseSchema(handle.db as Kysely<unknown>, handle.dialect));
    const before = await rowCounts(old, tables);
    await handle.close();

    // The app opens it as it would after an upgrade: the pending migrations run at start.
    app = await createTestApp('sqlite', {
      DATA_DIR: place.dataDir,
      DEMO: '0',
      ...(place.databaseUrl ? { DATABASE_URL: place.databaseUrl } : {}),
    });
    const db = app.app.ctx.db as unknown as Loose;
    expect(schemaDrift(declaredSchema(), await databaseSchema(db as Kysely<unknown>, app.app.ctx.dialect))).toEqual([]);
    // Nothing lost; 0020 gave the group the Field records module (three operates, for its
    // administrator role) and the Field Records menu (a parent and five screens); 0033 the Audit
    // trail module (one operate, for its administrator role).
    const added = { modules: 2, module_operates: 4, role_operates: 4, sys_menus: 6, role_menus: 6 };
    expect(await rowCounts(db, tables)).toEqual({
      ...before,
      ...Object.fromEntries(Object.entries(added).map(([table, n]) => [table, (before[table] ?? 0) + n])),
    });

    // 0006: what the type's standard template put on the device is marked as the type's.
    const fromType = async (table: string, column: string) =>
      Object.fromEntries(
        (await db.selectFrom(table).select([column, 'from_type']).where('device_sn', '=', deviceSn).execute()).map((r) => [
          String(r[column]),
          Number(r.from_type),
        ]),
      );
    expect(await fromType('device_panels', 'panel_name')).toEqual({ Pump: 1, Notes: 0 });
    expect(await fromType('device_data_defines', 'data_key')).toEqual({ flow: 1, level: 0 });
    expect(await fromType('device_configs', 'data_name')).toEqual({ interval: 1, threshold: 1, mine: 0 });

    // The app works on it: the old user signs in and finds the device and its data points.
    const token = await app.login('keeper', 'Keeper12345');
    const devices = await app.json<{ DeviceSn: string; DeviceName: string }[]>({
      method: 'GET',
      url: `/api/${String(groupId)}/Device/AllDevice?deviceSn=${deviceSn}`,
      token,
    });
    expect(devices.data.map((d) => [d.DeviceSn, d.DeviceName])).toEqual([[deviceSn, 'Lift pump 1']]);
    const points = await app.json<{ DataKey: string }[]>({
      method: 'GET',
      url: `/api/GetDeviceDataDefine?deviceSn=${deviceSn}`,
      token,
    });
    expect(points.data.map((p) => p.DataKey).sort()).toEqual(['flow', 'level']);
  });
});
