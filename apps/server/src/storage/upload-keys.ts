/**
 * Where stored uploads are referred to: the folders they are stored under (one per kind of
 * upload) and every column holding an upload's key, so that what deletes rows wholesale (a
 * tenant) finds the files that go with them. tenant-removal.test.ts uploads one file of every
 * folder and fails when a key lands in a column not declared here.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/tables.ts';
import type { FileStorage } from './file-storage.ts';

export const UPLOAD_FOLDERS = [
  'group-logo',
  'avatar',
  'project-images',
  'device-images',
  'type-images',
  'firmware',
  'apps',
  'record-photos',
] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];

/** A column holding upload keys: its values are `prefix` + key, or empty. */
export type UploadKeyColumn = {
  [T in keyof Database]: { table: T; column: Extract<keyof Database[T], string>; prefix: string };
}[keyof Database];

export const UPLOAD_KEY_COLUMNS: readonly UploadKeyColumn[] = [
  { table: 'groups', column: 'logo', prefix: '/uploads/' },
  { table: 'users', column: 'picture', prefix: '' },
  { table: 'project_images', column: 'storage_key', prefix: '' },
  { table: 'device_images', column: 'storage_key', prefix: '' },
  { table: 'type_images', column: 'storage_key', prefix: '' },
  { table: 'type_update_files', column: 'storage_key', prefix: '' },
  { table: 'app_versions', column: 'storage_key', prefix: '' },
  { table: 'record_photos', column: 'storage_key', prefix: '' },
];

/** The key a column's value refers to, or undefined when it refers to none (empty, or another address). */
export function uploadKeyOf(entry: UploadKeyColumn, value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(entry.prefix)) return undefined;
  const key = value.slice(entry.prefix.length);
  return key === '' ? undefined : key;
}

/**
 * Deletes stored files whose rows are already gone: one that cannot be deleted is logged and
 * left (the rows stay deleted). Answers how many could not be deleted.
 */
export async function removeStoredFiles(
  storage: FileStorage,
  keys: Iterable<string>,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<number> {
  let failed = 0;
  for (const key of keys) {
    try {
      await storage.remove(key);
    } catch (error) {
      failed += 1;
      log.warn({ err: error, key }, 'a stored file whose rows were deleted could not be removed');
    }
  }
  return failed;
}
