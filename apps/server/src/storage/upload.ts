/**
 * The one upload pipeline: a multipart file is checked by its bytes and stored while it streams;
 * crossing the size limit stops it with 413 and removes what was written.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import type { MessageKey } from '@sluice/shared/i18n';
import { AppError } from '../http/errors.ts';
import type { FileStorage } from './file-storage.ts';
import { sniff, type FileKind } from './file-types.ts';

export interface UploadRule {
  folder: string;
  limit: number;
  kinds: FileKind[];
  /**
   * A check of the whole file beyond its first bytes, on its last `tailBytes` bytes (an APK's
   * central directory, say); a file that fails is removed and refused with `message`.
   */
  verify?: { tailBytes: number; test: (tail: Buffer, size: number) => boolean; message: MessageKey };
}

export interface UploadOptions {
  /**
   * Checks the form fields sent before the file, before anything is stored (throwing to refuse);
   * query parameters count as fields too.
   */
  fields?: (fields: Record<string, string>) => void | Promise<void>;
}

export interface StoredUpload {
  key: string;
  kind: FileKind;
  size: number;
  fileName: string;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
  /** The multipart fields sent before the file, and the query's parameters. */
  fields: Record<string, string>;
}

/** Records a stored upload through `record`; when that fails, removes the file, so that no file is left without its row. */
export async function recordUpload<T>(storage: FileStorage, stored: StoredUpload, record: () => Promise<T>): Promise<T> {
  try {
    return await record();
  } catch (error) {
    await storage.remove(stored.key);
    throw error;
  }
}

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(0)} MB` : `${(n / 1024).toFixed(0)} KB`;

class SizeLimitError extends Error {}

/** Yields the file's chunks, checking the head's bytes against the allowed kinds and counting the size. */
interface Found {
  kind?: FileKind;
  size: number;
  hash: Hash;
  /** The last bytes seen, as long as the rule's verify asks for. */
  tail: Buffer[];
  tailLength: number;
}

function keepTail(found: Found, chunk: Buffer, rule: UploadRule) {
  const want = rule.verify?.tailBytes ?? 0;
  if (want === 0) return;
  found.tail.push(chunk);
  found.tailLength += chunk.length;
  while (found.tail.length > 1 && found.tailLength - (found.tail[0]?.length ?? 0) >= want) {
    found.tailLength -= found.tail.shift()?.length ?? 0;
  }
}

async function* checkedChunks(source: Readable, rule: UploadRule, found: Found) {
  const badType = () => new AppError(415, 'error.badFileType', { types: rule.kinds.join(', ') });
  const decide = (head: Buffer) => {
    const kind = sniff(head) ?? (rule.kinds.includes('bin') ? 'bin' : undefined);
    if (!kind || !rule.kinds.includes(kind)) throw badType();
    found.kind = kind;
  };
  let head = Buffer.alloc(0);
  for await (const chunk of source as AsyncIterable<Buffer>) {
    found.size += chunk.length;
    if (found.size > rule.limit) throw new SizeLimitError();
    found.hash.update(chunk);
    keepTail(found, chunk, rule);
    if (found.kind !== undefined) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < 16) continue;
    decide(head);
    yield head;
  }
  if (found.kind === undefined) {
    if (head.length === 0) throw badType();
    decide(head);
    yield head;
  }
}

/** The values of the multipart fields that came before the file, with the query's parameters under them. */
function fieldValues(request: FastifyRequest, parts: Record<string, unknown>): Record<string, string> {
  const values: Record<string, string> = {};
  const query = request.query;
  if (query && typeof query === 'object') {
    for (const [name, value] of Object.entries(query as Record<string, unknown>))
      if (typeof value === 'string') values[name] = value;
  }
  for (const [name, entry] of Object.entries(parts)) {
    const field = Array.isArray(entry) ? (entry[0] as unknown) : entry;
    if (field && typeof field === 'object' && 'type' in field && field.type === 'field' && 'value' in field) {
      values[name] = String(field.value);
    }
  }
  return values;
}

export async function receiveUpload(
  request: FastifyRequest,
  storage: FileStorage,
  rule: UploadRule,
  options: UploadOptions = {},
): Promise<StoredUpload> {
  if (!request.isMultipart()) throw new AppError(400, 'error.noFile', {}, 'file');
  // One byte over the limit tells a file that is too large from one exactly at it.
  const part = await request.file({ limits: { fileSize: rule.limit + 1, files: 1 } });
  if (!part) throw new AppError(400, 'error.noFile', {}, 'file');
  const fields = fieldValues(request, part.fields);
  try {
    await options.fields?.(fields);
  } catch (error) {
    part.file.resume();
    throw error;
  }
  const found: Found = { size: 0, hash: createHash('sha256'), tail: [], tailLength: 0 };
  const id = randomBytes(16).toString('hex');
  const stream = Readable.from(checkedChunks(part.file, rule, found));
  // The key's extension is set once the kind is known; store under a temporary name first.
  const pendingKey = `${rule.folder}/${id}.part`;
  try {
    await storage.save(pendingKey, stream);
  } catch (error) {
    part.file.resume();
    if (error instanceof AppError) throw error;
    if (error instanceof SizeLimitError || part.file.truncated) {
      throw new AppError(413, 'error.tooLarge', { limit: formatBytes(rule.limit) }, 'file');
    }
    throw error;
  }
  if (part.file.truncated) {
    await storage.remove(pendingKey);
    throw new AppError(413, 'error.tooLarge', { limit: formatBytes(rule.limit) }, 'file');
  }
  if (rule.verify && !rule.verify.test(Buffer.concat(found.tail), found.size)) {
    await storage.remove(pendingKey);
    throw new AppError(415, rule.verify.message, {}, 'file');
  }
  const kind = found.kind ?? 'bin';
  const key = `${rule.folder}/${id}.${kind}`;
  await storage.rename(pendingKey, key);
  return { key, kind, size: found.size, fileName: part.filename, sha256: found.hash.digest('hex'), fields };
}
