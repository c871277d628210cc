/**
 * The rules of app versions: an uploaded package is a new version or the new file of one (the
 * old file then goes), an edit changes a version's number, state and description, and the
 * newest enabled version of a type is the highest version number.
 */
import { compareVersions, type AppVersionDto, type appUploadFields } from '@sluice/shared/app-version.schema';
import type { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { AppVersionRow, AppVersionsRepository } from './app-versions.repository.ts';

export const appFileUrl = (key: unknown) => `/uploads/${String(key)}`;

export const toAppVersionDto = (r: AppVersionRow): AppVersionDto => ({
  Id: r.id,
  Description: r.description,
  VersionNo: r.version_no,
  State: r.state === 1,
  Type: r.app_type,
  FileName: r.file_name,
  Size: r.size,
  Sha256: r.sha256,
  url: appFileUrl(r.storage_key),
  CreatedAt: r.created_at,
});

/** A package received and stored. */
export interface StoredPackage {
  key: string;
  fileName: string;
  size: number;
  sha256: string;
}

export class AppVersionsService {
  readonly repository: AppVersionsRepository;
  private readonly storage: FileStorage;

  constructor(deps: { repository: AppVersionsRepository; storage: FileStorage }) {
    this.repository = deps.repository;
    this.storage = deps.storage;
  }

  /** The version `id` of the user's group; 404 otherwise. */
  async own(user: CurrentUser, id: number): Promise<number> {
    const own = await this.repository.ownId(id, user.groupId);
    if (own === undefined) throw new AppError(404, 'error.notFound');
    return own;
  }

  /** Records a stored package as a new version, or as the new file of version `replaceId` (whose old file goes). */
  async saveUpload(
    user: CurrentUser,
    meta: z.infer<typeof appUploadFields>,
    stored: StoredPackage,
    replaceId: number | undefined,
  ): Promise<AppVersionDto> {
    const values = {
      app_type: meta.Type,
      version_no: meta.VersionNo,
      description: meta.Description ?? '',
      state: meta.State ? 1 : 0,
      file_name: stored.fileName.slice(0, 200),
      size: stored.size,
      sha256: stored.sha256,
      storage_key: stored.key,
      created_at: Date.now(),
    };
    if (replaceId !== undefined) {
      const before = await this.repository.storageKey(replaceId);
      await this.repository.update(replaceId, values);
      if (before !== undefined) await this.storage.remove(before);
      return toAppVersionDto(await this.repository.byId(replaceId));
    }
    const id = await this.repository.insert({ group_id: user.groupId, ...values });
    return toAppVersionDto(await this.repository.byId(id));
  }

  async edit(
    user: CurrentUser,
    change: { Id: number; VersionNo: string; Description?: string | undefined; State: boolean },
  ): Promise<AppVersionDto> {
    const id = await this.own(user, change.Id);
    await this.repository.update(id, {
      version_no: change.VersionNo,
      state: change.State ? 1 : 0,
      ...(change.Description === undefined ? {} : { description: change.Description }),
    });
    return toAppVersionDto(await this.repository.byId(id));
  }

  /** The stored file of a version goes with it. */
  async removeFile(id: number): Promise<void> {
    const key = await this.repository.storageKey(id);
    if (key !== undefined) await this.storage.remove(key);
  }

  /** The newest enabled version of an app type, by version number. */
  async latest(groupId: number, type: string): Promise<AppVersionRow | undefined> {
    const rows = await this.repository.enabledOfType(groupId, type);
    return rows.sort((a, b) => compareVersions(b.version_no, a.version_no) || b.id - a.id)[0];
  }

  /** The newest enabled version of a group's app, by the group's code. */
  async latestOfGroupCode(code: string, type: string): Promise<AppVersionRow | undefined> {
    const groupId = await this.repository.groupIdByCode(code);
    return groupId === undefined ? undefined : this.latest(groupId, type);
  }
}
