/**
 * A local stand-in for the EZVIZ open platform's HTTP API (form POSTs answering
 * { code, msg, data }): token/get, v2/live/address/get and video/by/time, with the codes the
 * real one gives (10002 token expired, 10030 key and secret mismatch, 20002 no such device,
 * 20007 offline, 60019 encrypted, 10001 bad parameter). Tests and the e2e video server start it;
 * nothing reaches the internet.
 *
 * It also answers the call EZVIZ's web player kit (ezuikit-js 9.0.22) makes from the page to
 * play an ezopen:// address: POST /api/lapp/live/url/ezopen (multipart: accessToken, ezopen, …)
 * with the stream server's WebSocket address and a stream token, in the shape the kit's code
 * reads ({ data: url, ext: { token } }). Its stream protocol is EZVIZ's own and is not faked:
 * nothing listens at that address, so the kit reports that the stream could not be opened.
 * Every answer allows any origin (the kit calls from the console's page); the kit's other
 * calls (definitions, channels, voice, alarms, cloud storage) are answered 404, which it
 * treats as 'none'.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeCamera {
  online?: boolean;
  /** Its verification code; when set, addresses need it. */
  code?: string;
  /** Recorded segments (epoch ms) of each recType ('1' cloud, '2' card). */
  segments?: Record<string, { startTime: number; endTime: number }[]>;
}

export interface FakeEzviz {
  url: string;
  /** Each call: its path and form. */
  calls: { path: string; form: Record<string, string> }[];
  cameras: Map<string, FakeCamera>;
  /** How long a new token lives (ms). */
  tokenLifeMs: number;
  /** Makes every token issued so far answer 10002, as when the platform revokes them early. */
  expireTokens(): void;
  /** The address given for a stream: live (type 1) or playback (2, 3) with its times. */
  streamUrl: (form: Record<string, string>) => string;
  close(): Promise<void>;
}

/** The text fields of a multipart/form-data body (the kit sends nothing else). */
function multipartFields(body: string, boundary: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of body.split(`--${boundary}`)) {
    const match = /^\r\nContent-Disposition: form-data; name="([^"]+)"\r\n\r\n([\s\S]*)\r\n$/i.exec(part);
    if (match?.[1] !== undefined) fields[match[1]] = match[2] ?? '';
  }
  return fields;
}

export async function startFakeEzviz(options: { appKey: string; appSecret: string; port?: number }): Promise<FakeEzviz> {
  const valid = new Set<string>();
  let issued = 0;
  const fake: FakeEzviz = {
    url: '',
    calls: [],
    cameras: new Map(),
    tokenLifeMs: 7 * 24 * 3600 * 1000,
    expireTokens: () => {
      valid.clear();
    },
    streamUrl: (form) => `https://hls.example.test/${form.deviceSerial ?? ''}/${form.type ?? '1'}/index.m3u8`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };

  const answer = (code: string, msg: string, data: unknown = null) => ({ code, msg, data });

  /** The kit's ezopen:// address → the stream server's address (ezopen://open.ys7.com/{serial}/{channel}.live…). */
  const ezopenAddress = (form: Record<string, string>) => {
    const match = /^ezopen:\/\/[^/]+\/([^/]+)\/(\d+)\.([a-z.]+)/i.exec(form.ezopen ?? '');
    if (!match) return answer('10001', '参数错误');
    const [, serial = '', channel = '', kind = ''] = match;
    const camera = fake.cameras.get(serial);
    if (!camera) return answer('20002', '设备不存在');
    if (camera.online === false) return answer('20007', '设备不在线');
    const stream = `${fake.url.replace(/^http/, 'ws')}/ezopen/${kind.includes('rec') ? 'playback' : 'live'}?dev=${serial}&chn=${channel}`;
    return { code: '200', msg: '操作成功!', data: stream, ext: { token: `st.fake-${serial}` } };
  };

  const handle = (path: string, form: Record<string, string>) => {
    if (path === '/api/lapp/token/get') {
      if (form.appKey !== options.appKey) return answer('10017', 'appKey不存在');
      if (form.appSecret !== options.appSecret) return answer('10030', 'appKey和appSecret不匹配');
      issued += 1;
      const accessToken = `at.fake-${String(issued)}`;
      valid.add(accessToken);
      return answer('200', '操作成功!', { accessToken, expireTime: Date.now() + fake.tokenLifeMs });
    }
    if (!form.accessToken || !valid.has(form.accessToken)) return answer('10002', 'accessToken过期或异常');
    if (path === '/api/lapp/live/url/ezopen') return ezopenAddress(form);
    const camera = fake.cameras.get(form.deviceSerial ?? '');
    if (!camera) return answer('20002', '设备不存在');
    if (camera.online === false) return answer('20007', '设备不在线');
    if (path === '/api/lapp/v2/live/address/get') {
      if (form.protocol !== '2') return answer('10001', '参数错误');
      if (camera.code && form.code !== camera.code) return answer('60019', '设备已被加密，无法继续查看');
      return answer('200', '操作成功!', { id: 'fake', url: fake.streamUrl(form), expireTime: '2030-01-01 00:00:00' });
    }
    if (path === '/api/lapp/video/by/time') {
      const [start, end] = [Number(form.startTime), Number(form.endTime)];
      if (!Number.isFinite(start) || !Number.isFinite(end) || !['1', '2'].includes(form.recType ?? ''))
        return answer('10001', '参数错误');
      const found = (camera.segments?.[form.recType ?? ''] ?? []).filter((s) => s.endTime > start && s.startTime < end);
      return answer('200', '操作成功!', found.length ? found.map((s) => ({ ...s, recType: Number(form.recType) })) : null);
    }
    return undefined;
  };

  const server = http.createServer((request, response) => {
    // EZVIZ's player kit calls the platform from the page: every answer allows any origin.
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'GET, POST',
    };
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
    });
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://fake.invalid');
      if (request.method === 'OPTIONS') {
        response.writeHead(204, cors).end();
        return;
      }
      if (request.method !== 'POST' && request.method !== 'GET') {
        response.writeHead(405, cors).end();
        return;
      }
      // The server posts forms URL-encoded, the kit as multipart FormData, some with the query.
      const form: Record<string, string> = Object.fromEntries(url.searchParams);
      const type = request.headers['content-type'] ?? '';
      const body = Buffer.concat(chunks).toString('utf8');
      if (type.includes('urlencoded')) Object.assign(form, Object.fromEntries(new URLSearchParams(body)));
      const boundary = /boundary=(.+)$/.exec(type)?.[1];
      if (boundary) Object.assign(form, multipartFields(body, boundary));
      fake.calls.push({ path: url.pathname, form });
      const result = handle(url.pathname, form);
      const json = { ...cors, 'content-type': 'application/json' };
      if (!result) {
        response.writeHead(404, json).end(JSON.stringify(answer('404', 'not found')));
        return;
      }
      response.writeHead(200, json).end(JSON.stringify(result));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return fake;
}
