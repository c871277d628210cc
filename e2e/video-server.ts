/**
 * Cameras for tests, from this machine: a few seconds of ffmpeg's test pattern as an HLS stream
 * (kept in apps/server/demo-assets/test-pattern, which the demo's camera plays too; H.264 baseline in MPEG-TS, which Chromium plays through hls.js), served with CORS on
 * VIDEO_PORT under /live/index.m3u8, and a fake of the EZVIZ open platform on VIDEO_PORT + 1
 * whose live and playback addresses are that stream, and which answers the calls EZVIZ's web
 * player kit makes from the page. `node e2e/video-server.ts` runs them.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeEzviz, type FakeEzviz } from '../apps/server/test/fake-ezviz.ts';

export const E2E_EZVIZ = {
  appKey: 'e2e-app-key-0001',
  appSecret: 'e2e-app-secret-0001',
  serial: 'E2E000001',
  /** A camera the platform knows but says is offline (20007). */
  offlineSerial: 'E2E000002',
};

/**
 * 12 s of ffmpeg's test pattern, made once and kept in the repository so the tests need no ffmpeg:
 *   ffmpeg -f lavfi -i testsrc=size=320x180:rate=15 -t 12 -c:v libx264 -profile:v baseline
 *     -pix_fmt yuv420p -g 15 -f hls -hls_time 2 -hls_list_size 0 -hls_playlist_type vod
 *     -hls_segment_filename 'segment%d.m2ts' index.m3u8
 * (segments end in .m2ts, not .ts, so TypeScript tools leave them alone).
 */
const testPattern = fileURLToPath(new URL('../apps/server/demo-assets/test-pattern/', import.meta.url));

export interface VideoServer {
  /** The live stream's address. */
  streamUrl: string;
  ezviz: FakeEzviz;
  close: () => Promise<void>;
}

export async function startVideoServer(port = 0): Promise<VideoServer> {
  const server = http.createServer((request, response) => {
    const headers = { 'access-control-allow-origin': '*', 'cache-control': 'no-store' };
    const url = (request.url ?? '').split('?')[0] ?? '';
    if (url === '/health') {
      response.writeHead(200, { ...headers, 'content-type': 'text/plain' }).end('ok');
      return;
    }
    const file = /^\/live\/(index\.m3u8|segment\d+\.m2ts)$/.exec(url)?.[1];
    if (!file) {
      response.writeHead(404, headers).end();
      return;
    }
    const type = file.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t';
    response.writeHead(200, { ...headers, 'content-type': type }).end(readFileSync(path.join(testPattern, file)));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  const streamUrl = `http://127.0.0.1:${String(bound)}/live/index.m3u8`;
  const ezviz = await startFakeEzviz({
    appKey: E2E_EZVIZ.appKey,
    appSecret: E2E_EZVIZ.appSecret,
    port: port === 0 ? 0 : port + 1,
  });
  ezviz.streamUrl = () => streamUrl;
  // The EZVIZ camera recorded today from 01:00 to 03:00 and from 14:00 to 15:00 (local time).
  const day = new Date();
  day.setHours(0, 0, 0, 0);
  const at = (hour: number) => day.getTime() + hour * 3_600_000;
  ezviz.cameras.set(E2E_EZVIZ.serial, {
    segments: {
      '2': [
        { startTime: at(1), endTime: at(3) },
        { startTime: at(14), endTime: at(15) },
      ],
    },
  });
  ezviz.cameras.set(E2E_EZVIZ.offlineSerial, { online: false });
  return {
    streamUrl,
    ezviz,
    close: async () => {
      await ezviz.close();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      });
    },
  };
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const server = await startVideoServer(Number(process.env.VIDEO_PORT ?? 3212));
  console.log(`stream at ${server.streamUrl}, EZVIZ at ${server.ezviz.url}`);
}
