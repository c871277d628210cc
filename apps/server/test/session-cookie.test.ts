/**
 * The console's session: an HttpOnly, SameSite=Strict cookie set by the server (Secure on https),
 * writes by that cookie only from the console's own origin, Bearer for other clients, tokens in
 * URLs only on the spec's legacy calls, and no token in any log line at any level.
 */
import { Writable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { ADMIN, createTestApp, databaseKinds, type Body, type TestApp } from './harness.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { bootstrap } from '../src/seed/bootstrap.ts';

/** The session cookie a response sets (name=value and its attributes), if any. */
function sessionCookie(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === 'token');
}

describe.each(databaseKinds)('the session cookie on %s', (kind) => {
  let t: TestApp;
  let cookie: string;
  let token: string;
  const host = 'localhost:80';

  /** A call with the session cookie and the given browser headers. */
  const withCookie = (options: Parameters<TestApp['call']>[0], headers: Record<string, string> = {}) =>
    t.call({ ...options, headers: { cookie: `token=${cookie}`, ...headers } });
  const myName = async () =>
    (await t.call({ method: 'GET', url: '/api/user/myinfo', token })).json<Body<{ UserName: string }>>().data.UserName;

  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0', TRUST_PROXY: 'loopback' });
    const res = await t.call({ method: 'POST', url: '/api/User', payload: { Account: ADMIN.account, Password: ADMIN.password } });
    cookie = sessionCookie(res)?.value ?? '';
    token = res.json<Body<{ Token: string }>>().data.Token;
  });
  afterAll(async () => {
    await t.close();
  });

  it('is set at sign-in HttpOnly and SameSite=Strict for the whole site, holding the session API clients also get', async () => {
    const res = await t.call({ method: 'POST', url: '/api/User', payload: { Account: ADMIN.account, Password: ADMIN.password } });
    const set = sessionCookie(res);
    expect(set).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(set?.secure).toBeUndefined();
    expect(set?.expires?.getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    expect(set?.value).toBe(res.json<Body<{ Token: string }>>().data.Token);
    expect(cookie).toBe(token);
  });

  it('is Secure on https (here behind a trusted proxy that terminates TLS)', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/User',
      payload: { Account: ADMIN.account, Password: ADMIN.password },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(sessionCookie(res)?.secure).toBe(true);
  });

  it('signs the console in: reads by the cookie work', async () => {
    const res = await withCookie({ method: 'GET', url: '/api/user/myinfo' }, { 'sec-fetch-site': 'same-origin' });
    expect(res.statusCode).toBe(200);
    expect(res.json<Body<{ Account: string }>>().data.Account).toBe(ADMIN.account);
  });

  it('takes writes by the cookie from the console’s own origin only, and refuses other sites changing nothing', async () => {
    const save = (name: string, headers: Record<string, string>) =>
      withCookie({ method: 'PUT', url: '/api/user', payload: { UserName: name }, lang: 'en-US' }, { host, ...headers });
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      // A sibling site of the same domain is "same site" to SameSite, not the same origin.
      { 'sec-fetch-site': 'same-site', origin: 'https://other.example.com' },
      { origin: 'https://evil.example' },
      // A write that cannot show where it comes from.
      {},
    ];
    for (const headers of foreign) {
      const res = await save('Mallory', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json<Body>().message).toBe('Refused: the request did not come from the console’s own pages');
    }
    expect(await myName()).not.toBe('Mallory');
    expect((await save('Fetch Metadata', { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect(await myName()).toBe('Fetch Metadata');
    expect((await save('Origin Header', { origin: `http://${host}` })).statusCode).toBe(200);
    expect(await myName()).toBe('Origin Header');
  });

  it('refuses even a read or a sign-out by the cookie from another site', async () => {
    const read = await withCookie({ method: 'GET', url: '/api/user/myinfo' }, { 'sec-fetch-site': 'cross-site' });
    expect(read.statusCode).toBe(403);
    const logout = await withCookie({ method: 'GET', url: '/api/user/logout' }, { 'sec-fetch-site': 'cross-site' });
    expect(logout.statusCode).toBe(403);
    expect((await withCookie({ method: 'GET', url: '/api/user/myinfo' })).statusCode).toBe(200);
  });

  it('leaves Bearer clients alone: no cookie, no origin check', async () => {
    const res = await t.call({
      method: 'PUT',
      url: '/api/user',
      token,
      payload: { UserName: 'Api Client' },
      headers: { origin: 'https://tool.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('accepts a token in the URL only on the spec’s legacy calls, with the account it belongs to', async () => {
    const query = `account=${ADMIN.account}&token=${token}`;
    expect((await t.call({ method: 'GET', url: `/api/user/myinfo?token=${token}` })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `/api/Mqtt/Config?${query}` })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `/api/user/GetUser?${query}` })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `/api/Area/GetArea?${query}` })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: `/api/Area/GetArea?account=someone&token=${token}` })).statusCode).toBe(401);
    expect((await t.call({ method: 'GET', url: `/api/Area/GetArea?token=${token}` })).statusCode).toBe(401);
  });

  it('is renewed with the session, and cleared with it at sign-out', async () => {
    const res = await t.call({ method: 'POST', url: '/api/User', payload: { Account: ADMIN.account, Password: ADMIN.password } });
    const mine = sessionCookie(res)?.value ?? '';
    const renewed = await t.call({
      method: 'POST',
      url: '/api/user/UserUpdateToken',
      headers: { cookie: `token=${mine}`, 'sec-fetch-site': 'same-origin' },
    });
    const fresh = sessionCookie(renewed)?.value ?? '';
    expect(fresh).not.toBe(mine);
    expect(fresh).toBe(renewed.json<Body<{ Token: string }>>().data.Token);
    const browser = { cookie: `token=${fresh}`, 'sec-fetch-site': 'same-origin' };
    const out = await t.call({ method: 'GET', url: '/api/user/logout', headers: browser });
    expect(out.statusCode).toBe(200);
    const cleared = sessionCookie(out);
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime()).toBeLessThan(Date.now());
    const after = await t.call({ method: 'GET', url: '/api/user/myinfo', headers: browser });
    expect(after.statusCode).toBe(401);
    // The dead cookie is cleared, so the browser stops sending it.
    expect(sessionCookie(after)?.value).toBe('');
  });
});

describe('request logs', () => {
  it('hold no token at any level, trace included', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'sluice-log-'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'trace',
      WEB_DIST: path.join(dataDir, 'none'),
    });
    const database = await openDatabase({ dataDir: config.DATA_DIR });
    const app = await buildApp({ config, database, logger: { level: 'trace', stream } });
    try {
      await bootstrap(app.ctx);
      await app.ready();
      const login = await app.inject({
        method: 'POST',
        url: '/api/User',
        payload: { Account: ADMIN.account, Password: ADMIN.password },
      });
      const token = login.json<Body<{ Token: string }>>().data.Token;
      await app.inject({ method: 'GET', url: '/api/user/myinfo', headers: { authorization: `Bearer ${token}` } });
      await app.inject({ method: 'GET', url: '/api/user/myinfo', headers: { cookie: `token=${token}` } });
      await app.inject({ method: 'GET', url: `/api/user/GetUser?account=${ADMIN.account}&token=${token}` });
      await app.inject({ method: 'GET', url: `/api/user/myinfo?token=${token}` });
      await app.inject({ method: 'GET', url: '/api/user/logout', headers: { authorization: `Bearer ${token}` } });
      await app.inject({ method: 'GET', url: '/api/user/myinfo', headers: { authorization: `Bearer ${token}` } });

      const requestLines = lines.filter((l) => l.includes('/api/user/'));
      expect(requestLines.length).toBeGreaterThanOrEqual(6);
      expect(app.log.level).toBe('trace');
      expect(requestLines.some((l) => l.includes('GET /api/user/GetUser 200'))).toBe(true);
      for (const line of lines) expect(line).not.toContain(token);
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
