import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from './mqtt-helpers.ts';
import { freePort } from './scratch.ts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

describe('the server process', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('prints the generated administrator password, finishes in-flight requests on SIGTERM and closes the database', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-proc-'));
    dirs.push(dataDir);
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', DEMO: '0', ADMIN_PASSWORD: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

    // Waits for the start-up log to name both the address and the password.
    await new Promise<void>((resolve) => {
      const look = () => {
        if (!/running at http/.test(output) || !/password "[A-Za-z0-9]+"/.test(output)) return;
        child.stdout.off('data', look);
        child.stderr.off('data', look);
        resolve();
      };
      child.stdout.on('data', look);
      child.stderr.on('data', look);
    });
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
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        MQTT_PORT: String(mqttPort),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        DEMO: '0',
        ADMIN_PASSWORD: password,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const started = Date.now();
    while (!/running at (http:\/\/\S+)/.test(output) && Date.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 50));
    }
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
    expect(await exited, output).toBe(0);
    await disconnected;
    console.log(`server stopped ${String(Date.now() - stopping)} ms after SIGTERM with a device connected`);
    expect(output).not.toMatch(/did not start in time|shutdown failed/i);
    await device.endAsync(true);
  });

  it('refuses to start on a bad configuration value, naming it', async () => {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', main], {
      env: { ...process.env, PORT: 'abc' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('PORT:');
  });
});
