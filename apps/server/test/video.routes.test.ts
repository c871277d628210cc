/**
 * A device's cameras ({kind}/{deviceSn}/DeviceVideo, PUT DeviceVideo, DELETE DeviceVideo/{id})
 * and playing them: the EZVIZ adapter against a local fake of the platform's API (token cached
 * until it expires, renewed when the platform says it expired, its errors worded for the user)
 * and the generic HLS stream. Secrets never travel back; tokens reach only those who see the
 * device; refused calls change nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeviceVideoDto, RecordingSegmentDto, VideoStreamDto, VideoTokenDto } from '@sluice/shared/video.schema';
import { ADMIN, createTestApp, databaseKinds, fieldsOf, type TestApp, type Users } from './harness.ts';
import { buildDevice, buildProject, buildUser, defaultRole } from './factories.ts';
import { startFakeEzviz, type FakeEzviz } from './fake-ezviz.ts';

const APP_KEY = 'fake-app-key-0001';
const APP_SECRET = 'fake-app-secret-0001';

describe.each(databaseKinds)('cameras on %s', (kind) => {
  let t: TestApp;
  let users: Users;
  let ezviz: FakeEzviz;
  let g: number;
  let sn: string;
  /** A device in a project the operator's role is not granted. */
  let hiddenSn: string;
  let outsider: string;

  beforeAll(async () => {
    ezviz = await startFakeEzviz({ appKey: APP_KEY, appSecret: APP_SECRET });
    // The platform's wall clock is UTC+8, as a Chinese deployment's.
    t = await createTestApp(kind, { EZVIZ_API_URL: ezviz.url, UTC_OFFSET: '+08:00' });
    users = await t.signInUsers();
    const db = t.app.ctx.db;
    g = (await db.selectFrom('users').select('group_id').where('account', '=', ADMIN.account).executeTakeFirstOrThrow()).group_id;
    const operatorRole = await defaultRole(db, g, 'Operator');
    const project = await buildProject(db, { groupId: g, roles: [{ roleId: operatorRole }] });
    const ctx = { db, deviceEvents: t.app.ctx.deviceEvents };
    sn = (await buildDevice(ctx, { groupId: g, projectId: project })).sn;
    hiddenSn = (await buildDevice(ctx, { groupId: g, projectId: await buildProject(db, { groupId: g }) })).sn;
    await buildUser(db, { groupId: g, account: 'watcher01', password: 'Watcher123', roles: ['Operator'] });
    outsider = await t.login('watcher01', 'Watcher123');
  });

  afterAll(async () => {
    await t.close();
    await ezviz.close();
  });

  beforeEach(() => {
    ezviz.calls.length = 0;
    ezviz.tokenLifeMs = 7 * 24 * 3600 * 1000;
  });

  const list = (device = sn, group: number | string = g) => `/api/${String(group)}/${device}/DeviceVideo`;
  const ezvizCamera = {
    VideoName: 'Inlet camera',
    Provider: 'ezviz',
    VideoSn: 'E12345678',
    Channel: 1,
    Appkey: APP_KEY,
    Secret: APP_SECRET,
  };
  const hlsCamera = { VideoName: 'Yard stream', Provider: 'hls', Url: 'http://127.0.0.1:9/live/yard.m3u8' };

  const add = async (payload: Record<string, unknown>, device = sn) => {
    const res = await t.call({ method: 'POST', url: list(device), token: users.admin, payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ data: DeviceVideoDto }>().data;
  };
  const tokenGets = () => ezviz.calls.filter((c) => c.path === '/api/lapp/token/get').length;
  const camera = (id: number, what: string, device = sn) => `${list(device)}/${String(id)}/${what}`;

  it('adds, lists with the secrets masked, edits keeping the secrets, and deletes a camera', async () => {
    const created = await add({ ...ezvizCamera, SecurityCode: 'ABCDEF' });
    expect(created).toMatchObject({
      DeviceSn: sn,
      VideoName: 'Inlet camera',
      Provider: 'ezviz',
      VideoSn: 'E12345678',
      Channel: 1,
    });
    const listed = await t.call({ method: 'GET', url: list(), token: users.operator });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(APP_SECRET);
    expect(listed.body).not.toContain(APP_KEY);
    expect(listed.body).not.toContain('ABCDEF');
    const [row] = listed.json<{ data: DeviceVideoDto[] }>().data;
    expect(row?.Secret).toMatch(/^•+$/);
    expect(row?.Appkey).toMatch(/^•+0001$/);
    expect(row?.SecurityCode).toMatch(/^•+$/);
    // The stored secrets are sealed, not the plain text.
    const stored = await t.app.ctx.db
      .selectFrom('device_videos')
      .selectAll()
      .where('id', '=', created.Id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^v1:/);
    expect(stored.secret).not.toContain(APP_SECRET);

    // Sending the masks back keeps the secrets: the camera still gets a token.
    const edited = await t.call({
      method: 'PUT',
      url: '/api/DeviceVideo',
      token: users.admin,
      payload: { ...row, Id: created.Id, VideoName: 'Inlet camera 2' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const token = await t.json<VideoTokenDto>({ method: 'GET', url: camera(created.Id, 'Token'), token: users.operator });
    expect(token.data.AccessToken).toMatch(/^at\.fake-/);

    expect(
      (await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(created.Id)}`, token: users.admin })).statusCode,
    ).toBe(200);
    expect((await t.json<DeviceVideoDto[]>({ method: 'GET', url: list(), token: users.admin })).data).toEqual([]);
  });

  it('names the missing or bad field in the caller’s language and stores nothing', async () => {
    const post = (payload: Record<string, unknown>, lang = 'en-US') =>
      t.call({ method: 'POST', url: list(), token: users.admin, payload, lang });
    const noSecret = await post({ ...ezvizCamera, Secret: '' });
    expect(noSecret.statusCode).toBe(400);
    expect(fieldsOf(noSecret)).toEqual(['Secret']);
    const noSerial = await post({ ...ezvizCamera, VideoSn: '' }, 'zh-CN');
    expect(fieldsOf(noSerial)).toEqual(['VideoSn']);
    expect(noSerial.body).toContain('必填');
    const badUrl = await post({ ...hlsCamera, Url: 'rtsp://camera/stream' });
    expect(fieldsOf(badUrl)).toEqual(['Url']);
    // A path is on this server (the demo's camera); a protocol-relative address is not a path.
    expect(fieldsOf(await post({ ...hlsCamera, Url: '//elsewhere.example/live.m3u8' }))).toEqual(['Url']);
    const badTemplate = await post({ ...hlsCamera, PlaybackUrl: 'http://127.0.0.1/vod.m3u8?from={start}' });
    expect(fieldsOf(badTemplate)).toEqual(['PlaybackUrl']);
    expect(badTemplate.body).toContain('{end}');
    expect(fieldsOf(await post({ ...hlsCamera, Channel: 0 }))).toEqual(['Channel']);
    // An EZVIZ camera's address is for its web player kit: ezopen:// only.
    const notEzopen = await post({ ...ezvizCamera, Url: 'https://open.ys7.com/live.m3u8' }, 'zh-CN');
    expect(fieldsOf(notEzopen)).toEqual(['Url']);
    expect(notEzopen.body).toContain('ezopen://');
    expect((await t.json<DeviceVideoDto[]>({ method: 'GET', url: list(), token: users.admin })).data).toEqual([]);
    const ezopen = await add({ ...ezvizCamera, Url: 'ezopen://open.ys7.com/E1/1.live' });
    expect(ezopen.Url).toBe('ezopen://open.ys7.com/E1/1.live');
    await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(ezopen.Id)}`, token: users.admin });
  });

  it('refuses callers who may not reach the device or may not manage devices', async () => {
    const created = await add(hlsCamera);
    // The operator sees the device but does not manage devices.
    expect((await t.call({ method: 'POST', url: list(), token: users.operator, payload: hlsCamera })).statusCode).toBe(403);
    expect(
      (await t.call({ method: 'PUT', url: '/api/DeviceVideo', token: users.operator, payload: { ...hlsCamera, Id: created.Id } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(created.Id)}`, token: users.operator })).statusCode,
    ).toBe(403);
    // Another tenant: neither by its own group in the path nor by ours.
    expect((await t.call({ method: 'GET', url: list(sn, users.other.groupId), token: users.otherAdmin })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: list(), token: users.otherAdmin })).statusCode).toBe(403);
    expect(
      (await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(created.Id)}`, token: users.otherAdmin })).statusCode,
    ).toBe(404);
    expect((await t.call({ method: 'GET', url: camera(created.Id, 'Live'), token: users.otherAdmin })).statusCode).toBe(403);
    expect((await t.call({ method: 'GET', url: list() })).statusCode).toBe(401);
    expect((await t.call({ method: 'POST', url: list('NOSUCHDEVICE'), token: users.admin, payload: hlsCamera })).statusCode).toBe(
      404,
    );
    expect((await t.json<DeviceVideoDto[]>({ method: 'GET', url: list(), token: users.admin })).data).toHaveLength(1);
    await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(created.Id)}`, token: users.admin });
  });

  it('gives a camera’s token only to those who see its device', async () => {
    const hidden = await add(ezvizCamera, hiddenSn);
    const visible = await add(ezvizCamera);
    // The operator's role is not granted the hidden device's project.
    expect((await t.call({ method: 'GET', url: list(hiddenSn), token: users.operator })).statusCode).toBe(404);
    for (const url of [camera(hidden.Id, 'Token', hiddenSn), camera(hidden.Id, 'Live', hiddenSn)]) {
      const res = await t.call({ method: 'GET', url, token: users.operator });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('at.fake');
    }
    expect(
      (await t.call({ method: 'PUT', url: `/api/DeviceVideo/Refresh/${String(hidden.Id)}`, token: users.operator })).statusCode,
    ).toBe(404);
    // Another device's path does not reach the camera either.
    expect((await t.call({ method: 'GET', url: camera(hidden.Id, 'Token', sn), token: users.operator })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: camera(visible.Id, 'Token'), token: outsider })).statusCode).toBe(200);
    expect(tokenGets()).toBe(1);
    for (const id of [hidden.Id, visible.Id])
      await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(id)}`, token: users.admin });
  });

  it('caches the EZVIZ token until it expires, renews it on Refresh and when the platform says it expired', async () => {
    const { Id } = await add(ezvizCamera);
    const first = await t.json<VideoTokenDto>({ method: 'GET', url: camera(Id, 'Token'), token: users.operator });
    const again = await t.json<VideoTokenDto>({ method: 'GET', url: camera(Id, 'Token'), token: users.operator });
    expect(again.data).toEqual(first.data);
    expect(first.data.ExpireTime).toBeGreaterThan(Date.now());
    expect(tokenGets()).toBe(1);

    const refreshed = await t.json<{ accessToken: string; expireTime: number }>({
      method: 'PUT',
      url: `/api/DeviceVideo/Refresh/${String(Id)}`,
      token: users.operator,
    });
    expect(refreshed.data.accessToken).not.toBe(first.data.AccessToken);
    expect(tokenGets()).toBe(2);

    // A token about to expire is not handed out: a new one is fetched.
    ezviz.tokenLifeMs = 1000;
    await t.call({ method: 'PUT', url: `/api/DeviceVideo/Refresh/${String(Id)}`, token: users.operator });
    ezviz.tokenLifeMs = 7 * 24 * 3600 * 1000;
    const renewed = await t.json<VideoTokenDto>({ method: 'GET', url: camera(Id, 'Token'), token: users.operator });
    expect(tokenGets()).toBe(4);

    // The platform revokes tokens early (10002): the live call renews once and succeeds.
    ezviz.cameras.set('E12345678', {});
    ezviz.expireTokens();
    const live = await t.call({ method: 'GET', url: camera(Id, 'Live'), token: users.operator });
    expect(live.statusCode, live.body).toBe(200);
    expect(live.json<{ data: VideoStreamDto }>().data.Url).toBe('https://hls.example.test/E12345678/1/index.m3u8');
    expect(tokenGets()).toBe(5);
    const addressCalls = ezviz.calls.filter((c) => c.path === '/api/lapp/v2/live/address/get');
    expect(addressCalls.map((c) => c.form.accessToken)).toEqual([renewed.data.AccessToken, expect.stringMatching(/^at\.fake-/)]);
    expect(addressCalls[1]?.form).toMatchObject({ deviceSerial: 'E12345678', channelNo: '1', protocol: '2', type: '1' });
    await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(Id)}`, token: users.admin });
  });

  it('words the platform’s errors for the user', async () => {
    const wrong = await add({ ...ezvizCamera, Secret: 'not-the-secret' });
    const refused = await t.call({ method: 'GET', url: camera(wrong.Id, 'Token'), token: users.admin, lang: 'zh-CN' });
    expect(refused.statusCode).toBe(502);
    expect(refused.json<{ message: string }>().message).toContain('AppKey');

    const right = await add({ ...ezvizCamera, VideoSn: 'E00000OFF' });
    ezviz.cameras.set('E00000OFF', { online: false });
    const offline = await t.call({ method: 'GET', url: camera(right.Id, 'Live'), token: users.admin });
    expect(offline.statusCode).toBe(409);
    expect(offline.json<{ message: string }>().message).toBe('The camera is offline');

    const unknown = await add({ ...ezvizCamera, VideoSn: 'E0NOSUCH0' });
    const missing = await t.call({ method: 'GET', url: camera(unknown.Id, 'Live'), token: users.admin });
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ message: string }>().message).toContain('E0NOSUCH0');

    ezviz.cameras.set('E0LOCKED0', { code: 'QWERTY' });
    const locked = await add({ ...ezvizCamera, VideoSn: 'E0LOCKED0' });
    const encrypted = await t.call({ method: 'GET', url: camera(locked.Id, 'Live'), token: users.admin });
    expect(encrypted.statusCode).toBe(409);
    expect(encrypted.json<{ message: string }>().message).toContain('verification code');
    await t.call({
      method: 'PUT',
      url: '/api/DeviceVideo',
      token: users.admin,
      payload: { ...ezvizCamera, Id: locked.Id, VideoSn: 'E0LOCKED0', SecurityCode: 'QWERTY', Appkey: '', Secret: '' },
    });
    expect((await t.call({ method: 'GET', url: camera(locked.Id, 'Live'), token: users.admin })).statusCode).toBe(200);
    for (const id of [wrong.Id, right.Id, unknown.Id, locked.Id])
      await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(id)}`, token: users.admin });
  });

  it('queries an EZVIZ camera’s recorded segments and plays back from a point', async () => {
    const day = Date.UTC(2026, 10, 25, -8); // 2026-11-25 00:00 at UTC+8
    const hour = 3600_000;
    ezviz.cameras.set('E12345678', {
      segments: {
        '2': [
          { startTime: day - hour, endTime: day + hour },
          { startTime: day + 5 * hour, endTime: day + 6 * hour },
        ],
        '1': [{ startTime: day + 10 * hour, endTime: day + 11 * hour }],
      },
    });
    const { Id } = await add(ezvizCamera);
    const range = (from: number, to: number, recType = 'card') =>
      `?startTime=${String(from)}&endTime=${String(to)}&recType=${recType}`;
    const card = await t.json<RecordingSegmentDto[]>({
      method: 'GET',
      url: camera(Id, 'Records') + range(day, day + 24 * hour - 1000),
      token: users.operator,
    });
    expect(card.data).toEqual([
      { StartTime: day, EndTime: day + hour },
      { StartTime: day + 5 * hour, EndTime: day + 6 * hour },
    ]);
    expect(ezviz.calls.at(-1)?.form).toMatchObject({
      recType: '2',
      startTime: String(day),
      channelNo: '1',
      deviceSerial: 'E12345678',
    });
    const cloud = await t.json<RecordingSegmentDto[]>({
      method: 'GET',
      url: camera(Id, 'Records') + range(day, day + 24 * hour - 1000, 'cloud'),
      token: users.operator,
    });
    expect(cloud.data).toEqual([{ StartTime: day + 10 * hour, EndTime: day + 11 * hour }]);
    const none = await t.json<RecordingSegmentDto[]>({
      method: 'GET',
      url: camera(Id, 'Records') + range(day + 2 * hour, day + 3 * hour),
      token: users.operator,
    });
    expect(none.data).toEqual([]);

    const playback = await t.json<VideoStreamDto>({
      method: 'GET',
      url: camera(Id, 'Playback') + range(day + 5 * hour + 90_000, day + 6 * hour),
      token: users.operator,
    });
    expect(playback.data.Url).toBe('https://hls.example.test/E12345678/2/index.m3u8');
    expect(ezviz.calls.at(-1)?.form).toMatchObject({
      type: '2',
      protocol: '2',
      startTime: '2026-11-25 05:01:30',
      stopTime: '2026-11-25 06:00:00',
    });

    const backwards = await t.call({ method: 'GET', url: camera(Id, 'Records') + range(day + hour, day), token: users.operator });
    expect(backwards.statusCode).toBe(400);
    expect(fieldsOf(backwards)).toEqual(['startTime']);
    const tooLong = await t.call({
      method: 'GET',
      url: camera(Id, 'Records') + range(day, day + 72 * hour),
      token: users.operator,
      lang: 'zh-CN',
    });
    expect(fieldsOf(tooLong)).toEqual(['endTime']);
    expect(tooLong.body).toContain('48 小时');
    await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(Id)}`, token: users.admin });
  });

  it('plays a generic stream directly, with playback only when it has a playback address', async () => {
    const plain = await add(hlsCamera);
    expect((await t.json<VideoStreamDto>({ method: 'GET', url: camera(plain.Id, 'Live'), token: users.operator })).data).toEqual({
      Url: hlsCamera.Url,
      ExpireTime: null,
    });
    expect((await t.call({ method: 'GET', url: camera(plain.Id, 'Token'), token: users.operator })).statusCode).toBe(409);
    const q = '?startTime=1000&endTime=5000';
    expect((await t.call({ method: 'GET', url: camera(plain.Id, 'Records') + q, token: users.operator })).statusCode).toBe(409);
    const vod = await add({ ...hlsCamera, PlaybackUrl: 'http://127.0.0.1:9/vod.m3u8?from={start}&to={end}' });
    expect(
      (await t.json<RecordingSegmentDto[]>({ method: 'GET', url: camera(vod.Id, 'Records') + q, token: users.operator })).data,
    ).toEqual([{ StartTime: 1000, EndTime: 5000 }]);
    expect(
      (await t.json<VideoStreamDto>({ method: 'GET', url: camera(vod.Id, 'Playback') + q, token: users.operator })).data.Url,
    ).toBe('http://127.0.0.1:9/vod.m3u8?from=1000&to=5000');
    // A stream on the console's own server is given by its path.
    const local = await add({ ...hlsCamera, Url: '/demo/video/live.m3u8' });
    expect((await t.json<VideoStreamDto>({ method: 'GET', url: camera(local.Id, 'Live'), token: users.operator })).data.Url).toBe(
      '/demo/video/live.m3u8',
    );
    expect(ezviz.calls).toEqual([]);
    for (const id of [plain.Id, vod.Id, local.Id])
      await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(id)}`, token: users.admin });
  });

  it('says so when the platform cannot be reached', async () => {
    const { Id } = await add(ezvizCamera);
    const url = ezviz.url;
    await ezviz.close();
    const res = await t.call({ method: 'GET', url: camera(Id, 'Live'), token: users.operator, lang: 'zh-CN' });
    expect(res.statusCode).toBe(502);
    expect(res.json<{ message: string }>().message).toBe('无法连接视频平台，请稍后再试');
    // Up again on the same address for the tests after this one.
    ezviz = await startFakeEzviz({ appKey: APP_KEY, appSecret: APP_SECRET, port: Number(new URL(url).port) });
    await t.call({ method: 'DELETE', url: `/api/DeviceVideo/${String(Id)}`, token: users.admin });
  });
});
