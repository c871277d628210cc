/**
 * The jobs that must run once (the offline time-out and its alarms, retention) run on one
 * instance at a time: on PostgreSQL the holder of an advisory lock, taken over by a standby when
 * the leader's session dies. Needs TEST_DATABASE_URL (a PostgreSQL server); on SQLite there is
 * one server and it always leads (checked below without PostgreSQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PgJobLeader, soleLeader } from '../src/db/job-leader.ts';
import { ADMIN, createPgDatabase, createTestApp, type TestApp } from './harness.ts';
import { buildDevice } from './factories.ts';
import { waitFor } from './mqtt-helpers.ts';
import type { ScratchDatabase } from './scratch.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const leaderModule = fileURLToPath(new URL('../src/db/job-leader.ts', import.meta.url));
if (!pgUrl) console.warn('TEST_DATABASE_URL is not set: the job leader take-over on PostgreSQL is skipped');

describe('the job leader on SQLite', () => {
  it('is the one server', async () => {
    const t = await createTestApp('sqlite', { MQTT_PORT: '0', HOST: '127.0.0.1' });
    try {
      await t.app.live.start();
      expect(t.app.live.leader).toBe(soleLeader);
      expect(t.app.live.leader.leads()).toBe(true);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!pgUrl)('the job leader on PostgreSQL', () => {
  let scratch: ScratchDatabase;
  const leaders: PgJobLeader[] = [];
  const changes: string[] = [];
  const leader = (name: string) => {
    const made = new PgJobLeader({
      databaseUrl: scratch.url,
      // Short, so that the test does not wait long for a take-over; not a bound the test checks.
      retryMs: 200,
      onChange: (leading) => changes.push(`${name} ${leading ? 'leads' : 'stands by'}`),
      onError: () => undefined,
    });
    leaders.push(made);
    return made;
  };

  beforeAll(async () => {
    scratch = await createPgDatabase();
  });
  afterAll(async () => {
    for (const l of leaders) await l.stop();
    await scratch.drop();
  });

  it('lets one instance lead, and a standby takes over when the leader process is killed', async () => {
    // The leader in a process of its own, killed with SIGKILL (no chance to let go of anything).
    const script = [
      `import { PgJobLeader } from ${JSON.stringify(leaderModule)};`,
      `const l = new PgJobLeader({ databaseUrl: ${JSON.stringify(scratch.url)}, retryMs: 200, onChange: () => {}, onError: () => {} });`,
      `await l.start();`,
      `console.log(l.leads() ? 'leads' : 'stands by');`,
      `setInterval(() => {}, 1000);`,
    ].join('\n');
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      const first = await new Promise<string>((resolve) =>
        child.stdout.once('data', (chunk: Buffer) => {
          resolve(chunk.toString().trim());
        }),
      );
      expect(first).toBe('leads');
      const b = leader('B');
      await b.start();
      expect(b.leads()).toBe(false);
      child.kill('SIGKILL');
      await exited;
      await waitFor(() => b.leads(), 'B to take over from the killed leader');
      await b.stop();
      expect(b.leads()).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('steps down when its session ends, and a standby takes over when the leader stops', async () => {
    changes.length = 0;
    const a = leader('A');
    await a.start();
    expect(a.leads()).toBe(true);
    // A's session ended by the server (a fail-over of PostgreSQL, an administrator): A must not go on believing it leads.
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        "select pid from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())",
      );
      expect(rows).toHaveLength(1);
      await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
    } finally {
      await admin.end();
    }
    await waitFor(() => changes.includes('A stands by'), 'A to step down');
    // Nobody else wants the lock: A takes it again on a new session.
    await waitFor(() => a.leads(), 'A to lead again');

    const b = leader('B');
    await b.start();
    expect(b.leads()).toBe(false);
    await a.stop();
    await waitFor(() => b.leads(), 'B to take over from A stopping');
    expect(changes).toEqual(['A leads', 'A stands by', 'A leads', 'A stands by', 'B leads']);
  });
});

describe.skipIf(!pgUrl)('two servers on one PostgreSQL database', () => {
  let scratch: ScratchDatabase;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    scratch = await createPgDatabase();
    const env = { DATABASE_URL: scratch.url, MQTT_PORT: '0', HOST: '127.0.0.1', LEADER_RETRY_SECONDS: '1' };
    first = await createTestApp('sqlite', env);
    await first.app.live.start();
    second = await createTestApp('sqlite', env);
    await second.app.live.start();
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    await scratch.drop();
  });

  it('take devices offline on the leader only, and the standby does once it leads', async () => {
    expect([first.app.live.leader.leads(), second.app.live.leader.leads()]).toEqual([true, false]);
    const { db } = first.app.ctx;
    const { group_id: groupId } = await db
      .selectFrom('users')
      .select('group_id')
      .where('account', '=', ADMIN.account)
      .executeTakeFirstOrThrow();
    const silent = await buildDevice(first.app.ctx, { groupId, online: true });
    // Silent for longer than the time-out (DEVICE_TIMEOUT, 300 s by default).
    await db
      .updateTable('devices')
      .set({ last_seen: Date.now() - 3_600_000 })
      .where('device_sn', '=', silent.sn)
      .execute();
    const online = async () =>
      (await db.selectFrom('devices').select('online').where('device_sn', '=', silent.sn).executeTakeFirstOrThrow()).online;

    await second.app.live.online.sweep();
    expect(await online()).toBe(1);

    // The leader stops (its session ends): the standby takes over and its sweep takes the device offline.
    await first.app.live.leader.stop();
    await waitFor(() => second.app.live.leader.leads(), 'the second server to lead');
    await second.app.live.online.sweep();
    expect(await online()).toBe(0);
    const alarms = await db.selectFrom('warns').select('code').where('device_sn', '=', silent.sn).execute();
    expect(alarms.map((a) => a.code)).toEqual(['O001']);
  });
});
