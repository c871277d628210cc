/**
 * A type's images and upgrade files once their bytes are stored: a new image goes last in the
 * order, images are renamed and reordered together, and a file's stored bytes go with its row.
 */
import {
  typeUpdateFileDto,
  type TypeImageDto,
  type TypeUpdateFileDto,
  type typeUpdateFileFields,
} from '@sluice/shared/device-type.schema';
import type { z } from 'zod';
import { AppError } from '../../http/errors.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { DeviceTypesRepository, TypeFileTable, TypeImageRow } from './device-types.repository.ts';

export const typeFileUrl = (key: unknown) => `/uploads/${String(key)}`;

const imageDto = (r: TypeImageRow): TypeImageDto => ({
  Id: r.id,
  TypeId: r.type_id,
  ImageName: r.image_name,
  Sn: r.sn,
  url: typeFileUrl(r.storage_key),
  Kind: r.kind,
});

/** An upload received and stored. */
export interface StoredTypeFile {
  key: string;
  fileName: string;
  kind: string;
  size: number;
  sha256: string;
}

export class TypeFilesService {
  private readonly types: DeviceTypesRepository;
  private readonly storage: FileStorage;

  constructor(deps: { types: DeviceTypesRepository; storage: FileStorage }) {
    this.types = deps.types;
    this.storage = deps.storage;
  }

  /** Records a stored image of the type, last in its order. */
  async addImage(user: CurrentUser, typeId: number, stored: StoredTypeFile, name: string | undefined): Promise<TypeImageDto> {
    const row = await this.types.insertImage({
      group_id: user.groupId,
      type_id: typeId,
      image_name: (name ?? stored.fileName).slice(0, 128),
      sn: (await this.types.lastImageSn(typeId)) + 1,
      storage_key: stored.key,
      kind: stored.kind,
      created_at: Date.now(),
    });
    return imageDto(row);
  }

  /** Saves the order (and names) of images of the type; answers all its images in order. */
  async saveImages(
    typeId: number,
    images: { Id: number; Sn: number; ImageName?: string | undefined }[],
  ): Promise<TypeImageDto[]> {
    const ids = images.map((i) => i.Id);
    if ((await this.types.imagesOfType(typeId, ids)) !== new Set(ids).size) throw new AppError(404, 'error.notFound');
    await this.types.saveImages(images);
    return (await this.types.images(typeId)).map(imageDto);
  }

  /** Records a stored firmware file. */
  async addFirmware(
    user: CurrentUser,
    meta: z.infer<typeof typeUpdateFileFields>,
    stored: StoredTypeFile,
  ): Promise<TypeUpdateFileDto> {
    const r = await this.types.insertUpdateFile({
      group_id: user.groupId,
      type_id: meta.TypeId,
      file_name: stored.fileName.slice(0, 200),
      version: meta.Version,
      role: meta.Role,
      description: meta.Description ?? '',
      size: stored.size,
      sha256: stored.sha256,
      storage_key: stored.key,
      created_at: Date.now(),
    });
    return typeUpdateFileDto.parse({
      Id: r.id,
      TypeId: r.type_id,
      FileName: r.file_name,
      Version: r.version,
      Role: r.role,
      Description: r.description,
      Size: r.size,
      Sha256: r.sha256,
      url: typeFileUrl(r.storage_key),
      CreatedAt: r.created_at,
    });
  }

  /** Removes the stored bytes of an image or file (its row goes with the generic delete). */
  async removeStored(table: TypeFileTable, id: number): Promise<void> {
    const key = await this.types.fileKey(table, id);
    if (key !== undefined) await this.storage.remove(key);
  }
}
