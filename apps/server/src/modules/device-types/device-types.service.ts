/**
 * The rules of device types: a type's parent is another type of the group and not below it; a
 * type with sub-types or devices is not deleted (its stored files go with it); a deep copy runs in
 * one transaction and removes the files it wrote when it fails; a part's rows carry the library
 * fields of their data point.
 */
import type { DeviceTypeDto } from '@sluice/shared/device-type.schema';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { DeviceTypesRepository } from './device-types.repository.ts';
import { copyType, copyTypeFiles } from './type-copy.service.ts';

type Row = Record<string, unknown>;

export class DeviceTypesService {
  private readonly db: Db;
  private readonly storage: FileStorage;
  readonly repository: DeviceTypesRepository;

  constructor(deps: { db: Db; storage: FileStorage; repository: DeviceTypesRepository }) {
    this.db = deps.db;
    this.storage = deps.storage;
    this.repository = deps.repository;
  }

  async dto(groupId: number, id: number): Promise<DeviceTypeDto> {
    const row = await this.repository.one(id, groupId);
    if (!row) throw new AppError(404, 'error.notFound');
    return {
      Id: row.id,
      TypeName: row.type_name,
      DeviceTypeName: row.type_name,
      ICON: row.icon,
      ParentId: row.parent_id,
      Description: row.description,
      Status: row.status,
    };
  }

  /** The parent must be another type of the group and not below the type itself. */
  async checkParent(parentId: number, groupId: number, selfId?: number): Promise<void> {
    if (parentId === 0) return;
    const types = await this.repository.tree(groupId);
    const parentOf = new Map(types.map((t) => [t.id, t.parent_id]));
    if (!parentOf.has(parentId)) throw new AppError(400, 'deviceType.badParent', {}, 'ParentId');
    for (
      let at: number | undefined = parentId, hops = 0;
      at !== undefined && at !== 0 && hops <= types.length;
      at = parentOf.get(at), hops++
    ) {
      if (at === selfId) throw new AppError(400, 'deviceType.badParent', {}, 'ParentId');
    }
  }

  /** Refuses to delete a type with sub-types or devices; otherwise removes its stored files (its rows cascade). */
  async beforeRemove(type: { Id: number; TypeName: string }, groupId: number): Promise<void> {
    if (await this.repository.hasChildren(type.Id, groupId))
      throw new AppError(409, 'deviceType.hasChildren', { name: type.TypeName });
    const count = await this.repository.activeDevices(type.Id, groupId);
    if (count > 0) throw new AppError(409, 'deviceType.inUse', { name: type.TypeName, count });
    for (const key of await this.repository.fileKeys(type.Id)) await this.storage.remove(key);
  }

  /** Runs a copy in a transaction; the files it stored are removed again when it fails. */
  private async copying<T>(work: (types: DeviceTypesRepository, written: string[]) => Promise<T>): Promise<T> {
    const written: string[] = [];
    try {
      return await this.db.transaction().execute((trx) => work(new DeviceTypesRepository(trx), written));
    } catch (error) {
      for (const key of written) await this.storage.remove(key);
      throw error;
    }
  }

  /** Copies a type with everything under it into a new type, or over an existing one; answers the target. */
  async copy(
    user: CurrentUser,
    request: { sourceId: number; targetId?: number | undefined; typeName?: string | undefined },
  ): Promise<DeviceTypeDto> {
    const targetId = await this.copying((types, written) => copyType(types, this.storage, user.groupId, request, written));
    return this.dto(user.groupId, targetId);
  }

  /** Appends a type's images and firmware to another type of the group. */
  async copyFiles(user: CurrentUser, sourceId: number, targetId: number): Promise<DeviceTypeDto> {
    if (sourceId === targetId) throw new AppError(400, 'deviceType.copySelf', {}, 'TargetId');
    if ((await this.repository.ownedCount(user.groupId, [sourceId, targetId])) !== 2) throw new AppError(404, 'error.notFound');
    await this.copying((types, written) => copyTypeFiles(types, this.storage, user.groupId, sourceId, targetId, written));
    return this.dto(user.groupId, targetId);
  }

  /** Adds the library fields of each row's data point, in one query. */
  async withLibraryFields(groupId: number, rows: Row[]): Promise<Row[]> {
    const ids = [...new Set(rows.map((r) => Number(r.data_define_id)))];
    const byId = new Map((await this.repository.libraryRows(groupId, ids)).map((d) => [d.id, d]));
    return rows.map((r) => {
      const d = byId.get(Number(r.data_define_id));
      return {
        ...r,
        data_key: d?.data_key ?? '',
        data_name: d?.data_name ?? '',
        unit: d?.unit ?? '',
        data_type: d?.data_type ?? 'readable',
        default_value: d?.default_value ?? '',
        format: d?.format ?? '',
        model: d?.model ?? '',
        category: d?.category ?? '',
      };
    });
  }
}
