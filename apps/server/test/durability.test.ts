/**
 * Kill-and-restart: a device streams QoS 1 data into a real server process, the process is
 * killed mid-stream — SIGKILL (no chance to flush anything) or SIGTERM (a graceful shutdown,
 * which must end by itself with code 0) — and started again, and every message that had been
 * acknowledged (PUBACK) must be in the history.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, createPgDatabase, databaseKinds } from './harness.ts';
import { connect, waitFor } from './mqtt-helpers.ts';
import { freePort } from './scratch.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function startServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr.on('data', () => undefined);
  return child;
}

async function ready(port: number): Promise<void> {
  await waitFor(async () => {
    const res = await fetch(`http://127.0.0.1:${String(port)}/api/nothing`).catch(() => undefined);
    return res !== undefined;
  }, 'the server');
}

describe.each(databaseKinds)('kill and restart on %s', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'loses no acknowledged message when the server gets %s mid-stream',
    async (signal) => {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-kill-'));
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
      const pg = kind === 'postgres' ? await createPgDatabase() : undefined;
      if (pg) cleanups.push(pg.drop);
      const [port, mqttPort] = [await freePort(), await freePort()];
      const env = {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        MQTT_PORT: String(mqttPort),
        DEMO: '0',
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'error',
        WEB_DIST: path.join(dataDir, 'no-console'),
        ...(pg ? { DATABASE_URL: pg.url } : {}),
      };
      let server = startServer(env);
      cleanups.push(async () => {
        server.kill('SIGKILL');
        await Promise.resolve();
      });
      await ready(port);
      // A device added through the API, connected as a gateway would be.
      const api = async <T>(route: string, body: unknown, token?: string) => {
        const res = await fetch(`http://127.0.0.1:${String(port)}/api${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
        return ((await res.json()) as { data: T }).data;
      };
      const { Token: adminToken, GroupId: groupId } = await api<{ Token: string; GroupId: number }>('/User', {
        Account: ADMIN.account,
        Password: ADMIN.password,
      });
      const { Credential } = await api<{ Credential: { Username: string; Password: string } }>(
        `/${String(groupId)}/Device`,
        { DeviceName: 'Gateway' },
        adminToken,
      );
      const SN = Credential.Username;
      const url = `mqtt://127.0.0.1:${String(mqttPort)}`;
      const device = await waitFor(
        () => connect(url, { clientId: SN, username: SN, password: Credential.Password }).catch(() => undefined),
        'the broker',
      );
      device.on('error', () => undefined);

      const topic = `sluice/${String(groupId)}/${SN}/data`;
      const base = Date.now() - 3_600_000;
      const acked = new Set<number>();
      let sent = 0;
      let stop = false;
      // Keep about 100 messages in flight, as a busy gateway would: each acknowledgement sends the next.
      const fill = () => {
        while (!stop && device.connected && sent - acked.size < 100) {
          const seq = sent++;
          device.publish(topic, JSON.stringify({ Time: base + seq * 1000, Seq: seq }), { qos: 1 }, (error) => {
            if (error) return;
            acked.add(seq);
            fill();
          });
        }
      };
      fill();
      await waitFor(() => acked.size >= 500, '500 acknowledged messages');
      const exited = new Promise<number | null>((r) => server.once('exit', r));
      server.kill(signal);
      const code = await exited;
      if (signal === 'SIGTERM') expect(code).toBe(0);
      stop = true;
      const acknowledged = [...acked];
      device.end(true);
      expect(acknowledged.length).toBeGreaterThanOrEqual(500);

      server = startServer(env);
      await ready(port);
      const login = await fetch(`http://127.0.0.1:${String(port)}/api/User`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Account: ADMIN.account, Password: ADMIN.password }),
      });
      const token = ((await login.json()) as { data: { Token: string } }).data.Token;
      const res = await fetch(
        `http://127.0.0.1:${String(port)}/api/${String(groupId)}/${SN}/DeviceHisData?BeginTime=${String(base - 1)}&EndTime=${String(base + sent * 1000 + 1)}&Keys=Seq&Type=raw&MaxPoints=100000`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const body = (await res.json()) as { data: { Series: { Points: [number, number][] }[] } };
      const stored = new Set((body.data.Series[0]?.Points ?? []).map((p) => p[1]));
      const lost = acknowledged.filter((seq) => !stored.has(seq));
      expect(lost).toEqual([]);
      // Stored but not acknowledged (committed just before the kill) may exist; never the reverse.
      expect(stored.size).toBeGreaterThanOrEqual(acknowledged.length);
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    },
    300_000,
  );
});
