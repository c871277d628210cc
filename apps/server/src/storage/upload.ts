/**
 * The one upload pipeline: a multipart file is checked by its bytes and stored while it streams;
 * crossing the size limit stops it with 413 and removes what was written.
 */
import { randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
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

/** Checks the head's bytes against the allowed kinds and counts the size as the file streams. */
function checkedStream(source: Readable, rule: UploadRule, found: { kind?: FileKind; size: number }): Transform {
  let head = Buffer.alloc(0);
  const checker = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      found.size += chunk.length;
      if (found.size > rule.limit) {
        callback(new SizeLimitError());
        return;
      }
      if (found.kind === undefined) {
        head = Buffer.concat([head, chunk]);
        if (head.length < 16 && found.size < rule.limit) {
          callback();
          return;
        }
        found.kind = sniff(head) ?? (rule.kinds.includes('bin') ? 'bin' : undefined);
        if (!found.kind || !rule.kinds.includes(found.kind)) {
          callback(new AppError(415, 'error.badFileType', { types: rule.kinds.join(', ') }));
          return;
        }
        callback(null, head);
        return;
      }
      callback(null, chunk);
    },
    flush(callback) {
      if (found.kind === undefined) {
        found.kind = sniff(head) ?? (rule.kinds.includes('bin') ? 'bin' : undefined);
        if (!found.kind || !rule.kinds.includes(found.kind) || head.length === 0) {
          callback(new AppError(415, 'error.badFileType', { types: rule.kinds.join(', ') }));
          return;
        }
        this.push(head);
      }
      callback();
    },
  });
  return source.pipe(checker);
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
  const stream = checkedStream(part.file, rule, found);
  // The key's extension is set once the kind is known; store under a temporary name first.
  const pendingKey = `${rule.folder}/${id}.part`;
  try {
    await storage.save(pendingKey, stream);
  } catch (error) {
    part.file.resume();
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
