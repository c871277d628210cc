/**
 * Small factories: each test file builds the rows it needs here, on whatever database its app
 * runs on, instead of leaning on the demo seed. Every factory takes the fields a test cares
 * about and makes up the rest (unique names and numbers, so that files and tests never collide).
 */
import { randomBytes } from 'node:crypto';
import { checkDataDefinition } from '@sluice/shared/data-types';
import { PROJECT_TYPE, type ProjectKind } from '@sluice/shared/project.schema';
import { hashPassword } from '../src/auth/password.ts';
import type { Db } from '../src/db/database.ts';
import { hashDeviceSecret } from '../src/modules/devices/device-credentials.ts';
import type { DeviceEvents } from '../src/modules/devices/device-events.ts';
import { newDeviceRow } from '../src/modules/devices/devices.repository.ts';
import { createTenant, type CreatedTenant } from '../src/modules/groups/tenancy.service.ts';

let counter = 0;
/** A name no other row of this run has: `prefix` and a short unique suffix (letters and digits). */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${counter.toString(36)}${randomBytes(3).toString('hex')}`;
}

export interface BuiltTenant extends CreatedTenant {
  account: string;
  code: string;
  groupName: string;
}

/** A tenant: its group, default roles, permission modules, menus and administrator. */
export async function buildTenant(
  db: Db,
  fields: { groupName?: string; code?: string; account?: string } = {},
): Promise<BuiltTenant> {
  const code = fields.code ?? unique('t');
  const groupName = fields.groupName ?? `Tenant ${code}`;
  const account = fields.account ?? unique('boss');
  const tenant = await createTenant(db, { groupName, code, adminAccount: account });
  return { ...tenant, account, code, groupName };
}

export interface BuiltUser {
  id: number;
  account: string;
  password: string;
}

/** The group's default role of that name ('Administrator' or 'Operator', as every tenant gets). */
export async function defaultRole(db: Db, groupId: number, name: 'Administrator' | 'Operator'): Promise<number> {
  const row = await db
    .selectFrom('roles')
    .select('id')
    .where('group_id', '=', groupId)
    .where('name', '=', name)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A user of a group with these roles (role ids, or the group's default 'Operator' or
 * 'Administrator' role by name); none when not given.
 */
export async function buildUser(
  db: Db,
  fields: {
    groupId: number;
    account?: string;
    password?: string;
    userName?: string;
    roles?: (number | 'Operator' | 'Administrator')[];
    status?: number;
    email?: string;
    phone?: string;
    /** The user's settings (UserConfig), as stored. */
    config?: Record<string, unknown>;
  },
): Promise<BuiltUser> {
  const account = fields.account ?? unique('user');
  const password = fields.password ?? `Pw${randomBytes(6).toString('hex')}`;
  const now = Date.now();
  const { id } = await db
    .insertInto('users')
    .values({
      group_id: fields.groupId,
      account,
      user_name: fields.userName ?? account,
      email: fields.email ?? '',
      phone: fields.phone ?? '',
      user_type: 0,
      remark: '',
      password_hash: await hashPassword(password),
      status: fields.status ?? 1,
      is_platform_admin: 0,
      picture: '',
      config: JSON.stringify(fields.config ?? {}),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const role of fields.roles ?? []) {
    const roleId = typeof role === 'number' ? role : await defaultRole(db, fields.groupId, role);
    await db.insertInto('user_roles').values({ user_id: id, role_id: roleId, group_id: fields.groupId }).execute();
  }
  return { id, account, password };
}

/** A role of a group holding these operates (their codes, e.g. 'device.view'). */
export async function buildRole(db: Db, fields: { groupId: number; name?: string; operates?: string[] }): Promise<number> {
  const { id } = await db
    .insertInto('roles')
    .values({ group_id: fields.groupId, name: fields.name ?? unique('Role '), is_admin: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const operates = fields.operates ?? [];
  if (operates.length > 0) {
    const ids = await db
      .selectFrom('module_operates')
      .select('id')
      .where('group_id', '=', fields.groupId)
      .where('code', 'in', operates)
      .execute();
    if (ids.length !== operates.length) throw new Error(`unknown operates among ${operates.join(', ')}`);
    await db
      .insertInto('role_operates')
      .values(ids.map((o) => ({ role_id: id, operate_id: o.id })))
      .execute();
  }
  return id;
}

/** A client of a group. */
export async function buildClient(db: Db, fields: { groupId: number; name?: string; sn?: string }): Promise<number> {
  const { id } = await db
    .insertInto('clients')
    .values({
      group_id: fields.groupId,
      client_name: fields.name ?? unique('Client '),
      client_sn: fields.sn ?? unique('C'),
      linkman: '',
      telephone: '',
      mobile: '',
      address: '',
      description: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * A node of the site tree: a project by default, a station under `parentId`, or a client node.
 * `roles` grants roles the node (operate 0 to view, 1 to manage), as an administrator would.
 */
export async function buildProject(
  db: Db,
  fields: {
    groupId: number;
    kind?: ProjectKind;
    name?: string;
    parentId?: number;
    clientId?: number | null;
    position?: string;
    address?: string;
    roles?: { roleId: number; operate?: number }[];
  },
): Promise<number> {
  const kind = fields.kind ?? (fields.parentId ? 'station' : 'project');
  const now = Date.now();
  const { id } = await db
    .insertInto('projects')
    .values({
      group_id: fields.groupId,
      name: fields.name ?? unique(kind === 'station' ? 'Station ' : 'Project '),
      project_type: PROJECT_TYPE[kind],
      parent_id: fields.parentId ?? 0,
      client_id: fields.clientId ?? null,
      region_id: null,
      area_id: null,
      address: fields.address ?? '',
      position: fields.position ?? '119.62,30.61',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const role of fields.roles ?? []) {
    await db
      .insertInto('role_projects')
      .values({ role_id: role.roleId, project_id: id, operate: role.operate ?? 0 })
      .execute();
  }
  return id;
}

export interface BuiltDevice {
  id: number;
  sn: string;
  secret: string;
}

/** What a device factory writes through: the database, and the device events that follow an added device. */
export interface DeviceContext {
  db: Db;
  deviceEvents: DeviceEvents;
}

/**
 * A device of a group, in a station or project when given, of a type when given; added as the
 * devices service adds one (its `created` event brings the type's standard template).
 */
export async function buildDevice(
  ctx: DeviceContext,
  fields: {
    groupId: number;
    sn?: string;
    name?: string;
    no?: string;
    projectId?: number | null;
    typeId?: number | null;
    online?: boolean;
    position?: string;
    secret?: string;
  },
): Promise<BuiltDevice> {
  const sn = fields.sn ?? unique('SLT').toUpperCase().slice(0, 12);
  const secret = fields.secret ?? `secret-${randomBytes(8).toString('hex')}`;
  const typeId = fields.typeId ?? null;
  const now = Date.now();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('devices')
      .values(
        newDeviceRow(
          {
            group_id: fields.groupId,
            device_sn: sn,
            device_no: fields.no ?? '',
            device_name: fields.name ?? `Device ${sn}`,
            type_id: typeId,
            project_id: fields.projectId ?? null,
            position: fields.position ?? '',
            online: fields.online ? 1 : 0,
            last_seen: fields.online ? now : null,
            secret_hash: hashDeviceSecret(secret),
          },
          now,
        ),
      )
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.deviceEvents.emit('created', trx, { groupId: fields.groupId, deviceSn: sn, typeId });
    return row.id;
  });
  return { id, sn, secret };
}

export interface DataPoint {
  key?: string;
  name?: string;
  /** The library's data type: readable, textbox, boolean, enum, select, time, … */
  type?: string;
  format?: string;
  unit?: string;
  defaultValue?: string;
  category?: string;
}

/** A data point of the group's library, its format checked and written as the library writes it. */
export async function buildDataDefine(db: Db, fields: DataPoint & { groupId: number }): Promise<{ id: number; key: string }> {
  const key = fields.key ?? unique('Key');
  const dataType = fields.type ?? 'readable';
  const checked = checkDataDefinition({ DataType: dataType, DefaultValue: fields.defaultValue, Format: fields.format });
  if (checked.issues.length > 0) throw new Error(`data point ${key}: ${JSON.stringify(checked.issues)}`);
  const { id } = await db
    .insertInto('data_defines')
    .values({
      group_id: fields.groupId,
      data_key: key,
      data_name: fields.name ?? key,
      data_type: dataType,
      format: checked.format,
      unit: fields.unit ?? '',
      default_value: fields.defaultValue ?? '',
      category: fields.category ?? '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id, key };
}

/** Library data points of a group; their ids by key. */
export async function buildLibrary(db: Db, groupId: number, points: DataPoint[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const point of points) {
    const built = await buildDataDefine(db, { ...point, groupId });
    ids.set(built.key, built.id);
  }
  return ids;
}

/**
 * A device type of a group whose data points are these (library points made for it, or ids of
 * existing ones), under `parentId` when given; `standards` gives data keys a statistic with that
 * standard ('50', '6,9'), which opens their linked warn codes while a value misses it.
 */
export async function buildType(
  db: Db,
  fields: {
    groupId: number;
    name?: string;
    parentId?: number;
    points?: (DataPoint | number)[];
    standards?: Record<string, string>;
  },
): Promise<{ id: number; name: string; pointIds: number[] }> {
  const name = fields.name ?? unique('Type ');
  const { id } = await db
    .insertInto('device_types')
    .values({ group_id: fields.groupId, type_name: name, parent_id: fields.parentId ?? 0, status: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const pointIds: number[] = [];
  for (const point of fields.points ?? []) {
    const pointId = typeof point === 'number' ? point : (await buildDataDefine(db, { ...point, groupId: fields.groupId })).id;
    await db.insertInto('type_data_defines').values({ group_id: fields.groupId, type_id: id, data_define_id: pointId }).execute();
    pointIds.push(pointId);
  }
  for (const [key, standard] of Object.entries(fields.standards ?? {})) {
    const point = await db
      .selectFrom('data_defines')
      .select('id')
      .where('group_id', '=', fields.groupId)
      .where('data_key', '=', key)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('type_statistics')
      .values({
        group_id: fields.groupId,
        type_id: id,
        stat_key: key,
        data_define_id: point.id,
        statics_type: 'discrete',
        name: key,
        standard,
      })
      .execute();
  }
  return { id, name, pointIds };
}

/** A warn type of a group (报警 Alarm, 故障 Fault, …). */
export async function buildWarnType(db: Db, fields: { groupId: number; name?: string; color?: string }): Promise<number> {
  const { id } = await db
    .insertInto('warn_types')
    .values({ group_id: fields.groupId, type_name: fields.name ?? unique('Warn '), color: fields.color ?? '#faad14', icon: '' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A warn code under a warn type, linked to a data key when `dataKey` is given (as the library links them). */
export async function buildWarnCode(
  db: Db,
  fields: { groupId: number; warnTypeId: number; code?: string; description?: string; dataKey?: string },
): Promise<string> {
  const code = fields.code ?? unique('W').toUpperCase().slice(0, 8);
  await db
    .insertInto('warn_codes')
    .values({ group_id: fields.groupId, warn_type_id: fields.warnTypeId, code, description: fields.description ?? code })
    .execute();
  if (fields.dataKey)
    await db.insertInto('data_define_warn_codes').values({ group_id: fields.groupId, data_key: fields.dataKey, code }).execute();
  return code;
}

/** A region of a group (a circle around `point` unless told). */
export async function buildRegion(db: Db, fields: { groupId: number; name?: string; point?: string }): Promise<number> {
  const point = fields.point ?? '119.64,30.6';
  const [lng, lat] = point.split(',').map(Number);
  const { id } = await db
    .insertInto('regions')
    .values({
      group_id: fields.groupId,
      name: fields.name ?? unique('Region '),
      radius: JSON.stringify({ type: 'circle', center: [lng, lat], radius: 5000 }),
      point,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export interface DeviceSpec {
  sn: string;
  name?: string;
  no?: string;
  online?: boolean;
  typeId?: number | null;
}

/** A tree of sites as a test declares it: projects (under a client node when named), their stations and devices. */
export interface SiteTree {
  client?: string;
  projects: {
    name: string;
    position?: string;
    stations: { name: string; position?: string; devices: DeviceSpec[] }[];
  }[];
}

export interface BuiltSites {
  /** The id of each node, by its name. */
  id: (name: string) => number;
  /** Each device built, by its serial number. */
  devices: Map<string, BuiltDevice>;
}

/**
 * Builds a site tree in a group: the client node, projects, stations and devices. `roles` are
 * granted each project (operate 0 to view, 1 to manage), as an administrator grants them.
 */
export async function buildSites(
  ctx: DeviceContext,
  fields: { groupId: number; tree: SiteTree; roles?: { roleId: number; operate?: number }[] },
): Promise<BuiltSites> {
  const { groupId, tree } = fields;
  const { db } = ctx;
  const ids = new Map<string, number>();
  const devices = new Map<string, BuiltDevice>();
  const clientNode = tree.client ? await buildProject(db, { groupId, kind: 'client', name: tree.client }) : 0;
  if (tree.client) ids.set(tree.client, clientNode);
  for (const project of tree.projects) {
    const projectId = await buildProject(db, {
      groupId,
      kind: 'project',
      name: project.name,
      ...(clientNode ? { parentId: clientNode } : {}),
      ...(project.position ? { position: project.position } : {}),
      ...(fields.roles ? { roles: fields.roles } : {}),
    });
    ids.set(project.name, projectId);
    for (const station of project.stations) {
      const stationId = await buildProject(db, {
        groupId,
        kind: 'station',
        name: station.name,
        parentId: projectId,
        ...(station.position ? { position: station.position } : {}),
      });
      ids.set(station.name, stationId);
      for (const d of station.devices) {
        devices.set(d.sn, await buildDevice(ctx, { groupId, projectId: stationId, ...d }));
      }
    }
  }
  return {
    id: (name) => {
      const found = ids.get(name);
      if (found === undefined) throw new Error(`no site named ${name}`);
      return found;
    },
    devices,
  };
}

/** A principal (person in charge) of a station or project. */
export async function buildPrincipal(
  db: Db,
  fields: { groupId: number; projectId: number; name?: string; phone?: string },
): Promise<number> {
  const { id } = await db
    .insertInto('principals')
    .values({
      group_id: fields.groupId,
      parent_ref: `project:${String(fields.projectId)}`,
      name: fields.name ?? unique('Principal '),
      phone: fields.phone ?? '13800138000',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** A category (tag) of a group's data points. */
export async function buildCategory(db: Db, fields: { groupId: number; name?: string }): Promise<string> {
  const name = fields.name ?? unique('Category ');
  await db.insertInto('data_categories').values({ group_id: fields.groupId, name }).execute();
  return name;
}

/**
 * A device type with a row in every part table (data points, classes, modules with controls,
 * feedbacks and arguments, display icons, overviews, Modbus rows, a schema tree, statistics,
 * configuration values, arguments) and a standard template with panels, profiles, arguments,
 * an accessory, control data and configuration. Its data points are library points of these
 * keys, made for it; `keys` gives their library ids.
 */
export async function buildFullType(
  db: Db,
  fields: { groupId: number; name?: string },
): Promise<{ id: number; name: string; keys: Map<string, number>; schemaChildren: string[] }> {
  const g = { group_id: fields.groupId };
  const points: (Required<Pick<DataPoint, 'key' | 'type'>> & DataPoint)[] = [
    { key: 'Inflow', type: 'readable', unit: 'm3/H' },
    { key: 'TankLevel', type: 'readable', unit: 'm' },
    { key: 'LiftPump1Run', type: 'boolean' },
    { key: 'LiftPump1Fault', type: 'boolean' },
    { key: 'DO', type: 'readable', unit: 'mg/L' },
    { key: 'DOSet', type: 'textbox', unit: 'mg/L' },
    { key: 'COD_Out', type: 'readable', unit: 'mg/L' },
  ];
  const keys = new Map<string, number>();
  for (const p of points) keys.set(p.key, (await buildDataDefine(db, { ...p, groupId: fields.groupId })).id);
  const key = (k: string) => keys.get(k) ?? 0;
  const type = await buildType(db, { groupId: fields.groupId, ...(fields.name ? { name: fields.name } : {}) });
  const t = { ...g, type_id: type.id };
  const typeDefines = new Map<string, number>();
  for (const p of points) {
    const row = await db
      .insertInto('type_data_defines')
      .values({ ...t, data_define_id: key(p.key) })
      .returning('id')
      .executeTakeFirstOrThrow();
    typeDefines.set(p.key, row.id);
  }
  const classId = async (name: string, rank: number) =>
    (
      await db
        .insertInto('type_classes')
        .values({ ...t, name, rank })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const equipment = await classId('设备 Equipment', 1);
  const setPoints = await classId('设定值 Set-points', 2);
  const moduleId = async (name: string, sn: number) =>
    (
      await db
        .insertInto('type_modules')
        .values({ ...t, module_name: name, sn })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const pumps = await moduleId('提升泵 Lift pumps', 1);
  const aeration = await moduleId('曝气 Aeration', 2);
  const pump = await db
    .insertInto('type_module_controls')
    .values({
      ...t,
      module_id: pumps,
      control_key: 'LiftPump1Run',
      control_name: '1#提升泵 Lift pump 1',
      data_define_id: key('LiftPump1Run'),
      show_type: 'switch',
      sn: 1,
      class_id: equipment,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('type_module_controls')
    .values({
      ...t,
      module_id: aeration,
      control_key: 'DOSet',
      control_name: '溶解氧 DO',
      data_define_id: key('DOSet'),
      show_type: 'input',
      unit: 'mg/L',
      formula: 'DOSet||DO',
      sn: 1,
      class_id: setPoints,
    })
    .execute();
  await db
    .insertInto('type_module_feedbacks')
    .values([
      { ...t, module_control_id: pump.id, data_define_id: key('LiftPump1Run'), sn: 1 },
      { ...t, module_control_id: pump.id, data_define_id: key('LiftPump1Fault'), sn: 2 },
    ])
    .execute();
  await db
    .insertInto('type_module_arguments')
    .values({ ...t, module_id: pumps, data_define_id: key('LiftPump1Fault'), name: '1#泵故障 Pump 1 fault' })
    .execute();
  await db
    .insertInto('type_display_icons')
    .values({ ...t, name: 'Pump', sn: 1, data_define_id: key('LiftPump1Run'), data_define_key: 'LiftPump1Run', icon: 'pump' })
    .execute();
  await db
    .insertInto('type_overviews')
    .values({ ...t, type_data_define_id: typeDefines.get('Inflow') ?? 0, name: '进水 Inflow', sn: 1 })
    .execute();
  for (const [i, k] of ['Inflow', 'TankLevel', 'DO', 'COD_Out'].entries()) {
    await db
      .insertInto('type_hardware_configs')
      .values({
        ...t,
        data_define_id: key(k),
        sn: i + 1,
        modbus_slave: 1,
        reg_ad: i * 2,
        cmd: 3,
        lens: 2,
        max_value: null,
        min_value: null,
      })
      .execute();
  }
  const { id: root } = await db
    .insertInto('type_schemas')
    .values({ ...t, name: '工艺 Process', data_define_id: null, parent_id: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const schemaChildren = ['调节池 Regulating tank', '缺氧池 Anoxic tank', '好氧池 Aerobic tank', '沉淀池 Settling tank'];
  for (const name of schemaChildren) {
    await db
      .insertInto('type_schemas')
      .values({ ...t, name, data_define_id: null, parent_id: root })
      .execute();
  }
  await db
    .insertInto('type_statistics')
    .values({ ...t, stat_key: 'COD_Out', data_define_id: key('COD_Out'), statics_type: 'discrete', name: 'COD', standard: '50' })
    .execute();
  await db
    .insertInto('type_configs')
    .values({ ...t, data_name: 'Report interval', data_type: 'textbox', data_value: '60' })
    .execute();
  await db
    .insertInto('type_arguments')
    .values({ ...t, define_id: key('Inflow'), name: 'Inflow' })
    .execute();

  const { id: temp } = await db
    .insertInto('type_templates')
    .values({ ...g, type_id: type.id, temp_name: 'Standard', is_standard: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: panel } = await db
    .insertInto('template_panels')
    .values({ ...g, temp_id: temp, panel_type_id: 2, panel_name: 'Process', sn: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const p of points) {
    await db
      .insertInto('template_profiles')
      .values({ ...g, temp_id: temp, panel_id: panel, data_type: p.type, data_key: p.key, data_name: p.key })
      .execute();
  }
  await db
    .insertInto('template_args')
    .values({ ...g, temp_id: temp, data_name: 'Report interval', data_type: 'textbox', data_value: '60' })
    .execute();
  const { id: accessory } = await db
    .insertInto('template_accessories')
    .values({ ...g, temp_id: temp, name: 'Blower', icon: 'blower' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('template_control_data')
    .values({
      ...g,
      temp_id: temp,
      control_name: 'Pump on',
      data_value: '1',
      data_define_key: 'LiftPump1Run',
      accessory_id: accessory,
    })
    .execute();
  await db
    .insertInto('template_configs')
    .values({ ...g, temp_id: temp, define_key: 'Inflow', name: 'Inflow' })
    .execute();
  return { id: type.id, name: type.name, keys, schemaChildren };
}
