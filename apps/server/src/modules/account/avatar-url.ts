/** The address of an avatar (spec §7 user/Picture), read through GET /api/user/Picture/{id}. */
import { AVATAR_FOLDER } from '../../storage/uploads.routes.ts';

/** Where the console reads a user's avatar: the stored key's name makes a new picture a new address. */
export function pictureUrl(userId: number, key: string): string {
  if (!key.startsWith(`${AVATAR_FOLDER}/`)) return '';
  const version = key.slice(AVATAR_FOLDER.length + 1).split('.', 1)[0] ?? '';
  return `/api/user/Picture/${String(userId)}?v=${version}`;
}
