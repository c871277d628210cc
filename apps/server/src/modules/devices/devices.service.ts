/**
 * The rules of devices: adding one (with its credential, in one transaction with what the
 * `created` event's handlers do), moving it between projects (recorded), its type (`typeChanged`),
 * the recycle bin and the purge (`purged`). Every committed write tells `changed`.
 */
import { PROJECT_TYPE, type ProjectKind } from '@sluice/shared/project.schema';
import type { AddDeviceRequest, UpdateDeviceRequest } from '@sluice/shared/device.schema';
import type { Db } from '../../db/database.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import type { DeviceRow, ProjectRow, SiteScope } from '../sites/site-scope.ts';
import type { SiteRefsCheck } from '../sites/site-refs.ts';
import type { DeviceEvents } from './device-events.ts';
import { hashDeviceSecret, newDeviceSecret, newDeviceSn } from './device-credentials.ts';
import { DevicesRepository, newDeviceRow } from './devices.repository.ts';

/** Devices sit on projects and stations, never on a client node. */
const HOLDS_DEVICES: number[] = [PROJECT_TYPE.project, PROJECT_TYPE.station];

export const kindOf = (type: number): ProjectKind =>
  type === PROJECT_TYPE.client ? 'client' : type === PROJECT_TYPE.station ? 'station' : 'project';

export class DevicesService {
  private readonly storage: FileStorage;
  readonly repository: DevicesRepository;
  readonly scope: SiteScope;
  private readonly events: DeviceEvents;

  private readonly refs: SiteRefsCheck;

  constructor(deps: { db: Db; storage: FileStorage; scope: SiteScope; events: DeviceEvents; refs: SiteRefsCheck }) {
    this.storage = deps.storage;
    this.scope = deps.scope;
    this.events = deps.events;
    this.refs = deps.refs;
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
    return (await this.repository.actorName(user.id)) || user.account;
  }

  /** Adds a device; answers its serial number and the secret of its MQTT credential (shown once). */
  async create(user: CurrentUser, body: AddDeviceRequest, now = Date.now()): Promise<{ sn: string; secret: string }> {
    // Only an administrator may leave a device outside every project: others would lose sight of it.
    if (body.ProjectId === undefined && !user.isAdmin) throw new AppError(400, 'rule.required', {}, 'ProjectId');
    if (body.ProjectId !== undefined) await this.holder(user, body.ProjectId);
    await this.refs.check(user.groupId, body);
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
    await this.repository.transaction(async (devices, trx) => {
      await devices.insert(
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
      );
      await this.events.emit('created', trx, { groupId: user.groupId, deviceSn: sn, typeId: body.TypeId ?? null });
    });
    return { sn, secret };
  }

  async update(user: CurrentUser, body: UpdateDeviceRequest, now = Date.now()): Promise<void> {
    const device = await this.scope.device(user, body.DeviceSn, 'write');
    await this.refs.check(user.groupId, body);
    if (body.DeviceNo && (await this.repository.deviceNoTaken(user.groupId, body.DeviceNo, device.device_sn))) {
      throw new AppError(409, 'device.exists', { name: body.DeviceNo }, 'DeviceNo');
    }
    await this.repository.update(device.id, {
      ...(body.DeviceName !== undefined ? { device_name: body.DeviceName } : {}),
      ...(body.DeviceDescription !== undefined ? { device_description: body.DeviceDescription } : {}),
      ...(body.DeviceNo !== undefined ? { device_no: body.DeviceNo } : {}),
      ...(body.RegionId !== undefined ? { region_id: body.RegionId } : {}),
      ...(body.AreaId !== undefined ? { area_id: body.AreaId } : {}),
      ...(body.Position !== undefined ? { position: body.Position } : {}),
      ...(body.Address !== undefined ? { address: body.Address } : {}),
      ...(body.UseTime !== undefined ? { use_time: body.UseTime } : {}),
      updated_at: now,
    });
    this.changed(device.device_sn);
  }

  /** Moves a device to another project or station (or out of any, with null), and records the move. */
  async move(user: CurrentUser, sn: string, projectId: number | null, now = Date.now()): Promise<void> {
    const device = await this.scope.device(user, sn, 'write');
    const target = projectId === null ? undefined : await this.holder(user, projectId);
    if ((target?.id ?? null) === device.project_id)
      throw new AppError(409, projectId === null ? 'device.noProject' : 'device.sameProject');
    const fromName = device.project_id === null ? undefined : await this.repository.projectName(device.project_id);
    const userName = await this.actorName(user);
    await this.repository.transaction(async (devices) => {
      await devices.update(device.id, { project_id: target?.id ?? null, updated_at: now });
      await devices.recordMigration({
        group_id: user.groupId,
        device_sn: device.device_sn,
        from_project_id: device.project_id,
        from_project_name: fromName ?? '',
        to_project_id: target?.id ?? null,
        to_project_name: target?.name ?? '',
        user_id: user.id,
        user_name: userName,
        created_at: now,
      });
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
    await this.repository.transaction(async (devices, trx) => {
      await devices.update(device.id, { type_id: typeId, updated_at: now });
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
    if (!(await this.repository.typeExists(typeId, user.groupId)))
      throw new AppError(400, 'ref.unknown', { what: 'TypeId', id: typeId }, 'TypeId');
  }

  async resetCredential(user: CurrentUser, sn: string, now = Date.now()): Promise<string> {
    const device = await this.scope.device(user, sn, 'write');
    const secret = newDeviceSecret();
    await this.repository.update(device.id, { secret_hash: hashDeviceSecret(secret), updated_at: now });
    this.changed(device.device_sn);
    return secret;
  }

  /** Moves a device to the recycle bin, with who and when; nothing else about it changes. */
  async recycle(user: CurrentUser, sn: string, now = Date.now()): Promise<void> {
    const device = await this.scope.device(user, sn, 'write');
    const name = await this.actorName(user);
    await this.repository.update(device.id, {
      deleted_at: now,
      deleted_by: user.id,
      deleted_by_name: name,
      online: 0,
      updated_at: now,
    });
    this.changed(device.device_sn);
  }

  /** A device in the recycle bin that the user reaches (unassigned ones: administrators only). */
  private async recycled(user: CurrentUser, sn: string): Promise<DeviceRow> {
    const row = await this.repository.recycled(user, sn);
    if (!row) throw new AppError(404, 'error.notFound');
    return row;
  }

  /** Back from the bin: to its project if that still exists, else unassigned. Answers whether it went back. */
  async restore(user: CurrentUser, sn: string, now = Date.now()): Promise<boolean> {
    const device = await this.recycled(user, sn);
    const back = device.project_id !== null && (await this.repository.projectExists(device.project_id, user.groupId));
    await this.repository.update(device.id, {
      deleted_at: null,
      deleted_by: null,
      deleted_by_name: '',
      project_id: back ? device.project_id : null,
      updated_at: now,
    });
    this.changed(device.device_sn);
    return back;
  }

  /** Deletes a device from the bin for good, with everything that hangs on it. */
  async purge(user: CurrentUser, sn: string): Promise<void> {
    const device = await this.recycled(user, sn);
    const keys = await this.repository.transaction(async (devices, trx) => {
      const images = await devices.imageKeys(device.device_sn);
      await this.events.emit('purged', trx, { groupId: user.groupId, deviceSn: device.device_sn, typeId: device.type_id });
      await devices.deleteWithDetails(device.id, device.device_sn);
      return images;
    });
    this.changed(device.device_sn);
    for (const key of keys) await this.storage.remove(key);
  }
}
