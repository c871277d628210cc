/**
 * The demo seed itself (DEMO on, as `npm start` runs): the one test file that starts from it.
 * Every other file builds the rows it needs (factories.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATION_KEYS } from '@sluice/shared/station-keys';
import { optionsOf, isDataType } from '@sluice/shared/data-types';
import { storedName } from '@sluice/shared/stored-names';
import { ADMIN, createTestApp, databaseKinds, type TestApp } from './harness.ts';
import { verifyDeviceSecret } from '../src/modules/devices/device-credentials.ts';
import { DEMO_OPERATOR } from '../src/seed/demo.ts';
import { demoDeviceSecret } from '../src/seed/demo-sites.ts';
import { DEMO_CAMERA, demoLivePlaylist } from '../src/seed/demo-video.ts';

describe.each(databaseKinds)('the demo on %s', (kind) => {
  let t: TestApp;
  let operator: string;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { DEMO: '1' });
    admin = await t.login(ADMIN.account, ADMIN.password);
    operator = await t.login(DEMO_OPERATOR.account, DEMO_OPERATOR.password);
  });
  afterAll(async () => {
    await t.close();
  });

  it('has a fleet of 18 devices with stable serial numbers and working demo credentials', async () => {
    const all = await t.json<{ DeviceSn: string }[]>({
      method: 'GET',
      url: '/api/1/Device/MyDevice?PageSize=100',
      token: operator,
    });
    expect(all.count).toBe(18);
    expect(all.data.map((d) => d.DeviceSn)).toContain('SL0000000101');
    expect(await verifyDeviceSecret(t.app.ctx.db, 'SL0000000101', demoDeviceSecret('SL0000000101'))).toBe(true);
    const overview = await t.json<{ Num: number; OnlineNum: number; OfflineNum: number; TypeData: { Num: number }[] }>({
      method: 'GET',
      url: '/api/1/Device/OverView',
      token: operator,
    });
    expect(overview.data).toMatchObject({ Num: 18, OnlineNum: 12, OfflineNum: 6 });
    expect(overview.data.TypeData.reduce((n, d) => n + d.Num, 0)).toBe(18);
  });

  it('links its warn codes to its data keys', async () => {
    const links = await t.json<{ DataKey: string; Code: string }[]>({
      method: 'GET',
      url: '/api/DataDefineWarnCode',
      token: admin,
    });
    expect(links.data).toEqual(
      expect.arrayContaining([{ Id: expect.any(Number) as number, DataKey: STATION_KEYS.codOut, Code: 'A201' }]),
    );
  });

  it('names its library in one language per field, each with its English name for English users', async () => {
    const db = t.app.ctx.db;
    const texts = [
      ...(await db.selectFrom('device_types').select(['type_name as text']).execute()),
      ...(await db.selectFrom('device_types').select(['description as text']).execute()),
      ...(await db.selectFrom('data_defines').select(['data_name as text']).execute()),
      ...(await db.selectFrom('data_categories').select(['name as text']).execute()),
      ...(await db.selectFrom('warn_types').select(['type_name as text']).execute()),
      ...(await db.selectFrom('warn_codes').select(['description as text']).execute()),
      ...(await db.selectFrom('type_modules').select(['module_name as text']).execute()),
      ...(await db.selectFrom('type_module_controls').select(['control_name as text']).execute()),
      ...(await db.selectFrom('type_classes').select(['name as text']).execute()),
      ...(await db.selectFrom('type_schemas').select(['name as text']).execute()),
      ...(await db.selectFrom('type_statistics').select(['name as text']).execute()),
      ...(await db.selectFrom('type_configs').select(['data_name as text']).execute()),
      ...(await db.selectFrom('template_panels').select(['panel_name as text']).execute()),
      ...(await db.selectFrom('template_accessories').select(['name as text']).execute()),
      ...(await db.selectFrom('device_panels').select(['panel_name as text']).execute()),
    ].map((r) => r.text);
    const defines = await db.selectFrom('data_defines').select(['data_type', 'format']).execute();
    for (const d of defines) if (isDataType(d.data_type)) texts.push(...optionsOf(d.data_type, d.format).map((o) => o.label));
    const chinese = texts.filter((text) => /\p{Script=Han}/u.test(text));
    expect(chinese.length).toBeGreaterThan(100);
    const bilingual = chinese.filter((text) => /\p{Script=Han}[^\p{Script=Han}]* [A-Z][a-z]+/u.test(text));
    expect(bilingual).toEqual([]);
    const untranslated = chinese.filter((text) => /\p{Script=Han}/u.test(storedName('en-US', text)));
    expect(untranslated).toEqual([]);
    expect(storedName('en-US', '提升泵')).toBe('Lift pump');
    expect(storedName('zh-CN', '提升泵')).toBe('提升泵');
  });

  it('has a camera that plays from the server itself: an endless live stream and a recording', async () => {
    const cameras = await t.json<{ Id: number; VideoName: string; Provider: string; Url: string }[]>({
      method: 'GET',
      url: '/api/1/SL0000000101/DeviceVideo',
      token: operator,
    });
    expect(cameras.data).toEqual([
      expect.objectContaining({ VideoName: DEMO_CAMERA.name, Provider: 'hls', Url: DEMO_CAMERA.url }),
    ]);
    // Its device's dashboard has a camera video panel (type 6), after the type's own.
    const panels = await t.json<{ PanelName: string; typeId: number; Sn: number }[]>({
      method: 'GET',
      url: '/api/GetDevicePanels?deviceSn=SL0000000101',
      token: operator,
    });
    const video = panels.data.filter((p) => p.typeId === 6);
    expect(video).toEqual([expect.objectContaining({ PanelName: '视频' })]);
    expect(Math.max(...panels.data.map((p) => p.Sn))).toBe(video[0]?.Sn);
    const camera = cameras.data[0]?.Id ?? 0;
    const live = await t.json<{ Url: string }>({
      method: 'GET',
      url: `/api/1/SL0000000101/DeviceVideo/${String(camera)}/Live`,
      token: operator,
    });
    const playlist = await t.app.inject({ method: 'GET', url: live.data.Url });
    expect(playlist.statusCode).toBe(200);
    expect(playlist.headers['content-type']).toContain('mpegurl');
    const segment = /^segment\d\.m2ts$/m.exec(playlist.body)?.[0] ?? '';
    const media = await t.app.inject({ method: 'GET', url: `/demo/video/${segment}` });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-type']).toBe('video/mp2t');
    expect(media.rawPayload.length).toBeGreaterThan(1000);
    expect((await t.app.inject({ method: 'GET', url: '/demo/video/segment6.m2ts' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/demo/video/..%2Fsrc%2Fapp.ts' })).statusCode).toBe(404);
    const playback = await t.json<{ Url: string }>({
      method: 'GET',
      url: `/api/1/SL0000000101/DeviceVideo/${String(camera)}/Playback?startTime=0&endTime=60000`,
      token: operator,
    });
    const recording = await t.app.inject({ method: 'GET', url: playback.data.Url });
    expect(recording.body).toContain('#EXT-X-ENDLIST');
  });
});

describe("the demo camera's live playlist", () => {
  it('plays the pattern over and over for ten minutes, each return to its start a discontinuity', () => {
    const playlist = demoLivePlaylist();
    const segments = playlist.split('\n').filter((line) => line.endsWith('.m2ts'));
    expect(segments).toHaveLength(300);
    expect(segments.slice(0, 7)).toEqual([0, 1, 2, 3, 4, 5, 0].map((n) => `segment${String(n)}.m2ts`));
    expect(playlist.match(/#EXT-X-DISCONTINUITY\n#EXTINF:2.000000,\nsegment0.m2ts/g)).toHaveLength(49);
    expect(playlist.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
  });
});
