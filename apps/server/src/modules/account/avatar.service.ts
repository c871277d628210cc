/**
 * Avatars (spec §2 user information, §7 user/Picture, §9 2 MB): PNG or JPEG told by their bytes,
 * stored under a generated key in the private avatar folder (never served by /uploads), and read
 * back only by users of the same group (GET user/Picture/{id}).
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AVATAR_LIMIT } from '@sluice/shared/account.schema';
import { AppError } from '../../http/errors.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { CONTENT_TYPES, type FileKind } from '../../storage/file-types.ts';
import { receiveUpload, recordUpload } from '../../storage/upload.ts';
import { AVATAR_FOLDER } from '../../storage/uploads.routes.ts';
import type { UsersRepository } from './users.repository.ts';

export interface AvatarFile {
  stream: Readable;
  contentType: string;
}

export class AvatarService {
  private readonly users: UsersRepository;
  private readonly storage: FileStorage;
  constructor(users: UsersRepository, storage: FileStorage) {
    this.users = users;
    this.storage = storage;
  }

  /** Stores the request's image as the user's avatar and removes the one it replaces. */
  async upload(request: FastifyRequest, userId: number, groupId: number): Promise<void> {
    const previous = await this.users.pictureKey(userId, groupId);
    const stored = await receiveUpload(request, this.storage, {
      folder: AVATAR_FOLDER,
      limit: AVATAR_LIMIT,
      kinds: ['png', 'jpeg'],
    });
    await recordUpload(this.storage, stored, async () => {
      if (!(await this.users.update(userId, groupId, { picture: stored.key }))) throw new AppError(404, 'error.notFound');
    });
    if (previous) await this.storage.remove(previous);
  }

  async remove(userId: number, groupId: number): Promise<void> {
    const previous = await this.users.pictureKey(userId, groupId);
    await this.users.update(userId, groupId, { picture: '' });
    if (previous) await this.storage.remove(previous);
  }

  /** The avatar of a user of `groupId`; another group's user, or none, is not found. */
  async open(userId: number, groupId: number): Promise<AvatarFile> {
    const key = await this.users.pictureKey(userId, groupId);
    const kind = key?.split('.').pop() ?? '';
    const stream = key && Object.hasOwn(CONTENT_TYPES, kind) ? await this.storage.open(key) : undefined;
    if (!stream) throw new AppError(404, 'error.notFound');
    return { stream, contentType: CONTENT_TYPES[kind as FileKind] };
  }
}
