/**
 * npm run simulate against a running demo: it drives the demo's own devices and adds none;
 * --add keeps what it made under the data directory, and --remove takes it away again. The
 * simulator runs as its own process against a real server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';
import { waitFor } from './mqtt-helpers.ts';

const cli = fileURLToPath(new URL('../../simulator/src/cli.ts', import.meta.url));

describe('the simulator against a running demo', () => {
  let t: TestApp;
  let api: string;
  let mqttUrl: string;
  let work: string;
  const children: ChildProcess[] = [];

  /** Starts the simulator in an empty working folder; `output()` is what it printed so far. */
  const simulate = (...args: string[]) => {
    const child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', cli, '--api', api, '--url', mqttUrl, '--interval', '1', ...args],
      { cwd: work, env: { ...process.env, DATA_DIR: path.join(work, 'data') }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { output: () => output, exited, stop: () => child.kill('SIGTERM') };
  };
  const devices = async () => {
    const token = await t.login(ADMIN.account, ADMIN.password);
    const g = (await t.json<{ GroupId: number }>({ method: 'GET', url: '/api/user/myinfo', token })).data.GroupId;
    return (
      await t.json<{ DeviceSn: string; Online: boolean; TypeId: number | null; ProjectId: number | null }[]>({
        method: 'GET',
        url: `/api/${String(g)}/Device/AllDevice`,
        token,
      })
    ).data;
  };

  beforeAll(async () => {
    // The simulator's subject is the demo: this file starts from the demo seed, as `npm start` does.
    t = await createTestApp('sqlite', { DEMO: '1', MQTT_PORT: '0', HOST: '127.0.0.1' });
    api = await t.app.listen({ port: 0, host: '127.0.0.1' });
    await t.app.live.start();
    mqttUrl = `mqtt://127.0.0.1:${String(t.app.live.mqttPort)}`;
    work = await mkdtemp(path.join(tmpdir(), 'sluice-sim-'));
  });

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await t.close();
    await rm(work, { recursive: true, force: true });
  });

  it('drives the demo’s offline devices with their demo secrets, adding none and writing nothing', async () => {
    const before = await devices();
    const offline = before.filter((d) => !d.Online).map((d) => d.DeviceSn);
    expect(offline.length).toBeGreaterThan(0);
    const sim = simulate();
    await waitFor(
      async () => (await devices()).filter((d) => offline.includes(d.DeviceSn) && d.Online).length === offline.length,
      'the offline demo devices online',
    );
    sim.stop();
    expect(await sim.exited, sim.output()).toBe(0);
    expect(sim.output()).toContain(`simulating the other ${String(offline.length)}`);
    expect((await devices()).length).toBe(before.length);
    expect(await readdir(work)).toEqual([]);
  });

  it('adds typed devices with --add, keeps them under the data directory, drives them again, and --remove takes them away', async () => {
    const before = await devices();
    const account = ['--account', ADMIN.account, '--password', ADMIN.password];
    const first = simulate('--add', '3', ...account);
    const isNew = (d: { DeviceSn: string }) => !before.some((b) => b.DeviceSn === d.DeviceSn);
    await waitFor(
      async () => (await devices()).filter((d) => isNew(d) && d.Online).length === 3,
      'three devices added and online',
    );
    first.stop();
    expect(await first.exited, first.output()).toBe(0);
    const added = (await devices()).filter(isNew);
    expect(added).toHaveLength(3);
    expect(added.every((d) => d.TypeId !== null && d.ProjectId !== null)).toBe(true);
    const file = path.join(work, 'data', 'simulator', 'devices.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(work)).toEqual(['data']);

    const again = simulate('--add', '3', ...account);
    await waitFor(() => again.output().includes('Driving the 3 devices added before'), 'the second run');
    again.stop();
    expect(await again.exited).toBe(0);
    expect(await devices()).toHaveLength(before.length + 3);

    const removed = simulate('--remove', ...account);
    expect(await removed.exited, removed.output()).toBe(0);
    expect((await devices()).map((d) => d.DeviceSn).sort()).toEqual(before.map((d) => d.DeviceSn).sort());
    const binned = await t.app.ctx.db
      .selectFrom('devices')
      .select('device_sn')
      .where(
        'device_sn',
        'in',
        added.map((d) => d.DeviceSn),
      )
      .execute();
    expect(binned).toEqual([]);
    await expect(stat(file)).rejects.toThrow();
  });

  it('connects from the address --local-address names', async () => {
    // A TCP relay in front of the broker notes where each connection comes from.
    const peers: string[] = [];
    const relay = net.createServer((socket) => {
      peers.push(socket.remoteAddress ?? '');
      const upstream = net.connect(t.app.live.mqttPort ?? 0, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      const close = () => {
        socket.destroy();
        upstream.destroy();
      };
      socket.on('error', close);
      upstream.on('error', close);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const address = relay.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const offline = (await devices()).filter((d) => !d.Online).map((d) => d.DeviceSn);
      expect(offline.length).toBeGreaterThan(0);
      const sim = simulate('--url', `mqtt://127.0.0.1:${String(port)}`, '--local-address', '127.0.0.2');
      await waitFor(
        async () => (await devices()).filter((d) => offline.includes(d.DeviceSn) && d.Online).length === offline.length,
        'the devices online through the relay',
      );
      sim.stop();
      expect(await sim.exited, sim.output()).toBe(0);
      expect(peers.length).toBeGreaterThanOrEqual(offline.length);
      expect(new Set(peers)).toEqual(new Set(['127.0.0.2']));
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  });
});
