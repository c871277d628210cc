/**
 * npm run bench:storage — what STORAGE=s3 costs a server (docs/performance.md):
 * 1. Start-up: fresh processes import the server's modules (app.ts), as every start does, then
 *    the AWS SDK and a client, as STORAGE=s3 adds on first use: median time and resident memory
 *    of each (on local disk the SDK is never imported, test/storage-startup.test.ts).
 * 2. Uploads of 50 and 200 MB (the type-image limit) streamed through S3Storage into a local S3
 *    server (s3rver, in the bench's process) and through LocalStorage, each in a fresh process:
 *    that process's resident memory at its peak above where it started, against the file's size.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;
/** Two sizes: memory that does not grow with the file is what a streamed upload holds. */
const UPLOADS = [50 * MB, 200 * MB];
const RUNS = 5;

const rssMb = () => process.memoryUsage().rss / MB;

/** Child: the time and memory of importing the server, then the SDK. */
async function importChild() {
  const start = performance.now();
  await import('../apps/server/src/app.ts');
  const server = { ms: performance.now() - start, rss: rssMb() };
  const before = performance.now();
  // What S3Storage imports on first use (dependencies of apps/server, hoisted beside the bench).
  const [{ S3Client }] = await Promise.all([
    // eslint-disable-next-line import-x/no-extraneous-dependencies
    import('@aws-sdk/client-s3'),
    // eslint-disable-next-line import-x/no-extraneous-dependencies
    import('@aws-sdk/lib-storage'),
  ]);
  new S3Client({ region: 'us-east-1' }).destroy();
  console.log(JSON.stringify({ server, sdk: { ms: performance.now() - before, rss: rssMb() - server.rss } }));
}

/**
 * Child: saves `size` bytes to the store named, sampling resident memory meanwhile; run with
 * --expose-gc it collects garbage at each sample and answers the peak of live buffers instead
 * (what the store holds, without the garbage a collector has not yet freed).
 */
async function saveChild(kind: string, where: string, size: number) {
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { LocalStorage } = await import('../apps/server/src/storage/file-storage.ts');
  const { S3Storage } = await import('../apps/server/src/storage/s3-storage.ts');
  const storage =
    kind === 's3' ? new S3Storage(loadConfig(JSON.parse(where) as Record<string, string>)) : new LocalStorage(where);
  await storage.check();
  const gc = (globalThis as { gc?: () => void }).gc;
  const measure = gc
    ? () => {
        gc();
        return process.memoryUsage().arrayBuffers / MB;
      }
    : rssMb;
  const base = measure();
  let peak = base;
  const sampler = setInterval(() => {
    peak = Math.max(peak, measure());
  }, 10);
  // A few chunks over and over: the generator allocates nothing, so what grows is the store's.
  const chunks = Array.from({ length: 4 }, (_, i) => Buffer.alloc(65_536, i + 1));
  function* bytes() {
    for (let at = 0; at < size; at += 65_536) yield chunks[(at / 65_536) % chunks.length] ?? Buffer.alloc(0);
  }
  const start = performance.now();
  await storage.save(`type-images/${randomBytes(16).toString('hex')}.mp4`, Readable.from(bytes()));
  clearInterval(sampler);
  peak = Math.max(peak, measure());
  console.log(JSON.stringify({ ms: performance.now() - start, growth: peak - base }));
}

const run = async (...args: string[]) =>
  JSON.parse(
    (await promisify(execFile)(process.execPath, ['--disable-warning=ExperimentalWarning', self, ...args])).stdout,
  ) as never;
const runCollecting = async (...args: string[]) =>
  JSON.parse(
    (await promisify(execFile)(process.execPath, ['--disable-warning=ExperimentalWarning', '--expose-gc', self, ...args])).stdout,
  ) as never;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const fixed = (n: number) => n.toFixed(1);

async function main() {
  const mode = process.argv[2];
  if (mode === '--import') return importChild();
  if (mode === '--save') return saveChild(process.argv[3] ?? '', process.argv[4] ?? '', Number(process.argv[5]));

  const imports: { server: { ms: number; rss: number }; sdk: { ms: number; rss: number } }[] = [];
  for (let i = 0; i < RUNS; i++) imports.push(await run('--import'));
  const server = { ms: median(imports.map((r) => r.server.ms)), rss: median(imports.map((r) => r.server.rss)) };
  const sdk = { ms: median(imports.map((r) => r.sdk.ms)), rss: median(imports.map((r) => r.sdk.rss)) };
  console.log(`start-up, median of ${String(RUNS)} fresh processes:`);
  console.log(`  importing the server (every start)      ${fixed(server.ms)} ms, resident ${fixed(server.rss)} MB`);
  console.log(
    `  + the AWS SDK (STORAGE=s3, on first use) ${fixed(sdk.ms)} ms (${fixed((100 * sdk.ms) / server.ms)} % of the server's), ` +
      `+${fixed(sdk.rss)} MB (${fixed((100 * sdk.rss) / server.rss)} %)`,
  );

  const { startFakeS3 } = await import('../apps/server/test/fake-s3.ts');
  const s3 = await startFakeS3();
  const dir = await mkdtemp(path.join(tmpdir(), 'sluice-bench-store-'));
  try {
    console.log(
      'an upload streamed in, in a fresh process: its peak resident memory above its start, and its peak of live buffers (collected at each 10 ms sample):',
    );
    for (const size of UPLOADS) {
      for (const [name, kind, where] of [
        ['S3 (s3rver)', 's3', JSON.stringify(s3.env)],
        ['local disk', 'local', dir],
      ] as const) {
        const plain: { ms: number; growth: number } = await run('--save', kind, where, String(size));
        const live: { growth: number } = await runCollecting('--save', kind, where, String(size));
        console.log(
          `  ${String(size / MB).padStart(3)} MB to ${name.padEnd(12)} resident +${fixed(plain.growth)} MB ` +
            `(${fixed((100 * plain.growth) / (size / MB))} % of the file), live buffers +${fixed(live.growth)} MB, ` +
            `${fixed((size / MB / plain.ms) * 1000)} MB/s`,
        );
      }
      await rm(path.join(dir, 'type-images'), { recursive: true, force: true });
    }
  } finally {
    await s3.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
