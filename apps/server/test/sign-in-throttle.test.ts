/**
 * Sign-in and registration throttling: per account and address, a slower account-wide limit that
 * spares the addresses a user signs in from, X-Forwarded-For believed only from named proxies,
 * parallel guesses counted, and registration that says nothing about what exists.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type Body, type TestApp } from './harness.ts';
import { hashPassword } from '../src/auth/password.ts';
import { THROTTLE_RULES } from '../src/auth/login-throttle.ts';

const PASSWORD = 'Right12345';

/** An active user of the first group, with PASSWORD. */
async function addUser(t: TestApp, account: string): Promise<void> {
  await t.app.ctx.users.insert({
    group_id: 1,
    account,
    user_name: account,
    email: '',
    phone: '',
    user_type: 0,
    remark: '',
    password_hash: await hashPassword(PASSWORD),
    status: 1,
  });
}

const signIn = (t: TestApp, account: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.call({ method: 'POST', url: '/api/User', payload: { Account: account, Password: password }, remoteAddress, headers });

describe.each(databaseKinds)('sign-in and registration throttling on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('locks out only the address that guessed: the user still signs in from elsewhere', async () => {
    await addUser(t, 'victim1');
    for (let i = 0; i < THROTTLE_RULES.pair.free; i++) {
      expect((await signIn(t, 'victim1', `wrong${String(i)}x`, '10.1.0.1')).statusCode).toBe(401);
    }
    const locked = await signIn(t, 'victim1', PASSWORD, '10.1.0.1', { 'accept-language': 'en-US' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json<Body>().message).toMatch(/try again in \d+ seconds/);
    expect((await signIn(t, 'victim1', PASSWORD, '10.1.0.2')).statusCode).toBe(200);
  });

  it('does not let a client escape the limit by naming another address in X-Forwarded-For', async () => {
    await addUser(t, 'victim2');
    for (let i = 0; i <= THROTTLE_RULES.pair.free; i++) {
      await signIn(t, 'victim2', 'wrong1234', '10.2.0.1', { 'x-forwarded-for': `198.51.100.${String(i + 1)}` });
    }
    const res = await signIn(t, 'victim2', PASSWORD, '10.2.0.1', { 'x-forwarded-for': '198.51.100.200' });
    expect(res.statusCode).toBe(429);
  });

  it('counts guesses sent in parallel, so none slips past the limit', async () => {
    await addUser(t, 'victim3');
    const answers = await Promise.all(
      Array.from({ length: THROTTLE_RULES.pair.free + 7 }, (_, i) => signIn(t, 'victim3', `guess${String(i)}x`, '10.3.0.1')),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(THROTTLE_RULES.pair.free);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
  });

  it('has a slower account-wide limit, which spares the addresses the user signed in from', async () => {
    await addUser(t, 'victim4');
    expect((await signIn(t, 'victim4', PASSWORD, '10.4.0.1')).statusCode).toBe(200);
    // Guesses from many addresses, one each: no pair limit is reached, the account-wide one is.
    for (let i = 0; i < THROTTLE_RULES.account.free; i++) {
      const res = await signIn(t, 'victim4', 'wrong1234', `10.40.${String(Math.floor(i / 250))}.${String((i % 250) + 1)}`);
      expect(res.statusCode).toBe(401);
    }
    expect((await signIn(t, 'victim4', 'wrong1234', '10.41.0.1')).statusCode).toBe(429);
    expect((await signIn(t, 'victim4', PASSWORD, '10.41.0.2')).statusCode).toBe(429);
    // Where the user signed in before, the account-wide lock does not apply.
    expect((await signIn(t, 'victim4', PASSWORD, '10.4.0.1')).statusCode).toBe(200);
  });

  it('believes X-Forwarded-For only from the proxies TRUST_PROXY names', async () => {
    const proxied = await createTestApp('sqlite', { DEMO: '0', TRUST_PROXY: '10.0.0.1' });
    try {
      await addUser(proxied, 'victim5');
      // Through the proxy, the client's address is the one it forwards.
      for (let i = 0; i <= THROTTLE_RULES.pair.free; i++) {
        await signIn(proxied, 'victim5', 'wrong1234', '10.0.0.1', { 'x-forwarded-for': '198.51.100.1' });
      }
      expect((await signIn(proxied, 'victim5', PASSWORD, '10.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).statusCode).toBe(
        429,
      );
      expect((await signIn(proxied, 'victim5', PASSWORD, '10.0.0.1', { 'x-forwarded-for': '198.51.100.2' })).statusCode).toBe(
        200,
      );
      // Another peer's header is not believed: its guesses count against its own address.
      for (let i = 0; i <= THROTTLE_RULES.pair.free; i++) {
        await signIn(proxied, 'victim5', 'wrong1234', '10.0.0.9', { 'x-forwarded-for': '198.51.100.3' });
      }
      expect((await signIn(proxied, 'victim5', PASSWORD, '10.0.0.9', { 'x-forwarded-for': '198.51.100.4' })).statusCode).toBe(
        429,
      );
      expect((await signIn(proxied, 'victim5', PASSWORD, '10.0.0.1', { 'x-forwarded-for': '198.51.100.3' })).statusCode).toBe(
        200,
      );
    } finally {
      await proxied.close();
    }
  });

  it('takes the client from the last hop’s X-Forwarded-For with a hop count', async () => {
    const proxied = await createTestApp('sqlite', { DEMO: '0', TRUST_PROXY: '1' });
    try {
      await addUser(proxied, 'victim6');
      for (let i = 0; i <= THROTTLE_RULES.pair.free; i++) {
        await signIn(proxied, 'victim6', 'wrong1234', '10.0.0.5', { 'x-forwarded-for': `203.0.113.${String(i)}, 198.51.100.9` });
      }
      const sameClient = await signIn(proxied, 'victim6', PASSWORD, '10.0.0.6', { 'x-forwarded-for': '198.51.100.9' });
      expect(sameClient.statusCode).toBe(429);
      expect((await signIn(proxied, 'victim6', PASSWORD, '10.0.0.5', { 'x-forwarded-for': '198.51.100.10' })).statusCode).toBe(
        200,
      );
    } finally {
      await proxied.close();
    }
  });

  it('forgets counts once their window and lock are over, and keeps those still running', async () => {
    await addUser(t, 'victim7');
    for (let i = 0; i <= THROTTLE_RULES.pair.free; i++) await signIn(t, 'victim7', 'wrong1234', '10.8.0.1');
    const later = Date.now() + THROTTLE_RULES.pair.maxLockMs;
    await t.app.ctx.throttle.purge(Date.now());
    expect((await signIn(t, 'victim7', PASSWORD, '10.8.0.1')).statusCode).toBe(429);
    await t.app.ctx.throttle.purge(later + 60 * 60 * 1000);
    expect((await signIn(t, 'victim7', PASSWORD, '10.8.0.1')).statusCode).toBe(200);
  });

  describe('registration', () => {
    const register = (body: Record<string, string>, remoteAddress: string) =>
      t.call({
        method: 'POST',
        url: '/api/user/Register',
        payload: { UserName: 'N', Password: 'Newbie123', PasswordAgain: 'Newbie123', ...body },
        remoteAddress,
        lang: 'en-US',
      });

    it('answers alike whether or not the group code and the account exist', async () => {
      await addUser(t, 'taken1');
      const made = await register({ Code: 'SLUICE', Account: 'newbie1' }, '10.5.0.1');
      const unknownCode = await register({ Code: 'nope', Account: 'newbie2' }, '10.5.0.2');
      const takenAccount = await register({ Code: 'sluice', Account: 'TAKEN1' }, '10.5.0.3');
      for (const res of [made, unknownCode, takenAccount]) {
        expect(res.statusCode).toBe(202);
        expect(res.body).toBe(made.body);
      }
      expect(made.json<Body>().message).toMatch(/administrator of the group activates/);
      // Only the registration into a real group with a free account made an (inactive) account.
      const inactive = await signIn(t, 'newbie1', 'Newbie123', '10.5.1.1', { 'accept-language': 'en-US' });
      expect(inactive.statusCode).toBe(403);
      expect(inactive.json<Body>().message).toBe('This account is not activated yet');
      expect((await signIn(t, 'newbie2', 'Newbie123', '10.5.1.1')).statusCode).toBe(401);
      expect((await signIn(t, 'taken1', PASSWORD, '10.5.1.1')).statusCode).toBe(200);
    });

    it('is throttled per address', async () => {
      for (let i = 0; i < THROTTLE_RULES.register.free; i++) {
        expect((await register({ Code: 'nope', Account: `spam${String(i)}` }, '10.6.0.1')).statusCode).toBe(202);
      }
      const refused = await register({ Code: 'sluice', Account: 'spam99' }, '10.6.0.1');
      expect(refused.statusCode).toBe(429);
      expect((await signIn(t, 'spam99', 'Newbie123', '10.6.1.1')).statusCode).toBe(401);
      expect((await register({ Code: 'sluice', Account: 'spam98' }, '10.6.0.2')).statusCode).toBe(202);
    });

    it('still names a malformed field, in the caller’s language', async () => {
      const res = await register({ Code: 'sluice', Account: 'a!' }, '10.7.0.1');
      expect(res.statusCode).toBe(400);
      expect(res.json<Body>().message).toMatch(/^Account: /);
    });
  });
});
