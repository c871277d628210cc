import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, createTestApp, databaseKinds, fieldsOf, PNG, type TestApp } from './harness.ts';
import { client, multipartWithFields, zipFile, type Client } from './config-api.ts';
import { buildWarnCode, buildWarnType } from './factories.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { SecretBox } from '../src/security/secret-box.ts';
import { signRequest } from '../src/modules/sim/simboss.client.ts';

interface WarnCode {
  Id: number;
  Code: string;
  Description: string;
  WarnTypeId: number;
  TypeName: string;
}
interface AppVersion {
  Id: number;
  VersionNo: string;
  State: boolean;
  Type: string;
  Size: number;
  url: string;
}
interface SimAccount {
  Id: number;
  SimAccount: string;
  SimPassword: string;
  AppId: string;
  AppSecret: string;
}

/** A fake SIM provider on 127.0.0.1: it knows one card, checks the signature, and records calls. */
const KNOWN_ICCID = '89860412345678901234';
const APP_SECRET = 'provider-secret-1234';
const calls: Record<string, string>[] = [];
async function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return Object.fromEntries(new URLSearchParams(body));
}
function fakeProvider(): Server {
  return createServer((request, response) => {
    void readForm(request).then((form) => {
      calls.push(form);
      response.setHeader('content-type', 'application/json');
      const { sign, ...params } = form;
      if (request.url !== '/2.0/device/detail' || sign !== signRequest(params, APP_SECRET)) {
        response.end(JSON.stringify({ success: false, code: '401', message: 'sign error' }));
        return;
      }
      if (form.iccid !== KNOWN_ICCID) {
        response.end(JSON.stringify({ success: false, code: '1004', message: 'device not found' }));
        return;
      }
      response.end(
        JSON.stringify({
          success: true,
          code: '0',
          message: 'success',
          data: {
            iccid: KNOWN_ICCID,
            imsi: '460041234567890',
            msisdn: '1064812345678',
            carrier: 'CMCC',
            status: 'ACTIVATED',
            totalDataVolume: 1024,
            usedDataVolume: 312.5,
            startDate: '2025-01-01',
            expireDate: '2026-12-31',
          },
        }),
      );
    });
  });
}

describe.each(databaseKinds)('alarms, apps and SIM on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let admin: Client;
  let operator: Client;
  let stranger: Client;
  let provider: Server;

  beforeAll(async () => {
    provider = fakeProvider();
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const { port } = provider.address() as AddressInfo;
    t = await createTestApp(kind, { SIM_API_URL: `http://127.0.0.1:${String(port)}/2.0` });
    const users = await t.signInUsers();
    adminToken = users.admin;
    admin = client(t, adminToken);
    operator = client(t, users.operator);
    stranger = client(t, users.otherAdmin);
    // Group 1's warn types and codes, E101 linked to a data key (so in use).
    const db = t.app.ctx.db;
    const alarm = await buildWarnType(db, { groupId: 1, name: '报警 Alarm' });
    const fault = await buildWarnType(db, { groupId: 1, name: '故障 Fault', color: '#f5222d' });
    const offline = await buildWarnType(db, { groupId: 1, name: '离线 Offline', color: '#8c8c8c' });
    const codes: [string, number, string, string?][] = [
      ['E101', fault, '1#提升泵故障 Lift pump 1 fault', 'LiftPump1Fault'],
      ['E201', fault, '1#风机故障 Blower 1 fault'],
      ['E202', fault, '2#风机故障 Blower 2 fault'],
      ['A101', alarm, '调节池高液位 High level in the regulating tank'],
      ['O001', offline, '设备离线 Device offline'],
    ];
    for (const [code, warnTypeId, description, dataKey] of codes) {
      await buildWarnCode(db, { groupId: 1, warnTypeId, code, description, ...(dataKey ? { dataKey } : {}) });
    }
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => provider.close(resolve));
  });

  it('manages warn types and their codes, by code under their type', async () => {
    const types = await operator.get<{ Id: number; TypeName: string; Color: string }[]>('/warntype');
    expect(types.body.data.map((x) => x.TypeName)).toEqual(expect.arrayContaining(['报警 Alarm', '故障 Fault', '离线 Offline']));
    expect(fieldsOf(await admin.post('/warntype', { TypeName: 'Notice', Color: 'blue' }))).toEqual(['Color']);
    const added = await admin.post<{ Id: number; Color: string }>('/warntype', {
      TypeName: 'Notice',
      Color: '#1677ff',
      Icon: 'bell',
    });
    expect(added.status).toBe(201);
    const typeId = added.body.data.Id;
    expect((await admin.post('/warntype', { TypeName: 'notice' })).status).toBe(409);
    expect(
      (await admin.put<{ Color: string }>('/warntype', { Id: typeId, TypeName: 'Notice', Color: '#abc' })).body.data.Color,
    ).toBe('#abc');

    const code = await admin.post<WarnCode>(`/${String(typeId)}/warncode`, { Code: 'N001', Description: 'Patrol due' });
    expect(code.status).toBe(201);
    expect(code.body.data).toMatchObject({ Code: 'N001', WarnTypeId: typeId, TypeName: 'Notice' });
    expect((await admin.post(`/${String(typeId)}/warncode`, { Code: 'E101', Description: 'dup' })).status).toBe(409);
    expect(fieldsOf(await admin.post(`/${String(typeId)}/warncode`, { Code: 'bad code!', Description: '' }))).toEqual(
      expect.arrayContaining(['Code', 'Description']),
    );
    const changed = await admin.put<WarnCode>(`/${String(typeId)}/warncode/N001`, { Description: 'Patrol overdue' });
    expect(changed.body.data.Description).toBe('Patrol overdue');
    expect((await admin.put(`/${String(typeId)}/warncode/E101`, { Description: 'not under this type' })).status).toBe(404);

    const page = await operator.get<WarnCode[]>(`/warnCode?warnTypeId=${String(typeId)}&PageSize=5`);
    expect(page.body.data.map((c) => c.Code)).toEqual(['N001']);
    const searched = await operator.get<WarnCode[]>('/warnCode?Search=blower&PageSize=100');
    expect(searched.body.data.map((c) => c.Code)).toEqual(['E201', 'E202']);
    expect(searched.body.data[0]?.TypeName).toBe('故障 Fault');
    const all = await operator.get<WarnCode[]>('/WarnCode/GetWarnCode');
    expect(all.body.data.length).toBe(6);
    expect((await operator.get<WarnCode>('/WarnCode/GetWarnCode/A101')).body.data.TypeName).toBe('报警 Alarm');

    expect((await admin.del(`/warntype/${String(typeId)}`)).status).toBe(409);
    const faultType = types.body.data.find((x) => x.TypeName === '故障 Fault')?.Id ?? 0;
    expect((await admin.del(`/${String(faultType)}/warncode/E101`)).status).toBe(409);
    expect((await admin.del(`/${String(typeId)}/warncode/N001`)).status).toBe(200);
    expect((await admin.del(`/warntype/${String(typeId)}`)).status).toBe(200);

    expect((await operator.post('/warntype', { TypeName: 'x' })).status).toBe(403);
    expect((await operator.post(`/${String(faultType)}/warncode`, { Code: 'X1', Description: 'x' })).status).toBe(403);
    expect((await stranger.get('/WarnCode/GetWarnCode/A101')).status).toBe(404);
    expect((await stranger.put(`/${String(faultType)}/warncode/E101`, { Description: 'hijack' })).status).toBe(404);
    expect((await stranger.del(`/warntype/${String(faultType)}`)).status).toBe(404);
    expect((await stranger.get<unknown[]>('/warnCode')).body.data).toEqual([]);
  });

  it('takes Android packages checked by their central directory, and serves the newest enabled one', async () => {
    const upload = (fields: Record<string, string>, content: Buffer, method: 'POST' | 'PUT' = 'POST') =>
      t.call({
        method,
        url: '/api/appVersion',
        token: adminToken,
        lang: 'en-US',
        ...multipartWithFields(fields, content, 'app.apk'),
      });
    const apk = zipFile({ 'AndroidManifest.xml': '<manifest/>', 'classes.dex': 'dex\n035', 'res/raw/a.txt': 'x'.repeat(5000) });
    const first = await upload({ VersionNo: 'V1.2.0', Description: 'First', Type: 'android' }, apk);
    expect(first.statusCode).toBe(201);
    const v120 = first.json<{ data: AppVersion }>().data;
    expect(v120).toMatchObject({ VersionNo: 'V1.2.0', State: true, Type: 'android', Size: apk.length });
    const second = await upload({ VersionNo: 'V1.10.0' }, apk);
    expect(second.statusCode).toBe(201);
    const v1100 = second.json<{ data: AppVersion }>().data;

    const refused = [
      await upload({ VersionNo: 'V2.0.0' }, zipFile({ 'readme.txt': 'not an app' })),
      await upload({ VersionNo: 'V2.0.0' }, Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(500, 1)])),
      await upload({ VersionNo: 'V2.0.0' }, PNG),
    ];
    for (const res of refused) expect(res.statusCode).toBe(415);
    expect(refused[0]?.json<{ message: string }>().message).toContain('Android package');
    const badVersion = await upload({ VersionNo: '2.0' }, apk);
    expect(badVersion.statusCode).toBe(400);
    expect(fieldsOf(badVersion)).toEqual(['VersionNo']);
    expect((await admin.get<AppVersion[]>('/appVersion?PageSize=10')).body.count).toBe(2);

    const latest = await operator.get<AppVersion>('/AppVersion/get?type=android');
    expect(latest.body.data.VersionNo).toBe('V1.10.0');
    const edited = await admin.put<AppVersion>('/appVersion', {
      Id: v1100.Id,
      VersionNo: 'V1.10.1',
      Description: 'Hold back',
      State: false,
    });
    expect(edited.body.data).toMatchObject({ VersionNo: 'V1.10.1', State: false });
    expect(fieldsOf(await admin.put('/appVersion', { Id: v1100.Id, VersionNo: 'one', State: true }))).toEqual(['VersionNo']);
    expect((await operator.get<AppVersion>('/AppVersion/get')).body.data.VersionNo).toBe('V1.2.0');

    // The mobile app downloads without a session, by its file URL or by the group's stable link.
    const link = await t.call({ method: 'GET', url: '/api/AppVersion/latest?Group=sluice' });
    expect(link.statusCode).toBe(302);
    expect(link.headers.location).toBe(v120.url);
    const file = await t.call({ method: 'GET', url: v120.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/vnd.android.package-archive');
    expect(file.rawPayload.equals(apk)).toBe(true);
    expect((await t.call({ method: 'GET', url: '/api/AppVersion/latest?Group=nosuch' })).statusCode).toBe(404);

    // A multipart PUT replaces a version's file.
    const replaced = await upload({ Id: String(v120.Id), VersionNo: 'V1.2.1' }, apk, 'PUT');
    expect(replaced.statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: v120.url })).statusCode).toBe(404);

    expect((await operator.del(`/appVersion/${String(v120.Id)}`)).status).toBe(403);
    expect((await stranger.del(`/appVersion/${String(v120.Id)}`)).status).toBe(404);
    expect((await stranger.get('/AppVersion/get')).status).toBe(404);
    expect((await admin.del(`/appVersion/${String(v1100.Id)}`)).status).toBe(200);
  });

  it('keeps SIM provider secrets sealed and masked, and looks cards up at the provider', async () => {
    const sn = (await admin.post<{ Device: { DeviceSn: string } }>('/1/Device', { DeviceName: 'Station gateway' })).body.data
      .Device.DeviceSn;
    expect((await admin.get(`/1/${sn}/DeviceCard/simboss`)).status).toBe(404);
    expect((await admin.post(`/1/${sn}/DeviceCard`, { ICCID: KNOWN_ICCID })).status).toBe(201);
    const none = await admin.get(`/1/${sn}/DeviceCard/simboss`);
    expect(none.status).toBe(409);
    expect(none.body.message).toContain('No SIM provider account is configured');

    expect(fieldsOf(await admin.post('/simboss', { SimAccount: 'ops', AppId: 'x' }))).toEqual(
      expect.arrayContaining(['SimPassword', 'AppSecret']),
    );
    const wrong = await admin.post<SimAccount>('/simboss', {
      SimAccount: 'old-account',
      SimPassword: 'pw-old',
      AppId: 'app-old',
      AppSecret: 'wrong-secret-0000',
    });
    const added = await admin.post<SimAccount>('/simboss', {
      SimAccount: 'ops@station',
      SimPassword: 'S1mPassw0rd',
      AppId: 'app-123',
      AppSecret: APP_SECRET,
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({
      Id: added.body.data.Id,
      SimAccount: 'ops@station',
      SimPassword: '••••••',
      AppId: 'app-123',
      AppSecret: '••••••1234',
    });
    const stored = await t.app.ctx.db
      .selectFrom('sim_accounts')
      .selectAll()
      .where('id', '=', added.body.data.Id)
      .executeTakeFirstOrThrow();
    expect(stored.sim_password).not.toContain('S1mPassw0rd');
    expect(stored.app_secret).not.toContain(APP_SECRET);
    expect(stored.app_secret.startsWith('v1:')).toBe(true);
    const listed = await admin.get<SimAccount[]>('/simboss');
    expect(JSON.stringify(listed.body)).not.toContain(APP_SECRET);
    // Masked or empty secrets keep the stored ones.
    const renamed = await admin.put<SimAccount>('/simboss', {
      Id: added.body.data.Id,
      SimAccount: 'ops@station2',
      SimPassword: '',
      AppId: 'app-123',
      AppSecret: '••••••1234',
    });
    expect(renamed.body.data.SimAccount).toBe('ops@station2');
    expect(
      t.app.ctx.secrets.open(
        (
          await t.app.ctx.db
            .selectFrom('sim_accounts')
            .select('app_secret')
            .where('id', '=', added.body.data.Id)
            .executeTakeFirstOrThrow()
        ).app_secret,
      ),
    ).toBe(APP_SECRET);

    calls.length = 0;
    const card = await admin.get<Record<string, unknown>>(`/1/${sn}/DeviceCard/simboss`);
    expect(card.status).toBe(200);
    expect(card.body.data).toMatchObject({
      Iccid: KNOWN_ICCID,
      Carrier: 'CMCC',
      Status: 'ACTIVATED',
      DataPlanMB: 1024,
      DataUsedMB: 312.5,
      ExpiresAt: '2026-12-31',
      SimAccount: 'ops@station2',
    });
    // The first account's signature is refused; the second one's is right.
    expect(calls.map((c) => c.appid)).toEqual(['app-old', 'app-123']);
    expect(calls[1]).toMatchObject({ iccid: KNOWN_ICCID });

    await admin.put(`/1/${sn}/DeviceCard`, { ICCID: '89860400000000000000' });
    const unknown = await admin.get(`/1/${sn}/DeviceCard/simboss`);
    expect(unknown.status).toBe(502);
    await admin.del(`/simboss/${String(wrong.body.data.Id)}`);
    const notFound = await admin.get(`/1/${sn}/DeviceCard/simboss`);
    expect(notFound.status).toBe(404);
    expect(notFound.body.message).toContain('89860400000000000000');

    expect((await operator.get('/simboss')).status).toBe(403);
    expect((await operator.post('/simboss', { SimAccount: 'x', SimPassword: 'x', AppId: 'x', AppSecret: 'x' })).status).toBe(403);
    expect((await stranger.get(`/simboss/${String(added.body.data.Id)}`)).status).toBe(404);
    expect((await stranger.get(`/2/${sn}/DeviceCard/simboss`)).status).toBe(404);
    expect((await stranger.get(`/1/${sn}/DeviceCard/simboss`)).status).toBe(403);
  });

  it('says so when the SIM provider cannot be reached', async () => {
    const down = await createTestApp(kind, { SIM_API_URL: 'http://127.0.0.1:9/2.0' });
    try {
      const api = client(down, await down.login(ADMIN.account, ADMIN.password));
      const sn = (await api.post<{ Device: { DeviceSn: string } }>('/1/Device', { DeviceName: 'Gateway' })).body.data.Device
        .DeviceSn;
      await api.post(`/1/${sn}/DeviceCard`, { ICCID: KNOWN_ICCID });
      await api.post('/simboss', { SimAccount: 'ops', SimPassword: 'pw', AppId: 'app', AppSecret: APP_SECRET });
      const reply = await api.get(`/1/${sn}/DeviceCard/simboss`);
      expect(reply.status).toBe(502);
      expect(reply.body.message).toContain('cannot be reached');
    } finally {
      await down.close();
    }
  });
});

describe('secrets at rest', () => {
  it('validates SECRET_KEY and names it', () => {
    expect(() => loadConfig({ SECRET_KEY: 'too-short' })).toThrow(ConfigError);
    expect(() => loadConfig({ SECRET_KEY: 'too-short' })).toThrow(/\bSECRET_KEY:/);
    expect(loadConfig({ SECRET_KEY: 'ab'.repeat(32) }).SECRET_KEY).toBe('ab'.repeat(32));
    expect(loadConfig({ SECRET_KEY: Buffer.alloc(32, 7).toString('base64') }).SECRET_KEY).toBeDefined();
    expect(() => loadConfig({ SIM_API_URL: 'ftp://x' })).toThrow(/\bSIM_API_URL:/);
  });

  it('seals with AES-256-GCM, refuses altered or foreign secrets, and keeps a generated key under DATA_DIR', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sluice-secrets-'));
    try {
      const box = new SecretBox({ DATA_DIR: dir, SECRET_KEY: undefined });
      const sealed = box.seal('hunter2');
      expect(sealed).not.toContain('hunter2');
      expect(box.seal('hunter2')).not.toBe(sealed);
      expect(box.open(sealed)).toBe('hunter2');
      expect((await stat(path.join(dir, 'secret.key'))).mode & 0o777).toBe(0o600);
      expect(new SecretBox({ DATA_DIR: dir, SECRET_KEY: undefined }).open(sealed)).toBe('hunter2');
      const tampered = `${sealed.slice(0, -4)}AAAA`;
      expect(() => box.open(tampered)).toThrow();
      expect(() => new SecretBox({ DATA_DIR: dir, SECRET_KEY: 'cd'.repeat(32) }).open(sealed)).toThrow();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
