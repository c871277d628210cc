/**
 * Start-up with each store of uploads: on local disk the AWS SDK is never loaded; with STORAGE=s3
 * it is loaded on first use, the server checks the bucket before it listens, and a bucket it
 * cannot use stops start-up naming the setting.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeS3, type FakeS3 } from './fake-s3.ts';
import { startServer } from './server-process.ts';

const fixture = fileURLToPath(new URL('./fixtures/sdk-loading.ts', import.meta.url));

describe('start-up and the store of uploads', () => {
  let s3: FakeS3;
  const dirs: string[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sluice-store-start-'));
    dirs.push(dir);
    return dir;
  };
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(async () => {
    await s3.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('never loads the AWS SDK on local disk, and loads it on first use with S3', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--disable-warning=ExperimentalWarning',
      fixture,
      await dataDir(),
    ]);
    expect(stdout).toContain('local: []');
    expect(stdout).toMatch(/s3: \[.*"@aws-sdk\/client-s3".*\]/);
  });

  const base = async () => ({
    PORT: '0',
    MQTT_PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: await dataDir(),
    DEMO: '0',
    LOG_LEVEL: 'warn',
  });

  it('starts with STORAGE=s3 once the bucket answers', async () => {
    const server = startServer({ ...(await base()), ...s3.env });
    await server.logged(/running at http/);
    server.child.kill('SIGTERM');
    expect(await server.exited, server.output()).toBe(0);
  });

  it('stops start-up naming the setting when the bucket cannot be used', async () => {
    const server = startServer({ ...(await base()), ...s3.env, S3_BUCKET: 'no-such-bucket' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('S3_BUCKET: no such bucket');
    expect(server.output()).not.toMatch(/running at http/);
  });
});
