/**
 * The one upload pipeline: a multipart file is checked by its bytes and stored while it streams;
 * crossing the size limit stops it with 413 and removes what was written.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.ts';
import type { FileStorage } from './file-storage.ts';
import { sniff, type FileKind } from './file-types.ts';

export interface UploadRule {
  folder: string;
  limit: number;
  kinds: FileKind[];
}

export interface StoredUpload {
  key: string;
  kind: FileKind;
  size: number;
  fileName: string;
}

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(0)} MB` : `${(n / 1024).toFixed(0)} KB`;

class SizeLimitError extends Error {}

/** Yields the file's chunks, checking the head's bytes against the allowed kinds and counting the size. */
async function* checkedChunks(source: Readable, rule: UploadRule, found: { kind?: FileKind; size: number }) {
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

export async function receiveUpload(
  request: FastifyRequest,
  storage: FileStorage,
  rule: UploadRule,
): Promise<StoredUpload> {
  if (!request.isMultipart()) throw new AppError(400, 'error.noFile', {}, 'file');
  // One byte over the limit tells a file that is too large from one exactly at it.
  const part = await request.file({ limits: { fileSize: rule.limit + 1, files: 1 } });
  if (!part) throw new AppError(400, 'error.noFile', {}, 'file');
  const found: { kind?: FileKind; size: number } = { size: 0 };
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
  const kind = found.kind ?? 'bin';
  const key = `${rule.folder}/${id}.${kind}`;
  await storage.rename(pendingKey, key);
  return { key, kind, size: found.size, fileName: part.filename };
}
