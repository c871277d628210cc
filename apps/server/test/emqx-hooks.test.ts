/**
 * EMQX cannot run here (no container runtime, not in Debian), so what deploy/emqx.conf makes it
 * send to Sluice is sent by this test instead: the HTTP authentication and authorisation sources
 * are read from the file (URL path, method, headers, body template), their placeholders filled as
 * EMQX 5 fills them (${clientid}, ${username}, ${password}, ${topic}, ${action}: strings in a JSON
 * body; ${MQTT_HOOK_SECRET} from the environment), and each answer is read as EMQX reads it: only
 * a 200 with a JSON body counts, its `result` allow, deny or ignore (anything else is ignore) and
 * `is_superuser`; ignore ends, with a single source each, in a refusal (authentication's chain
 * runs out; authorisation's `no_match = deny`). A change to the hooks or to the file that would
 * let EMQX refuse devices, or let anyone in, fails here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { buildDevice } from './factories.ts';

const conf = readFileSync(fileURLToPath(new URL('../../../deploy/emqx.conf', import.meta.url)), 'utf8');
const HOOK_SECRET = 'emqx-hook-secret-0123456789';
const SERVER = { username: 'sluice-server', password: 'server-password-0123' };

interface HttpSource {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, string>;
}

/** The text of the `{ … }` or `[ … ]` that opens at `open`. */
function block(text: string, open: number): string {
  const opening = text[open] ?? '';
  const closing = opening === '[' ? ']' : '}';
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === opening) depth += 1;
    else if (text[i] === closing && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unclosed ${opening} in deploy/emqx.conf`);
}

/** `key = value` lines of a block: quotes removed from keys and string values. */
function entries(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*"?([\w-]+)"?\s*=\s*(.+?)\s*$/.exec(line);
    if (m?.[1] && m[2]) out[m[1]] = m[2].replace(/^"(.*)"$/, '$1');
  }
  return out;
}

/** The HTTP source of the section that starts with `name` (`authentication = [`, `authorization {`). */
function httpSource(name: string): HttpSource {
  const at = conf.search(new RegExp(`^${name}\\s*[=]?\\s*[[{]`, 'm'));
  expect(at, `${name} in deploy/emqx.conf`).toBeGreaterThanOrEqual(0);
  const section = block(conf, conf.indexOf(conf.slice(at).match(/[[{]/)?.[0] ?? '{', at));
  const inner = (key: string) => {
    const m = new RegExp(`\\b${key}\\s*\\{`).exec(section);
    if (!m) throw new Error(`no ${key} block in ${name}`);
    return entries(block(section, m.index + m[0].length - 1));
  };
  const flat = entries(section.replace(/\b(headers|body|cache)\s*\{[^}]*\}/g, ''));
  expect(flat.backend ?? flat.type, `${name} uses HTTP`).toBe('http');
  return {
    method: (flat.method ?? '').toUpperCase(),
    path: new URL(flat.url ?? '').pathname,
    headers: inner('headers'),
    body: inner('body'),
  };
}

/** A template filled as EMQX fills it: ${VAR} of the environment in the file, ${placeholder} from the client. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\$\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
}

const authn = httpSource('authentication');
const authz = httpSource('authorization');

describe.each(databaseKinds)('the hooks EMQX calls as deploy/emqx.conf configures it, on %s', (kind) => {
  let t: TestApp;
  let groupId: number;
  let device: { sn: string; secret: string };
  let other: { sn: string };

  /** Sends what EMQX would and reads the answer as EMQX does. */
  const emqx = async (source: HttpSource, client: Record<string, string>, secret = HOOK_SECRET) => {
    const res = await t.call({
      method: source.method,
      url: source.path,
      headers: Object.fromEntries(Object.entries(source.headers).map(([k, v]) => [k, fill(v, { MQTT_HOOK_SECRET: secret })])),
      payload: JSON.stringify(Object.fromEntries(Object.entries(source.body).map(([k, v]) => [k, fill(v, client)]))),
    });
    if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('application/json'))
      return { result: 'ignore', status: res.statusCode };
    const body = res.json<{ result?: unknown; is_superuser?: unknown }>();
    const result = ['allow', 'deny', 'ignore'].includes(String(body.result)) ? String(body.result) : 'ignore';
    return { result, superuser: body.is_superuser === true, status: res.statusCode };
  };
  /** What EMQX decides: a single source answering ignore leaves the client refused. */
  const decided = (answer: { result: string }) => (answer.result === 'allow' ? 'allow' : 'deny');
  const connect = async (clientid: string, username: string, password: string, secret?: string) =>
    emqx(authn, { clientid, username, password }, secret);
  const may = async (username: string, action: 'publish' | 'subscribe', topic: string) =>
    decided(await emqx(authz, { clientid: username, username, topic, action }));

  beforeAll(async () => {
    t = await createTestApp(kind, {
      MQTT_HOOK_SECRET: HOOK_SECRET,
      MQTT_USERNAME: SERVER.username,
      MQTT_PASSWORD: SERVER.password,
    });
    ({ group_id: groupId } = await t.app.ctx.db
      .selectFrom('users')
      .select('group_id')
      .where('account', '=', ADMIN.account)
      .executeTakeFirstOrThrow());
    device = await buildDevice(t.app.ctx, { groupId });
    other = await buildDevice(t.app.ctx, { groupId });
  });
  afterAll(async () => {
    await t.close();
  });

  const topic = (kind: string, sn: string) => `sluice/${String(groupId)}/${sn}/${kind}`;

  it('reads the file: POST to the hooks with the secret header and the fields EMQX fills', () => {
    expect(authn).toMatchObject({ method: 'POST', path: '/api/mqtt/auth' });
    expect(authz).toMatchObject({ method: 'POST', path: '/api/mqtt/acl' });
    for (const source of [authn, authz]) expect(source.headers['x-mqtt-hook-secret']).toBe('${MQTT_HOOK_SECRET}');
    expect(Object.keys(authn.body).sort()).toEqual(['clientid', 'password', 'username']);
    expect(Object.keys(authz.body).sort()).toEqual(['action', 'clientid', 'topic', 'username']);
    expect(conf).toMatch(/no_match\s*=\s*deny/);
  });

  it('lets a device in with its secret, as no superuser, and refuses a wrong one', async () => {
    expect(await connect(device.sn, device.sn, device.secret)).toEqual({ result: 'allow', superuser: false, status: 200 });
    expect(decided(await connect(device.sn, device.sn, 'not-its-secret'))).toBe('deny');
    expect(decided(await connect('SLNOSUCHDEV01', 'SLNOSUCHDEV01', 'x'))).toBe('deny');
  });

  it('lets the Sluice servers in as superusers (EMQX then skips authorisation for them)', async () => {
    expect(await connect('sluice-in-a-0', SERVER.username, SERVER.password)).toEqual({
      result: 'allow',
      superuser: true,
      status: 200,
    });
    expect(decided(await connect('sluice-in-a-0', SERVER.username, 'wrong'))).toBe('deny');
  });

  it('lets a console in with its session token', async () => {
    const token = await t.login(ADMIN.account, ADMIN.password);
    expect(await connect(`console-${String(Date.now())}`, ADMIN.account, token)).toMatchObject({
      result: 'allow',
      superuser: false,
    });
    expect(decided(await connect('console-x', ADMIN.account, 'not-a-session'))).toBe('deny');
  });

  it('refuses everyone when EMQX sends another secret (Sluice answers 403, which EMQX ignores)', async () => {
    const answer = await connect(device.sn, device.sn, device.secret, 'another-secret-0123456789');
    expect(answer).toEqual({ result: 'ignore', status: 403 });
    expect(decided(answer)).toBe('deny');
  });

  it("authorises a device's own topics only, and a console's reach", async () => {
    expect(await may(device.sn, 'publish', topic('data', device.sn))).toBe('allow');
    expect(await may(device.sn, 'publish', topic('ack', device.sn))).toBe('allow');
    expect(await may(device.sn, 'subscribe', topic('cmd', device.sn))).toBe('allow');
    expect(await may(device.sn, 'publish', topic('data', other.sn))).toBe('deny');
    expect(await may(device.sn, 'subscribe', topic('cmd', other.sn))).toBe('deny');
    expect(await may(device.sn, 'publish', topic('cmd', device.sn))).toBe('deny');
    expect(await may(device.sn, 'subscribe', `sluice/${String(groupId)}/+/data`)).toBe('deny');
    // The console of the group's administrator follows the whole group, and publishes nothing.
    await t.login(ADMIN.account, ADMIN.password);
    expect(await may(ADMIN.account, 'subscribe', `sluice/${String(groupId)}/+/data`)).toBe('allow');
    expect(await may(ADMIN.account, 'publish', topic('cmd', device.sn))).toBe('deny');
    expect(await may(ADMIN.account, 'subscribe', `sluice/${String(groupId + 1000)}/+/data`)).toBe('deny');
  });
});
