/**
 * The stores of uploads keep one contract: the same cases run against local disk (LocalStorage)
 * and an S3-compatible bucket (S3Storage on a local server speaking S3, fake-s3.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { LocalStorage, type FileStorage } from '../src/storage/file-storage.ts';
import { S3Storage } from '../src/storage/s3-storage.ts';
import { startFakeS3, type FakeS3 } from './fake-s3.ts';
import { PNG } from './harness.ts';
import { freePort } from './scratch.ts';

interface Store {
  storage: FileStorage;
  /** The keys the store holds. */
  stored(): Promise<string[]>;
  close(): Promise<void>;
}

const stores: { name: string; start: () => Promise<Store> }[] = [
  {
    name: 'local disk',
    start: async () => {
      const root = await mkdtemp(path.join(tmpdir(), 'sluice-store-'));
      return {
        storage: new LocalStorage(root),
        async stored() {
          const entries = await readdir(root, { recursive: true, withFileTypes: true });
          return entries
            .filter((e) => e.isFile())
            .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
            .sort();
        },
        close: () => rm(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: 'an S3-compatible bucket',
    start: async () => {
      const s3 = await startFakeS3();
      return { storage: new S3Storage(loadConfig(s3.env)), stored: () => s3.keys(), close: () => s3.close() };
    },
  },
];

async function bytesOf(stream: Readable | undefined): Promise<Buffer | undefined> {
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `size` bytes of a repeatable pattern in 64 KiB chunks, made as they are read. */
function* pattern(size: number, failAt?: { offset: number; error: Error }): Generator<Buffer> {
  for (let at = 0; at < size; at += 65_536) {
    if (failAt && at >= failAt.offset) throw failAt.error;
    const chunk = Buffer.alloc(Math.min(65_536, size - at));
    for (let i = 0; i + 4 <= chunk.length; i += 4) chunk.writeUInt32BE((at + i) >>> 0, i);
    yield chunk;
  }
}

async function sha256(source: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of source) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { hash: hash.digest('hex'), size };
}

class BodyFailed extends Error {}

describe.each(stores)('uploads stored on $name', ({ start }) => {
  let store: Store;
  let storage: FileStorage;
  let n = 0;
  /** A fresh key in `folder`. */
  const key = (folder = 'project-images', ext = 'png') => `${folder}/k${String(++n)}x${String(Date.now())}.${ext}`;

  beforeAll(async () => {
    store = await start();
    storage = store.storage;
    await storage.check();
  });
  afterAll(async () => {
    await store.close();
  });

  it('stores a stream and gives the same bytes back', async () => {
    const k = key();
    await storage.save(k, Readable.from([PNG.subarray(0, 10), PNG.subarray(10)]));
    expect(await bytesOf(await storage.open(k))).toEqual(PNG);
    expect(await store.stored()).toContain(k);
  });

  it('refuses to store a key twice, keeping what was stored first', async () => {
    const k = key();
    await storage.save(k, Readable.from([PNG]));
    const second = Readable.from([Buffer.from('another file')]);
    await expect(storage.save(k, second)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(second.destroyed).toBe(true);
    expect(await bytesOf(await storage.open(k))).toEqual(PNG);
  });

  it('answers nothing for a key not stored, or for what is no key', async () => {
    expect(await storage.open(key())).toBeUndefined();
    expect(await storage.open(key('folder-never-used'))).toBeUndefined();
    for (const bad of ['../sluice.db', 'project-images/../../x.png', 'project-images/x', 'x.png', '/etc/passwd', ''])
      expect(await storage.open(bad), bad).toBeUndefined();
  });

  it('refuses what is no key on every write, storing and deleting nothing', async () => {
    const k = key();
    await storage.save(k, Readable.from([PNG]));
    const before = await store.stored();
    await expect(storage.save('../evil.png', Readable.from([PNG]))).rejects.toThrow(/Bad storage key/);
    await expect(storage.save('project-images/a b.png', Readable.from([PNG]))).rejects.toThrow(/Bad storage key/);
    await expect(storage.rename(k, 'project-images/../x.png')).rejects.toThrow(/Bad storage key/);
    await expect(storage.remove('project-images/..')).rejects.toThrow(/Bad storage key/);
    expect(await store.stored()).toEqual(before);
  });

  it('renames: the bytes under the new key, none under the old; a key not stored cannot be renamed', async () => {
    const from = key('type-images', 'part');
    const to = key('type-images', 'png');
    await storage.save(from, Readable.from([PNG]));
    await storage.rename(from, to);
    expect(await storage.open(from)).toBeUndefined();
    expect(await bytesOf(await storage.open(to))).toEqual(PNG);
    const missing = key('type-images', 'part');
    await expect(storage.rename(missing, key())).rejects.toThrow();
  });

  it('removes a file, and removing one not stored (or removed already) is no error', async () => {
    const k = key('firmware', 'bin');
    await storage.save(k, Readable.from([Buffer.from('firmware bytes')]));
    await storage.remove(k);
    expect(await storage.open(k)).toBeUndefined();
    expect(await store.stored()).not.toContain(k);
    await storage.remove(k);
    await storage.remove(key('folder-never-used', 'bin'));
  });

  it('streams a large file in and out (several of S3’s 5 MiB parts)', async () => {
    const size = 23 * 1024 * 1024 + 7;
    const k = key('type-images', 'mp4');
    await storage.save(k, Readable.from(pattern(size)));
    const stream = await storage.open(k);
    expect(stream).toBeDefined();
    expect(await sha256(stream as AsyncIterable<Buffer>)).toEqual(await sha256(pattern(size)));
  });

  it('fails with the body’s own error when the body fails midway, storing nothing under the key', async () => {
    const k = key('type-images', 'part');
    const error = new BodyFailed('too large');
    await expect(storage.save(k, Readable.from(pattern(20 * 1024 * 1024, { offset: 12 * 1024 * 1024, error })))).rejects.toBe(
      error,
    );
    expect(await storage.open(k)).toBeUndefined();
    expect(await store.stored()).not.toContain(k);
    // A small body failing before its first part is full.
    const small = key('type-images', 'part');
    await expect(storage.save(small, Readable.from(pattern(100_000, { offset: 65_536, error })))).rejects.toBe(error);
    expect(await storage.open(small)).toBeUndefined();
  });
});

describe('an S3-compatible bucket', () => {
  let s3: FakeS3;
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(async () => {
    await s3.close();
  });

  const storageWith = (env: Record<string, string>) => new S3Storage(loadConfig({ ...s3.env, ...env }));

  it('keeps the keys under S3_PREFIX', async () => {
    const storage = storageWith({ S3_PREFIX: 'tenants/sluice' });
    await storage.save('group-logo/abc.png', Readable.from([PNG]));
    expect(await s3.keys('tenants/')).toEqual(['tenants/sluice/group-logo/abc.png']);
    expect(await bytesOf(await storage.open('group-logo/abc.png'))).toEqual(PNG);
    expect(await storageWith({}).open('group-logo/abc.png')).toBeUndefined();
  });

  it('stops start-up naming the setting when the bucket cannot be used', async () => {
    const problem = async (env: Record<string, string>) => {
      const error = await storageWith(env)
        .check()
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    };
    expect(await problem({ S3_ACCESS_KEY_ID: 'SOMEONE-ELSE' })).toMatch(/S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: .*refuses/);
    expect(await problem({ S3_BUCKET: 'no-such-bucket' })).toMatch(/S3_BUCKET: no such bucket/);
    // A port nothing listens on.
    expect(await problem({ S3_ENDPOINT: `http://127.0.0.1:${String(await freePort())}` })).toMatch(
      /S3_ENDPOINT: .*cannot be reached/,
    );
    await storageWith({}).check();
  });
});
