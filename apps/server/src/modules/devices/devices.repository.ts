/**
 * Devices as the user reaches them: scoped by group, by role-project grants (site-scope.ts) and
 * never in the recycle bin unless asked for. Lists join their project and its parent in the
 * same query, so no row costs a query of its own.
 */
import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { DeviceDto, MigrationDto } from '@sluice/shared/device.schema';
import type { PageQuery } from '@sluice/shared/paging.schema';
import type { Db } from '../../db/database.ts';
import type { DeviceMigrationTable, DeviceTable } from '../../db/tables.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { likeAny, pickOrder, searchPattern } from '../../http/resource.ts';
import { clientProjectIds, projectReachable, type DeviceRow } from '../sites/site-scope.ts';

export const DEVICE_SORTABLE = {
  Id: 'd.id',
  DeviceSn: 'd.device_sn',
  DeviceNo: 'd.device_no',
  DeviceName: 'd.device_name',
  TypeId: 'd.type_id',
  ProjectId: 'd.project_id',
  Online: 'd.online',
  LastSeen: 'd.last_seen',
  CreatedAt: 'd.created_at',
  DeletedAt: 'd.deleted_at',
};

export interface DeviceFilter {
  /** a node: the devices on it and on every node below it */
  projectId?: number | undefined;
  typeId?: number | undefined;
  online?: number | undefined;
  deviceSn?: string | undefined;
  /** a client: the devices on its projects and their stations */
  clientId?: number | undefined;
  /** only devices in no project */
  unassigned?: boolean;
  /** only devices in some project */
  assigned?: boolean;
  /** the recycle bin instead of live devices */
  recycled?: boolean;
  /** only devices in one of these regions */
  regionIds?: number[];
}

type NewDevice = Insertable<DeviceTable>;

/** A new device's row: what `fields` do not say is empty, in no project, offline and never seen. */
export function newDeviceRow(
  fields: Pick<NewDevice, 'group_id' | 'device_sn' | 'device_name' | 'secret_hash'> & Partial<NewDevice>,
  now = Date.now(),
): NewDevice {
  return {
    device_no: '',
    device_description: '',
    type_id: null,
    project_id: null,
    region_id: null,
    area_id: null,
    position: '',
    address: '',
    online: 0,
    last_seen: null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    deleted_by: null,
    ...fields,
  };
}

export class DevicesRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  private base(user: CurrentUser, filter: DeviceFilter, search?: string) {
    let q = this.db
      .selectFrom('devices as d')
      .leftJoin('projects as p', 'p.id', 'd.project_id')
      .leftJoin('projects as pp', 'pp.id', 'p.parent_id')
      .where('d.group_id', '=', user.groupId)
      .where('d.deleted_at', filter.recycled ? 'is not' : 'is', null)
      .where(projectReachable(user, 'd.project_id'));
    if (filter.projectId !== undefined) {
      const id = filter.projectId;
      q = q.where(
        sql<SqlBool>`d.project_id in (select fp.id from projects fp where fp.group_id = ${user.groupId} and (fp.id = ${id} or fp.parent_id = ${id} or fp.parent_id in (select fc.id from projects fc where fc.parent_id = ${id})))`,
      );
    }
    if (filter.clientId !== undefined) {
      const id = filter.clientId;
      q = q.where('d.project_id', 'in', clientProjectIds(user.groupId, id));
    }
    if (filter.typeId !== undefined) q = q.where('d.type_id', '=', filter.typeId);
    if (filter.online !== undefined) q = q.where('d.online', '=', filter.online);
    if (filter.deviceSn !== undefined) q = q.where('d.device_sn', '=', filter.deviceSn);
    if (filter.unassigned) q = q.where('d.project_id', 'is', null);
    if (filter.assigned) q = q.where('d.project_id', 'is not', null);
    if (filter.regionIds !== undefined) {
      const ids = filter.regionIds;
      q = ids.length === 0 ? q.where(sql<SqlBool>`1 = 0`) : q.where('d.region_id', 'in', ids);
    }
    const pattern = searchPattern(search);
    if (pattern)
      q = q.where(
        likeAny(['d.device_sn', 'd.device_no', 'd.device_name', 'd.device_description', 'd.address', 'p.name'], pattern),
      );
    return q;
  }

  private selected(user: CurrentUser, filter: DeviceFilter, search?: string) {
    return this.base(user, filter, search).select([
      'd.id',
      'd.device_sn',
      'd.device_no',
      'd.device_name',
      'd.device_description',
      'd.type_id',
      'd.project_id',
      'd.region_id',
      'd.area_id',
      'd.position',
      'd.address',
      'd.online',
      'd.last_seen',
      'd.created_at',
      'd.deleted_at',
      'd.deleted_by_name',
      'd.use_time',
      'p.name as project_name',
      'p.project_type',
      'p.parent_id',
      'pp.name as parent_name',
      // Online with a warning (State 2): an alarm of the device is active.
      sql<number>`case when exists (select 1 from warns aw where aw.group_id = d.group_id and aw.device_sn = d.device_sn and aw.active = 1) then 1 else 0 end`.as(
        'warning',
      ),
      // The newest active alarm's name, for the state's hover.
      sql<
        string | null
      >`(select coalesce(nullif(nw.description, ''), nw.code) from warns nw where nw.group_id = d.group_id and nw.device_sn = d.device_sn and nw.active = 1 order by nw.dt desc, nw.id desc limit 1)`.as(
        'alarm',
      ),
    ]);
  }

  async page(user: CurrentUser, filter: DeviceFilter, query: PageQuery): Promise<{ rows: DeviceListRow[]; count: number }> {
    const order = pickOrder(
      query,
      DEVICE_SORTABLE,
      filter.recycled ? { key: 'DeletedAt', direction: 'desc' } : { key: 'Id', direction: 'asc' },
    );
    const { count } = await this.base(user, filter, query.Search)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    const rows = await this.selected(user, filter, query.Search)
      .orderBy(sql.ref(order.column), order.direction)
      .orderBy('d.id', order.direction)
      .limit(query.PageSize)
      .offset((query.PageNo - 1) * query.PageSize)
      .execute();
    return { rows, count };
  }

  async all(user: CurrentUser, filter: DeviceFilter, search?: string): Promise<DeviceListRow[]> {
    return this.selected(user, filter, search).orderBy('d.project_id').orderBy('d.device_name').orderBy('d.id').execute();
  }

  async one(user: CurrentUser, sn: string, recycled = false): Promise<DeviceListRow | undefined> {
    return this.selected(user, { deviceSn: sn, recycled }).executeTakeFirst();
  }

  /** Devices, online devices and both by type, of every device the user reaches (or of one project or station). */
  async overview(user: CurrentUser, filter: Pick<DeviceFilter, 'projectId' | 'clientId'>) {
    const rows = await this.base(user, filter)
      .select((eb) => ['d.type_id', eb.fn.countAll<number>().as('num'), eb.fn.sum<number>('d.online').as('online')])
      .groupBy('d.type_id')
      .orderBy('d.type_id')
      .execute();
    const TypeData = rows.map((r) => ({ TypeId: r.type_id, Num: r.num, OnlineNum: r.online }));
    const Num = TypeData.reduce((sum, t) => sum + t.Num, 0);
    const OnlineNum = TypeData.reduce((sum, t) => sum + t.OnlineNum, 0);
    return { Num, OnlineNum, OfflineNum: Num - OnlineNum, TypeData };
  }

  /** A device's moves, newest first. */
  async migrations(groupId: number, sn: string): Promise<MigrationDto[]> {
    const rows = await this.db
      .selectFrom('device_migrations')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('device_sn', '=', sn)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({
      Id: r.id,
      DeviceSn: r.device_sn,
      FromProjectId: r.from_project_id,
      FromProjectName: r.from_project_name,
      ToProjectId: r.to_project_id,
      ToProjectName: r.to_project_name,
      UserName: r.user_name,
      CreatedAt: r.created_at,
    }));
  }

  async deviceNoTaken(groupId: number, deviceNo: string, exceptSn?: string): Promise<boolean> {
    let q = this.db.selectFrom('devices').select('id').where('group_id', '=', groupId).where('device_no', '=', deviceNo);
    if (exceptSn !== undefined) q = q.where('device_sn', '!=', exceptSn);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async snTaken(sn: string): Promise<boolean> {
    return (await this.db.selectFrom('devices').select('id').where('device_sn', '=', sn).executeTakeFirst()) !== undefined;
  }

  /** Runs work in one transaction, with this repository on it (and the transaction, for the devices' events). */
  transaction<T>(work: (devices: DevicesRepository, trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new DevicesRepository(trx), trx));
  }

  /** The name a user's actions are recorded under: the user name, else the account. */
  async actorName(userId: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('users').select(['user_name', 'account']).where('id', '=', userId).executeTakeFirst();
    return row?.user_name || row?.account;
  }

  async insert(row: Insertable<DeviceTable>): Promise<void> {
    await this.db.insertInto('devices').values(row).execute();
  }

  async update(id: number, values: Updateable<DeviceTable>): Promise<void> {
    await this.db.updateTable('devices').set(values).where('id', '=', id).execute();
  }

  async projectName(id: number): Promise<string | undefined> {
    return (await this.db.selectFrom('projects').select('name').where('id', '=', id).executeTakeFirst())?.name;
  }

  async projectExists(id: number, groupId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('projects')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async recordMigration(row: Insertable<DeviceMigrationTable>): Promise<void> {
    await this.db.insertInto('device_migrations').values(row).execute();
  }

  async typeExists(typeId: number, groupId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('device_types')
      .select('id')
      .where('id', '=', typeId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A device in the recycle bin that the user may change (unassigned ones: administrators only). */
  recycled(user: CurrentUser, sn: string): Promise<DeviceRow | undefined> {
    return this.db
      .selectFrom('devices')
      .selectAll()
      .where('device_sn', '=', sn)
      .where('group_id', '=', user.groupId)
      .where('deleted_at', 'is not', null)
      .where(projectReachable(user, 'devices.project_id', 'write'))
      .executeTakeFirst();
  }

  async imageKeys(sn: string): Promise<string[]> {
    return (await this.db.selectFrom('device_images').select('storage_key').where('device_sn', '=', sn).execute()).map(
      (i) => i.storage_key,
    );
  }

  /** The stored hash of a live device's secret (none for one in the recycle bin). */
  async liveSecretHash(sn: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('devices')
      .select('secret_hash')
      .where('device_sn', '=', sn)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row?.secret_hash;
  }

  /** The device a panel of the group belongs to. */
  async panelDevice(panelId: number, groupId: number): Promise<string | undefined> {
    const panel = await this.db
      .selectFrom('device_panels')
      .select('device_sn')
      .where('id', '=', panelId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return panel?.device_sn;
  }

  /** Deletes a device's images, configuration, hardware rows, run model, card, migrations, principals and the device itself. */
  async deleteWithDetails(id: number, sn: string): Promise<void> {
    await this.db.deleteFrom('device_images').where('device_sn', '=', sn).execute();
    await this.db.deleteFrom('device_configs').where('device_sn', '=', sn).execute();
    await this.db.deleteFrom('device_hardware_configs').where('device_sn', '=', sn).execute();
    // The run model: steps, then accessories, then systems (the foreign keys' order).
    for (const table of [
      'device_system_control_data',
      'device_system_accessories',
      'device_systems',
      'device_accessories',
    ] as const)
      await this.db.deleteFrom(table).where('device_sn', '=', sn).execute();
    await this.db.deleteFrom('device_cards').where('device_sn', '=', sn).execute();
    await this.db.deleteFrom('device_migrations').where('device_sn', '=', sn).execute();
    await this.db.deleteFrom('principals').where('parent_ref', '=', `device:${sn}`).execute();
    await this.db.deleteFrom('devices').where('id', '=', id).execute();
  }
}

export type DeviceListRow = Omit<DeviceRow, 'group_id' | 'secret_hash' | 'updated_at' | 'deleted_by'> & {
  /** 1 while an alarm of the device is active. */
  warning: number | string;
  /** The newest active alarm's name (its description, else its code), or null. */
  alarm: string | null;
  project_name: string | null;
  project_type: number | null;
  parent_id: number | null;
  parent_name: string | null;
};

/** A station's device names its station and the station's project; a project's device its project twice. */
export function deviceDto(r: DeviceListRow): DeviceDto {
  const onStation = r.project_type === 1;
  return {
    Id: r.id,
    DeviceSn: r.device_sn,
    DeviceNo: r.device_no,
    DeviceName: r.device_name,
    DeviceDescription: r.device_description,
    TypeId: r.type_id,
    ProjectId: r.project_id,
    ProjectName: r.project_name,
    ProjectType: r.project_type,
    ParentProjectId: onStation ? r.parent_id : r.project_id,
    ParentProjectName: onStation ? r.parent_name : r.project_name,
    RegionId: r.region_id,
    AreaId: r.area_id,
    Position: r.position,
    Address: r.address,
    Online: r.online === 1,
    State: r.online !== 1 ? 0 : Number(r.warning) === 1 ? 2 : 1,
    Alarm: r.alarm,
    LastSeen: r.last_seen,
    CreatedAt: r.created_at,
    UseTime: r.use_time,
  };
}
