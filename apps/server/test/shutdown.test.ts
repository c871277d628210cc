import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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

    const started = Date.now();
    while (!/password "([A-Za-z0-9]+)"/.test(output) && Date.now() - started < 20_000) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = /running at (http:\/\/[^\s]+)/.exec(output)?.[1];
    const password = /password "([A-Za-z0-9]+)"/.exec(output)?.[1];
    expect(url, output).toBeDefined();
    expect(password).toMatch(/[A-Za-z]/);

    // A sign-in spends tens of milliseconds hashing; SIGTERM arrives while it is in flight.
    const login = fetch(`${url ?? ''}/api/User`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Account: 'admin', Password: password }),
    });
    await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGTERM');
    const response = await login;
    expect(response.status).toBe(200);
    expect(await exited).toBe(0);
    // A cleanly closed SQLite database leaves no write-ahead log behind.
    expect(existsSync(path.join(dataDir, 'sluice.db'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'sluice.db-wal'))).toBe(false);
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
