import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from './mqtt-helpers.ts';
import { freePort } from './scratch.ts';
import { startServer } from './server-process.ts';

describe('the server process', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('prints the generated administrator password, finishes in-flight requests on SIGTERM and closes the database', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-proc-'));
    dirs.push(dataDir);
    const server = startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO: '0',
      ADMIN_PASSWORD: '',
    });
    const { child, exited } = server;
    await server.logged(/running at http/, /password "[A-Za-z0-9]+"/);
    const output = server.output();
    const url = /running at (http:\/\/[^\s]+)/.exec(output)?.[1];
    const password = /password "([A-Za-z0-9]+)"/.exec(output)?.[1];
    expect(url, output).toBeDefined();
    expect(password).toMatch(/[A-Za-z]/);

    // A sign-in in flight when SIGTERM arrives: the server has read its head (it answers
    // "100 Continue"), the body follows the signal, and the answer still comes.
    const body = JSON.stringify({ Account: 'admin', Password: password });
    const login = request(`${url ?? ''}/api/User`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    const response = new Promise<{ status: number | undefined }>((resolve, reject) => {
      login.on('response', (res) => {
        res.resume();
        res.on('end', () => {
          resolve({ status: res.statusCode });
        });
      });
      login.on('error', reject);
    });
    await new Promise((resolve) => login.once('continue', resolve));
    child.kill('SIGTERM');
    login.end(body);
    expect((await response).status).toBe(200);
    expect(await exited).toBe(0);
    // A cleanly closed SQLite database leaves no write-ahead log behind.
    expect(existsSync(path.join(dataDir, 'sluice.db'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'sluice.db-wal'))).toBe(false);
  });

  it('stops at once and exits 0 while a device is connected over TCP', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-proc-'));
    dirs.push(dataDir);
    const mqttPort = await freePort();
    const password = 'Shutdown12345';
    const server = startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DEMO: '0',
      ADMIN_PASSWORD: password,
    });
    const { child, exited } = server;
    await server.logged(/running at http/);
    const output = server.output();
    const url = /running at (http:\/\/\S+)/.exec(output)?.[1] ?? '';
    expect(url, output).not.toBe('');

    // A device added through the API, connected over TCP as a gateway would be.
    const call = async <T>(route: string, body: unknown, token?: string) => {
      const response = await fetch(`${url}/api${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return ((await response.json()) as { data: T }).data;
    };
    const { Token: token, GroupId: g } = await call<{ Token: string; GroupId: number }>('/User', {
      Account: 'admin',
      Password: password,
    });
    const { Credential } = await call<{ Credential: { Username: string; Password: string } }>(
      `/${String(g)}/Device`,
      { DeviceName: 'Gateway' },
      token,
    );
    const device = await connect(`mqtt://127.0.0.1:${String(mqttPort)}`, {
      clientId: Credential.Username,
      username: Credential.Username,
      password: Credential.Password,
    });
    const disconnected = new Promise<void>((resolve) =>
      device.once('close', () => {
        resolve();
      }),
    );

    const stopping = Date.now();
    child.kill('SIGTERM');
    expect(await exited, server.output()).toBe(0);
    await disconnected;
    console.log(`server stopped ${String(Date.now() - stopping)} ms after SIGTERM with a device connected`);
    expect(server.output()).not.toMatch(/did not start in time|shutdown failed/i);
    await device.endAsync(true);
  });

  it('prints the start-up banner last and plainly, keeps credentials out of the log, and logs one line per request', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-proc-'));
    dirs.push(dataDir);
    const server = startServer({
      PORT: '0',
      MQTT_PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DEMO: '0',
      ADMIN_PASSWORD: '',
    });
    const banner = /\n(─+)\nSluice is running at (http:\/\/\S+)[^]*?password "([A-Za-z0-9]+)"[^]*?\n\1\n/;
    await server.logged(banner);
    const [printed = '', , url = '', password = ''] = banner.exec(server.output()) ?? [];
    // Nothing after the banner, and the password only in it.
    expect(
      server
        .output()
        .slice(server.output().indexOf(printed) + printed.length)
        .trim(),
    ).toBe('');
    expect(server.output().split(password).length - 1).toBe(1);

    for (const account of ['nobody1', 'nobody2']) {
      await fetch(`${url}/api/User?lang=en-US`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Account: account, Password: 'Wrong12345' }),
      });
    }
    await server.logged(/\/api\/User[^]*\/api\/User/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // One line each, with the path but not the query.
    const requestLines = server
      .output()
      .split('\n')
      .filter((line) => line.includes('/api/User'));
    expect(requestLines, server.output()).toHaveLength(2);
    expect(requestLines.every((line) => line.includes('POST /api/User 401') && !line.includes('lang='))).toBe(true);
  });

  it('refuses to start on a bad configuration value, naming it', async () => {
    const server = startServer({ PORT: 'abc' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('PORT:');
  });
});
