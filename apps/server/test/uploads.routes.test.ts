/**
 * Every upload route answers a malformed multipart body with 400 naming the file, in the
 * caller's language, and keeps nothing of it; firmware is taken as opaque bytes.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translate } from '@sluice/shared/i18n';
import { createTestApp, databaseKinds, fieldsOf, PNG, type Body, type TestApp } from './harness.ts';
import { createTenant } from '../src/modules/groups/tenancy.service.ts';
import { hashDeviceSecret } from '../src/modules/devices/device-credentials.ts';
import { newDeviceRow } from '../src/modules/devices/devices.repository.ts';
import { multipartWithFields, zipFile } from './config-api.ts';

interface UploadRoute {
  method: 'POST' | 'PUT';
  url: string;
  /** Fields a well-formed upload of this route sends before the file. */
  fields: Record<string, string>;
}

const BOUNDARY = 'sluiceBoundary42';
const multipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

/** The start of a well-formed body: the fields, then the head of a file part. */
function opening(fields: Record<string, string>): string {
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join('')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`;
}

const MALFORMED: {
  what: string;
  headers: Record<string, string>;
  body: (fields: Record<string, string>) => Buffer;
  answer: 'error.badUpload' | 'error.noFile';
}[] = [
  {
    what: 'no boundary',
    headers: { 'content-type': 'multipart/form-data' },
    body: () => Buffer.from('just text'),
    answer: 'error.badUpload',
  },
  {
    what: 'no boundary line in the body',
    headers: multipart,
    body: () => Buffer.from('just text, no parts'),
    answer: 'error.badUpload',
  },
  {
    what: 'a body cut off inside the file',
    headers: multipart,
    body: (fields) => Buffer.concat([Buffer.from(opening(fields)), PNG.subarray(0, 40)]),
    answer: 'error.badUpload',
  },
  {
    // The reader skips a part without a Content-Disposition: there is no file.
    what: 'a part header that is not one',
    headers: multipart,
    body: () => Buffer.from(`--${BOUNDARY}\r\nthis is not a header\r\n\r\nxx\r\n--${BOUNDARY}--\r\n`),
    answer: 'error.noFile',
  },
];

describe.each(databaseKinds)('uploads on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let routes: UploadRoute[];

  const storedFiles = async () => {
    const root = path.join(t.dataDir, 'uploads');
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).length;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '0' });
    const tenant = await createTenant(t.app.ctx.db, { groupName: 'Uploads Water', code: 'uploads', adminAccount: 'uploadboss' });
    token = await t.login('uploadboss', tenant.password);
    const g = String(tenant.groupId);
    const created = async (url: string, payload: Record<string, unknown>) => {
      const res = await t.call({ method: 'POST', url: `/api${url}`, token, payload });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json<Body<{ Id: number }>>().data.Id;
    };
    const projectId = await created(`/${g}/project`, { Name: 'Upload works', ProjectType: 0, ParentId: 0 });
    const typeId = String(await created('/Type', { TypeName: 'Upload type' }));
    const sn = 'SLU000000001';
    await t.app.ctx.db
      .insertInto('devices')
      .values(newDeviceRow({ group_id: tenant.groupId, device_sn: sn, device_name: 'Pump', secret_hash: hashDeviceSecret('x') }))
      .execute();
    const app = { VersionNo: 'V1.0.0', Type: 'android' };
    routes = [
      { method: 'POST', url: `/${g}/${String(projectId)}/ProjectImage`, fields: {} },
      { method: 'PUT', url: `/device/${sn}/DeviceImage`, fields: {} },
      { method: 'PUT', url: '/group/logo', fields: {} },
      { method: 'POST', url: '/appVersion', fields: app },
      { method: 'PUT', url: '/appVersion', fields: app },
      { method: 'POST', url: `/type/${typeId}/TypeImage`, fields: {} },
      { method: 'POST', url: '/TypeImagesAdd', fields: { TypeId: typeId } },
      { method: 'POST', url: `/type/${typeId}/TypeUpdateFile`, fields: { Version: 'V1.0.0' } },
      { method: 'POST', url: '/TypeUpdateFileAdd', fields: { TypeId: typeId, Version: 'V1.0.0' } },
      { method: 'POST', url: '/DataDefineLibrary/Import', fields: {} },
    ];
  });

  afterAll(async () => {
    await t.close();
  });

  it('answers a malformed multipart body with 400 naming the file, on every upload route, keeping nothing', async () => {
    const before = await storedFiles();
    for (const route of routes) {
      for (const bad of MALFORMED) {
        for (const lang of ['en-US', 'zh-CN'] as const) {
          const res = await t.call({
            method: route.method,
            url: `/api${route.url}`,
            token,
            lang,
            headers: bad.headers,
            payload: bad.body(route.fields),
          });
          const what = `${route.method} ${route.url}: ${bad.what} (${lang})`;
          expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
          expect(res.json<Body>().message, what).toContain(translate(lang, bad.answer));
          expect(fieldsOf(res), what).toEqual(['file']);
        }
      }
    }
    expect(await storedFiles()).toBe(before);
  });

  it('takes firmware as opaque bytes, even when it starts like a bitmap, an image or a ZIP file', async () => {
    const typeId = routes.find((r) => r.url.endsWith('/TypeUpdateFile'))?.url ?? '';
    const firmwares = [Buffer.concat([Buffer.from('BM'), Buffer.alloc(300, 0x5a)]), zipFile({ 'boot.img': 'kernel' }), PNG];
    for (const [i, bytes] of firmwares.entries()) {
      const res = await t.call({
        method: 'POST',
        url: `/api${typeId}`,
        token,
        ...multipartWithFields({ Version: `V1.0.${String(i)}` }, bytes, `fw${String(i)}.bin`),
      });
      expect(res.statusCode, res.body).toBe(201);
      const file = res.json<Body<{ url: string; Size: number }>>().data;
      expect(file.Size).toBe(bytes.length);
      const download = await t.call({ method: 'GET', url: file.url });
      expect(download.headers['content-type']).toBe('application/octet-stream');
      expect(download.rawPayload.equals(bytes)).toBe(true);
    }
  });
});
