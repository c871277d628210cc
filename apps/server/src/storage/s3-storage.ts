/**
 * Uploads in an S3-compatible bucket (STORAGE=s3: AWS S3, MinIO, Ceph RGW, Cloudflare R2, …), so
 * that several server instances share them, with LocalStorage's semantics:
 * - save streams the body up (one PUT up to a part's size, else a multipart upload holding two
 *   5 MiB parts at a time), and refuses a key already stored twice over: a HEAD first (every store)
 *   and `If-None-Match: *` on the write, which stores with conditional writes (AWS S3 and MinIO
 *   among them) apply atomically; others ignore it, and then only the HEAD stands.
 *   A failed save leaves no object (an unfinished multipart upload is aborted; where that fails
 *   too, the bucket's lifecycle rule for incomplete uploads clears its parts, docs/deploy.md).
 * - open answers undefined for a key not stored; rename is a server-side copy, then a delete;
 *   remove of a key not stored is no error.
 * The AWS SDK is imported on first use: a server on local disk never loads it.
 */
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { ConfigError, type Config } from '../config.ts';
import { checkedKey, isStorageKey, keyExists, type FileStorage } from './file-storage.ts';

export type S3Config = Pick<
  Config,
  'S3_ENDPOINT' | 'S3_REGION' | 'S3_BUCKET' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE' | 'S3_PREFIX'
>;

/** The smallest part S3 takes; parts are buffered, so memory per upload is about PART_SIZE × PARTS_AT_ONCE. */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_AT_ONCE = 2;

type Sdk = typeof import('@aws-sdk/client-s3');
type Upload = typeof import('@aws-sdk/lib-storage').Upload;

interface Loaded {
  sdk: Sdk;
  Upload: Upload;
  client: S3Client;
}

/** What the store answered, as the SDK tells it. */
const statusOf = (error: unknown): number | undefined =>
  (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
const nameOf = (error: unknown): string => (error instanceof Error ? error.name : '');

/** A key the store does not hold (a missing bucket is not that: it is an error to report). */
const isMissing = (error: unknown) => statusOf(error) === 404 && nameOf(error) !== 'NoSuchBucket';

export class S3Storage implements FileStorage {
  private loaded?: Promise<Loaded>;
  private readonly config: S3Config;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(config: S3Config) {
    this.config = config;
    if (!config.S3_BUCKET) throw new ConfigError('S3_BUCKET: must be set when STORAGE is s3');
    this.bucket = config.S3_BUCKET;
    const prefix = config.S3_PREFIX ?? '';
    this.prefix = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
  }

  /** Where the files go, for messages: s3://bucket/prefix (at the endpoint). */
  describe(): string {
    const at = this.config.S3_ENDPOINT ? ` at ${this.config.S3_ENDPOINT}` : ` in ${this.config.S3_REGION}`;
    return `s3://${this.bucket}/${this.prefix}${at}`;
  }

  private load(): Promise<Loaded> {
    this.loaded ??= (async () => {
      const [sdk, { Upload }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
      const { S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE } = this.config;
      const client = new sdk.S3Client({
        region: S3_REGION,
        ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT } : {}),
        forcePathStyle: S3_FORCE_PATH_STYLE,
        // Without keys, the SDK's own chain: AWS_* variables, shared files, a container's or instance's role.
        ...(S3_ACCESS_KEY_ID && S3_SECRET_ACCESS_KEY
          ? { credentials: { accessKeyId: S3_ACCESS_KEY_ID, secretAccessKey: S3_SECRET_ACCESS_KEY } }
          : {}),
        // Checksums only where the API requires them: many S3-compatible stores refuse the
        // CRC32 trailers the SDK would otherwise add to every upload.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // A download held open by a slow client holds a socket: more than the SDK's 50 at once.
        requestHandler: { connectionTimeout: 10_000, httpAgent: { maxSockets: 256 }, httpsAgent: { maxSockets: 256 } },
      });
      return { sdk, Upload, client };
    })();
    return this.loaded;
  }

  private object(key: string): string {
    return this.prefix + checkedKey(key);
  }

  private async exists(key: string): Promise<boolean> {
    const { sdk, client } = await this.load();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: this.object(key) }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async save(key: string, body: Readable): Promise<void> {
    // The body's own failure (too large, unreadable) is what the caller must hear, even when
    // aborting the multipart upload then fails too.
    let bodyError: Error | undefined;
    body.once('error', (error: Error) => {
      bodyError = error;
    });
    try {
      const object = this.object(key);
      if (await this.exists(key)) throw keyExists(key);
      const { client, Upload } = await this.load();
      const upload = new Upload({
        client,
        params: { Bucket: this.bucket, Key: object, Body: body, IfNoneMatch: '*' },
        partSize: PART_SIZE,
        queueSize: PARTS_AT_ONCE,
      });
      await upload.done();
    } catch (error) {
      body.destroy();
      if (bodyError !== undefined) throw bodyError;
      // 412: a conditional write found the key stored meanwhile.
      if (statusOf(error) === 412) throw keyExists(key);
      throw error;
    }
  }

  async open(key: string): Promise<Readable | undefined> {
    if (!isStorageKey(key)) return undefined;
    const { sdk, client } = await this.load();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: this.object(key) }));
      if (!(answer.Body instanceof Readable)) throw new Error(`S3 answered ${key} without a body`);
      return answer.Body;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async rename(from: string, to: string): Promise<void> {
    const { sdk, client } = await this.load();
    const source = this.object(from);
    await client.send(
      new sdk.CopyObjectCommand({ Bucket: this.bucket, Key: this.object(to), CopySource: `${this.bucket}/${source}` }),
    );
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: source }));
  }

  async remove(key: string): Promise<void> {
    const { sdk, client } = await this.load();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: this.object(key) }));
  }

  /** Asks the store for the bucket; a refusal says which settings to look at. */
  async check(): Promise<void> {
    const { sdk, client } = await this.load();
    try {
      await client.send(new sdk.HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = statusOf(error);
      // A HEAD's answer has no body: its status (and the SDK's name for it) is all there is.
      const detail =
        status === undefined ? String(error) : `HTTP ${String(status)}${nameOf(error) === 'Unknown' ? '' : ` ${nameOf(error)}`}`;
      const problem =
        nameOf(error) === 'CredentialsProviderError'
          ? 'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: no credentials (set both, or run where the SDK finds a role or AWS_* variables)'
          : status === 404
            ? 'S3_BUCKET: no such bucket'
            : status === 403 || status === 401
              ? 'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: the store refuses these credentials for the bucket'
              : status === 301 || status === 400
                ? 'S3_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE: the store answers for another region or address'
                : status === undefined
                  ? 'S3_ENDPOINT: the store cannot be reached'
                  : `the store answered ${String(status)}`;
      throw new ConfigError(`Uploads cannot be stored in ${this.describe()}:\n  ${problem} (${detail})`);
    }
  }
}
