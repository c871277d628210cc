/**
 * A local server speaking the S3 protocol (s3rver, files in a temporary folder) for STORAGE=s3 in
 * tests: no S3 service can be reached from here. It knows one access key (S3RVER, secret S3RVER)
 * and refuses others, but does not check SigV4 signatures. What else it lacks of S3: `If-None-Match` on writes is ignored (so
 * S3Storage's HEAD is what refuses a stored key here), and aborting or listing multipart uploads
 * is refused (so an aborted upload's parts stay in its folder).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  /** The settings that put a server's uploads in this bucket. */
  env: Record<string, string>;
  /** The keys of every object in the bucket, under the prefix given (sorted). */
  keys(prefix?: string): Promise<string[]>;
  /** Makes the object `key` one the server fails to delete (a folder with a file in its place). */
  undeletable(key: string): Promise<void>;
  close(): Promise<void>;
}

const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startFakeS3(bucket = 'sluice-test'): Promise<FakeS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'sluice-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${String(port)}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
  return {
    endpoint,
    bucket,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    },
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((o) => o.Key ?? ''));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async undeletable(key) {
      // s3rver keeps an object's bytes in <bucket>/<folders>/<name>._S3rver_object.
      const file = path.join(directory, bucket, `${key}._S3rver_object`);
      await rm(file);
      await mkdir(file);
      await writeFile(path.join(file, 'inside'), '');
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
