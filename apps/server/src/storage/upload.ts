/**
 * The one upload pipeline: a multipart file is checked by its bytes and stored while it streams;
 * crossing the size limit stops it with 413 and removes what was written; a body that is no
 * well-formed multipart form (no boundary, a broken part, cut off) is the caller's fault: 400.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { MessageKey } from '@sluice/shared/i18n';
import { AppError } from '../http/errors.ts';
import type { FileStorage } from './file-storage.ts';
import { sniff, type FileKind } from './file-types.ts';
import type { UploadFolder } from './upload-keys.ts';

export interface UploadRule {
  /** One of UPLOAD_FOLDERS, whose keys are held in a column of UPLOAD_KEY_COLUMNS. */
  folder: UploadFolder;
  limit: number;
  /** The kinds taken, told by their first bytes; 'bin' takes any bytes (stored as bin unless another listed kind is recognised). */
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

/** The multipart body itself could not be read (as opposed to storing it failing). */
class UnreadableUpload extends Error {}

const badUpload = () => new AppError(400, 'error.badUpload', {}, 'file');

/**
 * What reading a multipart body threw, as the caller should hear it: our own refusals as they
 * are, the reader's limits as 413, and anything else the reader found wrong with the body as 400.
 */
function uploadError(error: unknown, limit: number): unknown {
  if (error instanceof AppError) return error;
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (status === 413) return new AppError(413, 'error.tooLarge', { limit: formatBytes(limit) }, 'file');
  return badUpload();
}

/** The request's one file part, its fields read; a body that is no multipart form with a file is refused. */
async function filePart(request: FastifyRequest, limit: number): Promise<MultipartFile> {
  if (!request.isMultipart()) throw new AppError(400, 'error.noFile', {}, 'file');
  let part: MultipartFile | undefined;
  try {
    // One byte over the limit tells a file that is too large from one exactly at it.
    part = await request.file({ limits: { fileSize: limit + 1, files: 1 } });
  } catch (error) {
    throw uploadError(error, limit);
  }
  if (!part) throw new AppError(400, 'error.noFile', {}, 'file');
  return part;
}

/** A small upload read whole into memory (an import), refused like any other when too large or unreadable. */
export async function receiveBuffer(request: FastifyRequest, limit: number): Promise<{ bytes: Buffer; fileName: string }> {
  const part = await filePart(request, limit);
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (error) {
    throw part.file.truncated
      ? new AppError(413, 'error.tooLarge', { limit: formatBytes(limit) }, 'file')
      : uploadError(error, limit);
  }
  if (part.file.truncated || bytes.length > limit)
    throw new AppError(413, 'error.tooLarge', { limit: formatBytes(limit) }, 'file');
  return { bytes, fileName: part.filename };
}

/** The source's chunks; its failing is an unreadable upload. */
async function* readable(source: Readable): AsyncGenerator<Buffer> {
  const chunks = (source as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Buffer>;
    try {
      next = await chunks.next();
    } catch {
      throw new UnreadableUpload();
    }
    if (next.done) return;
    yield next.value;
  }
}

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
    const sniffed = sniff(head);
    const kind = sniffed && rule.kinds.includes(sniffed) ? sniffed : rule.kinds.includes('bin') ? 'bin' : undefined;
    if (!kind) throw badType();
    found.kind = kind;
  };
  let head = Buffer.alloc(0);
  for await (const chunk of readable(source)) {
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
  const part = await filePart(request, rule.limit);
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
    if (error instanceof UnreadableUpload) throw badUpload();
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
