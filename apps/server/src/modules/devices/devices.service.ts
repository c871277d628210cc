/**
 * The rules of devices: adding one (with its credential, in one transaction with what the
 * `created` event's handlers do), moving it between projects (recorded), its type (`typeChanged`),
 * the recycle bin and the purge (`purged`). Every committed write tells `changed`.
 */
import { PROJECT_TYPE, type ProjectKind } from '@sluice/shared/project.schema';
import type { AddDeviceRequest, UpdateDeviceRequest } from '@sluice/shared/device.schema';
import type { Db } from '../../db/database.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { CurrentUser } from '../account/users.repository.ts';
import { AppError } from '../../http/errors.ts';
import { projectReachable, type DeviceRow, type ProjectRow, type SiteScope } from '../sites/site-scope.ts';
import { checkSiteRefs } from '../sites/site-refs.ts';
import type { DeviceEvents } from './device-events.ts';
import { hashDeviceSecret, newDeviceSecret, newDeviceSn } from './device-credentials.ts';
import { DevicesRepository, newDeviceRow } from './devices.repository.ts';

/** Devices sit on projects and stations, never on a client node. */
const HOLDS_DEVICES: number[] = [PROJECT_TYPE.project, PROJECT_TYPE.station];

export const kindOf = (type: number): ProjectKind =>
  type === PROJECT_TYPE.client ? 'client' : type === PROJECT_TYPE.station ? 'station' : 'project';

export class DevicesService {
  private readonly db: Db;
  private readonly storage: FileStorage;
  readonly repository: DevicesRepository;
  readonly scope: SiteScope;
  private readonly events: DeviceEvents;

  constructor(deps: { db: Db; storage: FileStorage; scope: SiteScope; events: DeviceEvents }) {
    this.db = deps.db;
    this.storage = deps.storage;
    this.scope = deps.scope;
    this.events = deps.events;
    this.repository = new DevicesRepository(deps.db);
  }

  private changed(deviceSn: string): void {
    this.events.changed(deviceSn);
  }

  private async holder(user: CurrentUser, projectId: number): Promise<ProjectRow> {
    const project = await this.scope.project(user, projectId, 'write').catch((error: unknown) => {
      if (error instanceof AppError && error.statusCode === 404)
        throw new AppError(400, 'ref.unknown', { what: 'ProjectId', id: projectId }, 'ProjectId');
      throw error;
    });
    if (!HOLDS_DEVICES.includes(project.project_type)) throw new AppError(400, 'device.badProject', {}, 'ProjectId');
    return project;
  }

  private async actorName(user: CurrentUser): Promise<string> {
    const row = await this.db.selectFrom('users').select(['user_name', 'account']).where('id', '=', user.id).executeTakeFirst();
    return row?.user_name || row?.account || user.account;
  }

  /** Adds a device; answers its serial number and the secret of its MQTT credential (shown once). */
  async create(user: CurrentUser, body: AddDeviceRequest, now = Date.now()): Promise<{ sn: string; secret: string }> {
    // Only an administrator may leave a device outside every project: others would lose sight of it.
    if (body.ProjectId === undefined && !user.isAdmin) throw new AppError(400, 'rule.required', {}, 'ProjectId');
    if (body.ProjectId !== undefined) await this.holder(user, body.ProjectId);
    await checkSiteRefs(this.db, user.groupId, body);
    await this.checkType(user, body.TypeId ?? null);
    if (body.DeviceNo && (await this.repository.deviceNoTaken(user.groupId, body.DeviceNo))) {
      throw new AppError(409, 'device.exists', { name: body.DeviceNo }, 'DeviceNo');
    }
    let sn = newDeviceSn();
    for (let tries = 0; await this.repository.snTaken(sn); tries++) {
      if (tries > 10) throw new Error('No free device serial number');
      sn = newDeviceSn();
    }
    const secret = newDeviceSecret();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('devices')
        .values(
          newDeviceRow(
            {
              group_id: user.groupId,
              device_sn: sn,
              device_no: body.DeviceNo ?? '',
              device_name: body.DeviceName,
              device_description: body.DeviceDescription ?? '',
              type_id: body.TypeId ?? null,
              project_id: body.ProjectId ?? null,
              region_id: body.RegionId ?? null,
              area_id: body.AreaId ?? null,
              position: body.Position ?? '',
              address: body.Address ?? '',
              secret_hash: hashDeviceSecret(secret),
            },
            now,
          ),
        )
        .execute();
      await this.events.emit('created', trx, { groupId: user.groupId, deviceSn: sn, typeId: body.TypeId ?? null });
    });
    return { sn, secret };
  }

  async update(user: CurrentUser, body: UpdateDeviceRequest, now = Date.now()): Promise<void> {
    const device = await this.scope.device(user, body.DeviceSn, 'write');
    await checkSiteRefs(this.db, user.groupId, body);
    if (body.DeviceNo && (await this.repository.deviceNoTaken(user.groupId, body.DeviceNo, device.device_sn))) {
      throw new AppError(409, 'device.exists', { name: body.DeviceNo }, 'DeviceNo');
    }
    await this.db
      .updateTable('devices')
      .set({
        ...(body.DeviceName !== undefined ? { device_name: body.DeviceName } : {}),
        ...(body.DeviceDescription !== undefined ? { device_description: body.DeviceDescription } : {}),
        ...(body.DeviceNo !== undefined ? { device_no: body.DeviceNo } : {}),
        ...(body.RegionId !== undefined ? { region_id: body.RegionId } : {}),
        ...(body.AreaId !== undefined ? { area_id: body.AreaId } : {}),
        ...(body.Position !== undefined ? { position: body.Position } : {}),
        ...(body.Address !== undefined ? { address: body.Address } : {}),
        updated_at: now,
      })
      .where('id', '=', device.id)
      .execute();
    this.changed(device.device_sn);
  }

  /** Moves a device to another project or station (or out of any, with null), and records the move. */
  async move(user: CurrentUser, sn: string, projectId: number | null, now = Date.now()): Promise<void> {
    const device = await this.scope.device(user, sn, 'write');
    const target = projectId === null ? undefined : await this.holder(user, projectId);
    if ((target?.id ?? null) === device.project_id)
      throw new AppError(409, projectId === null ? 'device.noProject' : 'device.sameProject');
    const from =
      device.project_id === null
        ? undefined
        : await this.db.selectFrom('projects').select('name').where('id', '=', device.project_id).executeTakeFirst();
    const userName = await this.actorName(user);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('devices')
        .set({ project_id: target?.id ?? null, updated_at: now })
        .where('id', '=', device.id)
        .execute();
      await trx
        .insertInto('device_migrations')
        .values({
          group_id: user.groupId,
          device_sn: device.device_sn,
          from_project_id: device.project_id,
          from_project_name: from?.name ?? '',
          to_project_id: target?.id ?? null,
          to_project_name: target?.name ?? '',
          user_id: user.id,
          user_name: userName,
          created_at: now,
        })
        .execute();
    });
    this.changed(device.device_sn);
  }

  /**
   * Gives a device another type (or none). A real change emits `typeChanged` in the same
   * transaction (the templates feature re-applies the new type's standard template as creation
   * does); setting the type it has already changes nothing.
   */
  async setType(user: CurrentUser, sn: string, typeId: number | null, now = Date.now()): Promise<void> {
    const device = await this.scope.device(user, sn, 'write');
    await this.checkType(user, typeId);
    if (device.type_id === typeId) return;
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('devices').set({ type_id: typeId, updated_at: now }).where('id', '=', device.id).execute();
      await this.events.emit('typeChanged', trx, {
        groupId: user.groupId,
        deviceSn: device.device_sn,
        typeId,
        previousTypeId: device.type_id,
      });
    });
    this.changed(device.device_sn);
  }

  /** A device's type must be one of the group's types. */
  private async checkType(user: CurrentUser, typeId: number | null): Promise<void> {
    if (typeId === null) return;
    const type = await this.db
      .selectFrom('device_types')
      .select('id')
      .where('id', '=', typeId)
      .where('group_id', '=', user.groupId)
      .executeTakeFirst();
    if (!type) throw new AppError(400, 'ref.unknown', { what: 'TypeId', id: typeId }, 'TypeId');
  }

  async resetCredential(user: CurrentUser, sn: string, now = Date.now()): Promise<string> {
    const device = await this.scope.device(user, sn, 'write');
    const secret = newDeviceSecret();
    await this.db
      .updateTable('devices')
      .set({ secret_hash: hashDeviceSecret(secret), updated_at: now })
      .where('id', '=', device.id)
      .execute();
    this.changed(device.device_sn);
    return secret;
  }

  /** Moves a device to the recycle bin, with who and when; nothing else about it changes. */
  async recycle(user: CurrentUser, sn: string, now = Date.now()): Promise<void> {
    const device = await this.scope.device(user, sn, 'write');
    const name = await this.actorName(user);
    await this.db
      .updateTable('devices')
      .set({ deleted_at: now, deleted_by: user.id, deleted_by_name: name, online: 0, updated_at: now })
      .where('id', '=', device.id)
      .execute();
    this.changed(device.device_sn);
  }

  /** A device in the recycle bin that the user reaches (unassigned ones: administrators only). */
  private async recycled(user: CurrentUser, sn: string): Promise<DeviceRow> {
    const row = await this.db
      .selectFrom('devices')
      .selectAll()
      .where('device_sn', '=', sn)
      .where('group_id', '=', user.groupId)
      .where('deleted_at', 'is not', null)
      .where(projectReachable(user, 'devices.project_id', 'write'))
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'error.notFound');
    return row;
  }

  /** Back from the bin: to its project if that still exists, else unassigned. Answers whether it went back. */
  async restore(user: CurrentUser, sn: string, now = Date.now()): Promise<boolean> {
    const device = await this.recycled(user, sn);
    const project =
      device.project_id === null
        ? undefined
        : await this.db
            .selectFrom('projects')
            .select('id')
            .where('id', '=', device.project_id)
            .where('group_id', '=', user.groupId)
            .executeTakeFirst();
    await this.db
      .updateTable('devices')
      .set({ deleted_at: null, deleted_by: null, deleted_by_name: '', project_id: project?.id ?? null, updated_at: now })
      .where('id', '=', device.id)
      .execute();
    this.changed(device.device_sn);
    return project !== undefined;
  }

  /** Deletes a device from the bin for good, with everything that hangs on it. */
  async purge(user: CurrentUser, sn: string): Promise<void> {
    const device = await this.recycled(user, sn);
    const keys = await this.db.transaction().execute(async (trx) => {
      const images = await trx
        .selectFrom('device_images')
        .select('storage_key')
        .where('device_sn', '=', device.device_sn)
        .execute();
      await this.events.emit('purged', trx, { groupId: user.groupId, deviceSn: device.device_sn, typeId: device.type_id });
      await trx.deleteFrom('device_images').where('device_sn', '=', device.device_sn).execute();
      await trx.deleteFrom('device_configs').where('device_sn', '=', device.device_sn).execute();
      await trx.deleteFrom('device_cards').where('device_sn', '=', device.device_sn).execute();
      await trx.deleteFrom('device_migrations').where('device_sn', '=', device.device_sn).execute();
      await trx.deleteFrom('principals').where('parent_ref', '=', `device:${device.device_sn}`).execute();
      await trx.deleteFrom('devices').where('id', '=', device.id).execute();
      return images.map((i) => i.storage_key);
    });
    this.changed(device.device_sn);
    for (const key of keys) await this.storage.remove(key);
  }
}
