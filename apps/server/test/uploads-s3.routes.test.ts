/**
 * STORAGE=s3: uploads through the API land in the bucket (a local server speaking S3,
 * fake-s3.ts) and are served back from it at /uploads with their content type; refused uploads
 * leave nothing there; a replaced or deleted file leaves the bucket.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_LOGO_LIMIT } from '@sluice/shared/group.schema';
import { createTestApp, databaseKinds, EXE, multipartFile, PNG, type TestApp, type Users } from './harness.ts';
import { buildType } from './factories.ts';
import { startFakeS3, type FakeS3 } from './fake-s3.ts';

/** `size` bytes that an MP4 file's head makes a video. */
function video(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  Buffer.from([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(bytes);
  for (let i = 16; i + 4 <= size; i += 4096) bytes.writeUInt32BE(i, i);
  return bytes;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe.each(databaseKinds)('uploads in an S3-compatible bucket on %s', (kind) => {
  let s3: FakeS3;
  let t: TestApp;
  let u: Users;

  beforeAll(async () => {
    s3 = await startFakeS3();
    t = await createTestApp(kind, s3.env);
    u = await t.signInUsers();
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  /** The keys added to the bucket by `action`. */
  const added = async (action: () => Promise<unknown>) => {
    const before = await s3.keys();
    await action();
    return (await s3.keys()).filter((key) => !before.includes(key));
  };

  const putLogo = (bytes: Buffer) =>
    t.call({ method: 'PUT', url: '/api/group/logo', token: u.admin, ...multipartFile(bytes, 'logo.png') });

  it('stores an uploaded logo in the bucket and serves it back as image/png; a key not stored is 404', async () => {
    let logo = '';
    const keys = await added(async () => {
      const res = await putLogo(PNG);
      expect(res.statusCode, res.body).toBe(200);
      logo = res.json<{ data: { Logo: string } }>().data.Logo;
    });
    expect(keys).toEqual([logo.slice('/uploads/'.length)]);
    expect(keys[0]).toMatch(/^group-logo\/[0-9a-f]{32}\.png$/);

    const served = await t.call({ method: 'GET', url: logo });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload).toEqual(PNG);

    expect((await t.call({ method: 'GET', url: '/uploads/group-logo/00000000000000000000000000000000.png' })).statusCode).toBe(
      404,
    );
    expect((await t.call({ method: 'GET', url: '/uploads/group-logo/../x.png' })).statusCode).toBe(404);

    // A new logo replaces the old one in the bucket.
    const replaced = await putLogo(PNG);
    const next = replaced.json<{ data: { Logo: string } }>().data.Logo;
    expect(await s3.keys('group-logo/')).toEqual([next.slice('/uploads/'.length)]);
    expect((await t.call({ method: 'GET', url: logo })).statusCode).toBe(404);
  });

  it('leaves nothing in the bucket for an upload refused as too large or of the wrong kind', async () => {
    const keys = await added(async () => {
      const tooLarge = await putLogo(Buffer.concat([PNG, Buffer.alloc(GROUP_LOGO_LIMIT)]));
      expect(tooLarge.statusCode).toBe(413);
      const wrongKind = await putLogo(EXE);
      expect(wrongKind.statusCode).toBe(415);
    });
    expect(keys).toEqual([]);
  });

  it('keeps avatars in the bucket, never served at /uploads, read back through the user’s picture call', async () => {
    const keys = await added(async () => {
      const res = await t.call({ method: 'POST', url: '/api/user/Picture', token: u.operator, ...multipartFile(PNG, 'me.png') });
      expect(res.statusCode, res.body).toBeLessThan(300);
    });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^avatar\//);
    expect((await t.call({ method: 'GET', url: `/uploads/${keys[0] ?? ''}` })).statusCode).toBe(404);
    const me = await t.json<{ Id: number }>({ method: 'GET', url: '/api/user/myinfo', token: u.operator });
    const picture = await t.call({ method: 'GET', url: `/api/user/Picture/${String(me.data.Id)}`, token: u.admin });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload).toEqual(PNG);
  });

  it('streams a type’s 12 MB video into the bucket in parts and back out; a copy of the type copies it in the bucket', async () => {
    const type = await buildType(t.app.ctx.db, { groupId: 1 });
    const bytes = video(12 * 1024 * 1024);
    let url = '';
    const keys = await added(async () => {
      const res = await t.call({
        method: 'POST',
        url: `/api/type/${String(type.id)}/TypeImage`,
        token: u.admin,
        ...multipartFile(bytes, 'tour.mp4'),
      });
      expect(res.statusCode, res.body).toBe(201);
      url = res.json<{ data: { url: string } }>().data.url;
    });
    expect(keys).toEqual([url.slice('/uploads/'.length)]);
    expect(keys[0]).toMatch(/^type-images\/[0-9a-f]{32}\.mp4$/);
    const served = await t.call({ method: 'GET', url });
    expect(served.headers['content-type']).toBe('video/mp4');
    expect(sha256(served.rawPayload)).toBe(sha256(bytes));

    const copied = await added(async () => {
      const res = await t.call({ method: 'POST', url: '/api/1/Type/Copy', token: u.admin, payload: { SourceId: type.id } });
      expect(res.statusCode, res.body).toBeLessThan(300);
    });
    expect(copied).toHaveLength(1);
    expect(sha256((await t.call({ method: 'GET', url: `/uploads/${copied[0] ?? ''}` })).rawPayload)).toBe(sha256(bytes));
  });
});
