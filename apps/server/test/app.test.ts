import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import { buildUser } from './factories.ts';

/** The only calls anyone may make without a session. A new public call must be added here on purpose. */
const PUBLIC_API = [
  'POST /api/User',
  'POST /api/user/Register',
  'GET /api/AppVersion/latest',
  'HEAD /api/AppVersion/latest',
  // The external MQTT broker's hooks, guarded by MQTT_HOOK_SECRET instead of a session.
  'POST /api/mqtt/auth',
  'POST /api/mqtt/acl',
];

describe('the server core', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await t.close();
  });

  it('makes every API route declare who may call it, and keeps the public ones few', () => {
    const api = t.app.routeTable.filter(
      (r) => r.url.toLowerCase().startsWith('/api/') && !r.url.toLowerCase().startsWith('/api/docs'),
    );
    expect(api.length).toBeGreaterThan(5);
    for (const route of api) expect(route.access(), `${route.method} ${route.url}`).toBeDefined();
    const open = api.filter((r) => r.access() === 'public').map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual([...PUBLIC_API].sort());
  });

  it('refuses to register an API route without an access declaration', async () => {
    await expect(
      createTestApp('sqlite', {}, (app) => {
        app.get('/api/sneaky', () => 'x');
      }),
    ).rejects.toThrow('Route GET /api/sneaky declares no access');
  });

  it('matches API paths case-insensitively', async () => {
    const user = await buildUser(t.app.ctx.db, { groupId: 1 });
    const token = await t.login(user.account, user.password);
    expect((await t.call({ method: 'GET', url: '/API/USER/MYINFO', token })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: '/api/User/MyInfo/', token })).statusCode).toBe(200);
  });

  it('answers an unknown call with a 404 envelope in the caller’s language', async () => {
    const res = await t.call({ method: 'GET', url: '/api/nothing/here', lang: 'zh-CN' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: '没有这个接口：GET /api/nothing/here', data: null });
  });

  it('hides the details of server errors', async () => {
    const fresh = await createTestApp('sqlite', {}, (app) => {
      app.get('/api/boom', { config: { access: 'public' } }, () => {
        throw new Error('secret table users_password_hash');
      });
    });
    try {
      const res = await fresh.call({ method: 'GET', url: '/api/boom', lang: 'en-US' });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain('secret');
      expect(res.json()).toMatchObject({ success: false, message: 'Something went wrong on the server; it has been logged' });
    } finally {
      await fresh.close();
    }
  });

  it('sends security headers with a content security policy', async () => {
    const res = await t.call({ method: 'GET', url: '/api/nothing' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBeDefined();
  });

  it('serves the OpenAPI document with the account calls and their schemas', async () => {
    const res = await t.call({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/User']?.post?.requestBody).toBeDefined();
    expect(Object.keys(doc.paths)).toContain('/api/user/myinfo');
    expect((await t.call({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(200);
  });
});
