/**
 * The demo's camera (DEMO on): a generic HLS camera on the first demo station whose stream the
 * server itself serves, so that `npm start` shows video without the internet. The stream is the
 * 12 s test pattern kept in demo-assets/test-pattern (H.264 baseline in MPEG-TS, made once with
 * ffmpeg; the e2e video server serves the same files), played over and over as its live
 * stream; its playback address serves the pattern once, as a recording. Same origin, so the
 * page's CSP ('self') lets it in.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';

const ASSETS = fileURLToPath(new URL('../../demo-assets/test-pattern/', import.meta.url));
/** The pattern's segments and their length (seconds), as in its index.m3u8. */
const SEGMENTS = 6;
const SEGMENT_SECONDS = 2;
/** How many times the live address plays the pattern: ten minutes. */
const LIVE_REPEATS = 50;

export const DEMO_VIDEO_PATH = '/demo/video';
export const DEMO_CAMERA = {
  name: '青山一站 进水口',
  url: `${DEMO_VIDEO_PATH}/live.m3u8`,
  playbackUrl: `${DEMO_VIDEO_PATH}/playback.m3u8?start={start}&end={end}`,
};

/**
 * The "live" playlist: the pattern over and over for ten minutes, each return to its start a
 * discontinuity (players reset their timestamps there). A complete playlist rather than one
 * sliding with the clock, so that a slow machine's player cannot fall out of the window.
 */
export function demoLivePlaylist(): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${String(SEGMENT_SECONDS)}`, '#EXT-X-PLAYLIST-TYPE:VOD'];
  for (let round = 0; round < LIVE_REPEATS; round += 1) {
    if (round > 0) lines.push('#EXT-X-DISCONTINUITY');
    for (let n = 0; n < SEGMENTS; n += 1) lines.push(`#EXTINF:${SEGMENT_SECONDS.toFixed(6)},`, `segment${String(n)}.m2ts`);
  }
  lines.push('#EXT-X-ENDLIST');
  return `${lines.join('\n')}\n`;
}

export function demoVideoRoutes(app: FastifyInstance): void {
  const files = new Map<string, Buffer>();
  const file = (name: string) => {
    let body = files.get(name);
    if (!body) {
      body = readFileSync(path.join(ASSETS, name));
      files.set(name, body);
    }
    return body;
  };
  const playlist = 'application/vnd.apple.mpegurl';
  const route = { config: { access: 'public' as const }, schema: { hide: true } };
  app.get(`${DEMO_VIDEO_PATH}/live.m3u8`, route, (_request, reply) =>
    reply.header('content-type', playlist).header('cache-control', 'no-store').send(demoLivePlaylist()),
  );
  app.get(`${DEMO_VIDEO_PATH}/playback.m3u8`, route, (_request, reply) =>
    reply.header('content-type', playlist).header('cache-control', 'no-store').send(file('index.m3u8')),
  );
  app.get<{ Params: { file: string } }>(`${DEMO_VIDEO_PATH}/:file`, route, (request, reply) => {
    const n = Number(/^segment(\d)\.m2ts$/.exec(request.params.file)?.[1] ?? NaN);
    if (!(n < SEGMENTS)) return reply.status(404).send({ success: false, message: 'Not found', data: null });
    return reply
      .header('content-type', 'video/mp2t')
      .header('cache-control', 'public, max-age=86400')
      .send(file(`segment${String(n)}.m2ts`));
  });
}

/**
 * The demo camera on a device of the group (the first demo station's first device), and a camera
 * video panel (type 6) on that device's dashboard, after its type's panels.
 */
export async function seedDemoCamera(db: Db, groupId: number, deviceSn: string): Promise<void> {
  const last = await db
    .selectFrom('device_panels')
    .select((eb) => eb.fn.max('sn').as('sn'))
    .where('group_id', '=', groupId)
    .where('device_sn', '=', deviceSn)
    .executeTakeFirst();
  await db
    .insertInto('device_panels')
    .values({
      group_id: groupId,
      device_sn: deviceSn,
      panel_name: '视频',
      type_id: 6,
      sn: (last?.sn ?? 0) + 1,
      from_type: 0,
    })
    .execute();
  await db
    .insertInto('device_videos')
    .values({
      group_id: groupId,
      device_sn: deviceSn,
      video_name: DEMO_CAMERA.name,
      provider: 'hls',
      url: DEMO_CAMERA.url,
      playback_url: DEMO_CAMERA.playbackUrl,
      expire_time: null,
    })
    .execute();
}
