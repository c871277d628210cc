/**
 * Job-leader fail-over on PostgreSQL: a leader in a process of its own (db/job-leader.ts, as each
 * Sluice instance runs it) is killed with SIGKILL while a standby in this process tries every
 * LEADER_RETRY_SECONDS; the time from the kill to the standby leading, RUNS times (default 7), on
 * a scratch database of BENCH_DATABASE_URL's server. Prints each run, the median, the worst and
 * the machine's load. What it measures: PostgreSQL noticing the dead session and releasing its
 * lock, plus the standby's wait for its next try (uniform over the retry interval).
 *
 *   BENCH_DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres npm run bench:failover
 *   LEADER_RETRY_SECONDS=1 RUNS=7 BENCH_DATABASE_URL=… npm run bench:failover
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PgJobLeader } from '../apps/server/src/db/job-leader.ts';

const serverUrl = process.env.BENCH_DATABASE_URL;
if (!serverUrl) {
  console.error('Set BENCH_DATABASE_URL to a PostgreSQL server (a scratch database is made there and dropped).');
  process.exit(1);
}
const retryMs = Number(process.env.LEADER_RETRY_SECONDS ?? '5') * 1000;
const runs = Number(process.env.RUNS ?? '7');
const leaderModule = fileURLToPath(new URL('../apps/server/src/db/job-leader.ts', import.meta.url));

const name = `sluice_bench_leader_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`create database ${name}`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
const databaseUrl = url.toString();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const times: number[] = [];
const load = loadavg()[0] ?? 0;
try {
  for (let run = 1; run <= runs; run++) {
    const script = [
      `import { PgJobLeader } from ${JSON.stringify(leaderModule)};`,
      `const l = new PgJobLeader({ databaseUrl: ${JSON.stringify(databaseUrl)}, retryMs: ${String(retryMs)}, onChange: () => {}, onError: () => {} });`,
      `await l.start();`,
      `console.log(l.leads() ? 'leads' : 'stands by');`,
      `setInterval(() => {}, 1000);`,
    ].join('\n');
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const first = await new Promise<string>((resolve) =>
      child.stdout.once('data', (chunk: Buffer) => {
        resolve(chunk.toString().trim());
      }),
    );
    if (first !== 'leads') throw new Error(`the child did not lead (${first}): the bench did not measure a take-over`);
    const standby = new PgJobLeader({ databaseUrl, retryMs, onChange: () => undefined, onError: () => undefined });
    await standby.start();
    if (standby.leads()) throw new Error('the standby led while the child held the lock: the bench did not measure a take-over');
    // A random phase against the standby's retry timer, as a real death would have.
    await sleep(Math.random() * retryMs);
    const exited = new Promise((r) => child.once('exit', r));
    const killed = performance.now();
    child.kill('SIGKILL');
    while (!standby.leads()) await sleep(5);
    const ms = performance.now() - killed;
    await exited;
    await standby.stop();
    times.push(ms);
    console.log(`run ${String(run)}: standby led ${ms.toFixed(0)} ms after the leader was killed`);
  }
} finally {
  await admin.query(`drop database ${name} with (force)`);
  await admin.end();
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
const worst = sorted.at(-1) ?? 0;
console.log(
  `fail-over, retry every ${String(retryMs / 1000)} s, ${String(runs)} runs: median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms (load average at start ${load.toFixed(1)}, now ${(loadavg()[0] ?? 0).toFixed(1)})`,
);
