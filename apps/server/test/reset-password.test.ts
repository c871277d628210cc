/**
 * npm run admin:reset-password on the server's machine: the command as a real process against
 * the server's own database (DATA_DIR's SQLite, or DATABASE_URL's PostgreSQL).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { createTenant } from '../src/modules/groups/tenancy.service.ts';

const command = fileURLToPath(new URL('../src/admin/reset-password.ts', import.meta.url));

describe.each(databaseKinds)('resetting a lost password on %s', (kind) => {
  let t: TestApp;
  let env: Record<string, string>;

  /** Runs the command with the server's configuration; answers its exit code and what it printed. */
  const run = (...args: string[]) =>
    new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', command, ...args], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => {
        resolve({ code, output });
      });
    });
  const signIn = (account: string, password: string) =>
    t.call({ method: 'POST', url: '/api/User', payload: { Account: account, Password: password } });

  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0' });
    env = { DATA_DIR: t.dataDir, ...(t.app.ctx.config.DATABASE_URL ? { DATABASE_URL: t.app.ctx.config.DATABASE_URL } : {}) };
  });

  afterAll(async () => {
    await t.close();
  });

  it('sets a new password, signs the user out everywhere and lifts a lock-out', async () => {
    const tenant = await createTenant(t.app.ctx.db, { groupName: 'Lost Water', code: 'lost', adminAccount: 'lostboss' });
    const token = await t.login('lostboss', tenant.password);
    // Someone guessed until the account is locked from here.
    for (let i = 0; i < 8; i++) await signIn('lostboss', 'Guess12345');
    expect((await signIn('lostboss', tenant.password)).statusCode).toBe(429);

    const { code, output } = await run('--account', 'lostboss');
    expect(code, output).toBe(0);
    const password = /is now "([A-Za-z0-9]+)"/.exec(output)?.[1] ?? '';
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*\d).{8,}$/);

    expect((await signIn('lostboss', tenant.password)).statusCode).toBe(401);
    expect((await signIn('lostboss', password)).statusCode).toBe(200);
    const me = await t.call({ method: 'GET', url: '/api/user/myinfo', token });
    expect(me.statusCode).toBe(401);
  });

  it('takes a password given, refuses a weak one, and names an account that is not there', async () => {
    await createTenant(t.app.ctx.db, { groupName: 'Given Water', code: 'given', adminAccount: 'givenboss' });
    expect((await run('--account', 'givenboss', '--password', 'Chosen12345')).code).toBe(0);
    expect((await signIn('givenboss', 'Chosen12345')).statusCode).toBe(200);

    const weak = await run('--account', 'givenboss', '--password', 'short');
    expect(weak.code).toBe(1);
    expect(weak.output).toContain('letters and digits');
    expect((await signIn('givenboss', 'Chosen12345')).statusCode).toBe(200);

    const missing = await run('--account', 'nobody42');
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('There is no account "nobody42"');
  });

  it('resets ADMIN_ACCOUNT’s password when no account is named', async () => {
    const { code, output } = await run();
    expect(code, output).toBe(0);
    const password = /is now "([A-Za-z0-9]+)"/.exec(output)?.[1] ?? '';
    expect(output).toContain('"admin"');
    expect((await signIn('admin', password)).statusCode).toBe(200);
  });
});
