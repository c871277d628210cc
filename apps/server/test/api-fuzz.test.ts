/**
 * A bounded fuzz pass over the OpenAPI document: for every operation of the route table, a few
 * requests that fit its schema except in one place, which gets a hostile or random value (a path
 * or query parameter, a body field at any depth, the whole body, its content type). No answer
 * may be a server error. Seeded: FUZZ_SEED=<n> repeats a run, and a failure names its seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { PNG, apiRoutes, multipart, requestFor, routeName, wantsFile, type ApiRoute, type Ids } from './api-requests.ts';
import { buildTenantData } from './tenant-data.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
/** Requests per operation: some 3,000 in all (seven for each of the API's routes), under a minute on SQLite. */
const PER_OPERATION = 7;

/** Mulberry32: a small seeded generator, so that a run is repeated by its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const deep = (depth: number): unknown => (depth === 0 ? 1 : [deep(depth - 1)]);

/** Values that have broken servers: sizes, encodings, injections, numbers at the edges. */
const HOSTILE: unknown[] = [
  '',
  ' ',
  'x'.repeat(100_000),
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '../../../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '😀'.repeat(500),
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%s%s%s%n',
  '__proto__',
  'constructor',
  'NaN',
  'Infinity',
  '1e309',
  '-1',
  '0x10',
  '9'.repeat(40),
  '2024-02-30T25:61:61Z',
  '{"$gt":""}',
  -1,
  0,
  -0,
  1.5,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  8.64e15,
  true,
  null,
  [],
  {},
  [null],
  Array.from({ length: 2_000 }, (_, i) => i),
  Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${String(i)}`, i])),
  deep(200),
  JSON.parse('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}'),
];

/** Whole bodies no client should send. */
const RAW_BODIES: { payload: string | Buffer; type: string }[] = [
  { payload: '{"Id":', type: 'application/json' },
  { payload: '[]', type: 'application/json' },
  { payload: '"text"', type: 'application/json' },
  { payload: 'null', type: 'application/json' },
  { payload: '{"a":'.repeat(5_000), type: 'application/json' },
  { payload: '\uFEFF{}', type: 'application/json' },
  { payload: '<xml/>', type: 'application/xml' },
  { payload: 'Id=1&Id=2', type: 'application/x-www-form-urlencoded' },
  { payload: 'plain', type: 'text/plain' },
  { payload: Buffer.from([0xff, 0xfe, 0x00, 0x01]), type: 'application/octet-stream' },
  { payload: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nunterminated', type: 'multipart/form-data; boundary=x' },
  { payload: 'no boundary here', type: 'multipart/form-data' },
  { payload: '--x--\r\n', type: 'multipart/form-data; boundary=x' },
];

/** The places of a request a mutation may hit: path parameters, query parameters, body fields (dotted paths). */
function places(route: ApiRoute, request: InjectOptions): string[] {
  const out = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => `path:${m[1] ?? ''}`);
  for (const key of Object.keys((request.query ?? {}) as object)) out.push(`query:${key}`);
  const walk = (value: unknown, at: string) => {
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      const here = at ? `${at}.${key}` : key;
      out.push(`body:${here}`);
      walk(inner, here);
    }
  };
  walk(request.payload, '');
  out.push('raw');
  out.push(Buffer.isBuffer(request.payload) ? 'form' : 'body');
  return out;
}

function setAt(target: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head = '', ...rest] = path;
  // An array is copied as an object of its indexes, and turned back below.
  const copy: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  copy[head] = setAt(copy[head], rest, value);
  return Array.isArray(target) ? Object.values(copy) : copy;
}

/** JSON text of a value; undefined for undefined, as JSON.stringify answers at run time. */
const json = (value: unknown): string | undefined => JSON.stringify(value);

/** The text with lone surrogates replaced, which a URL cannot encode (the body still gets them). */
const wellFormed = (text: string) => text.replace(/\p{Cs}/gu, '\uFFFD');

/** The request with one place given a hostile value. */
function mutate(route: ApiRoute, request: InjectOptions, pick: () => number, values: unknown[]): InjectOptions {
  const choices = places(route, request);
  const place = choices[Math.floor(pick() * choices.length)] ?? 'raw';
  const value = values[Math.floor(pick() * values.length)];
  const text = typeof value === 'string' ? value : (json(value) ?? '');
  if (place.startsWith('path:')) {
    const name = place.slice('path:'.length);
    const segments = route.url.split('/');
    const index = segments.indexOf(`:${name}`);
    const url = (request.url as string).split('/');
    url[index] = encodeURIComponent(wellFormed(text.slice(0, 2_000))) || '%20';
    return { ...request, url: url.join('/') };
  }
  if (place.startsWith('query:')) {
    const query = { ...(request.query as Record<string, string>) };
    query[place.slice('query:'.length)] = wellFormed(text.slice(0, 4_000));
    return { ...request, query };
  }
  if (place === 'form') {
    // An upload whose fields and file name are hostile, and whose file is cut short half the time.
    const form = multipart(
      { Id: text, TypeId: text, TempId: text, VersionNo: text, ImageName: text, Type: text },
      { name: text.slice(0, 500) || 'x', type: 'image/png', content: pick() < 0.5 ? PNG : PNG.subarray(0, 9) },
    );
    return { ...request, ...form };
  }
  if (place === 'raw' || typeof request.payload !== 'object' || Buffer.isBuffer(request.payload)) {
    const raw = RAW_BODIES[Math.floor(pick() * RAW_BODIES.length)] ?? { payload: '', type: 'text/plain' };
    return { ...request, payload: raw.payload, headers: { ...request.headers, 'content-type': raw.type } };
  }
  if (place === 'body') return { ...request, payload: json(value) ?? 'null', headers: { 'content-type': 'application/json' } };
  return { ...request, payload: setAt(request.payload, place.slice('body:'.length).split('.'), value) as object };
}

const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

describe.each(databaseKinds)('the API under hostile input on %s', (kind) => {
  let t: TestApp;
  let ids: Ids;
  let token: string;

  beforeAll(async () => {
    // The SIM provider (a service we cannot reach) at a closed local port: its lookups answer 502 at once.
    t = await createTestApp(kind, { SIM_API_URL: 'http://127.0.0.1:9' });
    const tenant = await buildTenantData(t);
    ids = { ownGroup: tenant.groupId, id: 1, deviceSn: tenant.deviceSn, warnCode: tenant.warnCode };
    token = await t.login(ADMIN.account, ADMIN.password);
  });
  afterAll(async () => {
    await t.close();
  });

  it(`answers every request without a server error (seed ${String(SEED)})`, async () => {
    const pick = random(SEED);
    const randomValues = fc.sample(fc.jsonValue({ maxDepth: 3 }), { seed: SEED, numRuns: 300 });
    const values = [...HOSTILE, ...randomValues];
    // Deletions last, so that they leave the records the other calls name until the end.
    const routes = apiRoutes(t.app).sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method));
    const db = t.app.ctx.db;
    const administrator = await db
      .selectFrom('users')
      .select(['id', 'account', 'password_hash', 'status', 'is_platform_admin'])
      .where('account', '=', ADMIN.account)
      .executeTakeFirstOrThrow();
    const call = async (options: InjectOptions) => {
      let res = await t.call({ ...options, token });
      if (res.statusCode === 401) {
        // A call ended the session (signing out, a new token, a new password for the administrator
        // itself, its account disabled): put the administrator back as it was and sign in again.
        await db.updateTable('users').set(administrator).where('id', '=', administrator.id).execute();
        await db.deleteFrom('login_throttle').execute();
        token = await t.login(ADMIN.account, ADMIN.password);
        res = await t.call({ ...options, token });
      }
      return res;
    };
    const errors: string[] = [];
    let sent = 0;
    for (const [r, route] of routes.entries()) {
      const upload = route.operation?.requestBody === undefined && wantsFile(await call(requestFor(route, ids, SEED + r)));
      for (let k = 0; k < PER_OPERATION; k++) {
        const request = mutate(route, requestFor(route, ids, SEED + r * PER_OPERATION + k, upload), pick, values);
        const res = await call(request);
        sent += 1;
        // 502 is the SIM provider's answer passed on (unreachable here), not an error of ours.
        if (res.statusCode >= 500 && res.statusCode !== 502) {
          const body = typeof request.payload === 'string' ? request.payload : json(request.payload ?? null);
          errors.push(
            `${routeName(route)} #${String(k)}: ${String(res.statusCode)} ${res.body.slice(0, 200)} ← ${JSON.stringify(request.url)} ${JSON.stringify(request.query)} ${(body ?? '').slice(0, 200)}`,
          );
        }
      }
    }
    // Bounded per operation, not in total: every route was tried PER_OPERATION times, however many the API has.
    expect(sent).toBeGreaterThan(1_000);
    expect(sent).toBe(routes.length * PER_OPERATION);
    expect(errors).toEqual([]);
  });
});
