/**
 * The EZVIZ open platform (open.ys7.com, EZVIZ_API_URL): form POSTs answering
 * { code, msg, data } with code '200' for success.
 *  - /api/lapp/token/get (appKey, appSecret) → data { accessToken, expireTime (epoch ms) }
 *  - /api/lapp/v2/live/address/get (accessToken, deviceSerial, channelNo, protocol 2 = HLS,
 *    type 1 live / 2 card playback / 3 cloud playback, startTime and stopTime as
 *    'yyyy-MM-dd HH:mm:ss', code = the verification code) → data { url, expireTime }
 *  - /api/lapp/video/by/time (accessToken, deviceSerial, channelNo, startTime and endTime in ms,
 *    recType 1 cloud / 2 card) → data [{ startTime, endTime }] or null
 * Error codes the console words: 10002 token expired, 10005/10017/10030 app key or secret,
 * 20001/20002 no such camera, 20007 offline, 20018 not the account's, 60019 encrypted.
 */
import type { RecordingType } from '@sluice/shared/video.schema';
import { clipSegments, VideoProviderError, type Camera, type ProviderFailure, type VideoAdapter } from './video-adapter.ts';

const TIMEOUT_MS = 10_000;

const FAILURES: Record<string, ProviderFailure> = {
  '10002': 'tokenExpired',
  '10005': 'badCredentials',
  '10017': 'badCredentials',
  '10030': 'badCredentials',
  '20001': 'cameraUnknown',
  '20002': 'cameraUnknown',
  '20007': 'cameraOffline',
  '20018': 'notOwned',
  '60019': 'encrypted',
};

/** EZVIZ's recType of a playback type. */
const REC_TYPE: Record<RecordingType, string> = { cloud: '1', card: '2' };
/** EZVIZ's address type of a playback type. */
const ADDRESS_TYPE: Record<RecordingType, string> = { cloud: '3', card: '2' };

const record = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const millis = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};

export class EzvizAdapter implements VideoAdapter {
  readonly usesToken = true;
  private readonly baseUrl: string;
  private readonly offsetMinutes: number;

  /** `offsetMinutes`: the platform's wall clock (addresses take local times). */
  constructor(baseUrl: string, offsetMinutes: number) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.offsetMinutes = offsetMinutes;
  }

  private async post(path: string, form: Record<string, string>): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new VideoProviderError('unreachable');
    }
    let answer: Record<string, unknown>;
    try {
      answer = record(await response.json());
    } catch {
      throw new VideoProviderError('other', `HTTP ${String(response.status)}`);
    }
    const code = text(answer.code);
    if (code !== '200') throw new VideoProviderError(FAILURES[code] ?? 'other', text(answer.msg) || `code ${code}`);
    return answer.data;
  }

  /** 'yyyy-MM-dd HH:mm:ss' on the platform's clock. */
  private wallClock(ms: number): string {
    return new Date(ms + this.offsetMinutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');
  }

  private fromWallClock(value: unknown): number | null {
    const n = millis(value);
    if (n !== null) return n;
    const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text(value));
    if (!m) return null;
    const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
    return Date.UTC(y, mo - 1, d, h, mi, s) - this.offsetMinutes * 60_000;
  }

  private cameraForm(camera: Camera, accessToken: string): Record<string, string> {
    return { accessToken, deviceSerial: camera.serial, channelNo: String(camera.channel) };
  }

  fetchToken: NonNullable<VideoAdapter['fetchToken']> = async (camera) => {
    const data = record(await this.post('/api/lapp/token/get', { appKey: camera.appKey, appSecret: camera.appSecret }));
    const accessToken = text(data.accessToken);
    const expireTime = millis(data.expireTime);
    if (!accessToken || expireTime === null) throw new VideoProviderError('other', 'no accessToken in the answer');
    return { accessToken, expireTime };
  };

  private async address(camera: Camera, token: string, extra: Record<string, string>) {
    const form = { ...this.cameraForm(camera, token), protocol: '2', ...extra };
    const data = record(
      await this.post(
        '/api/lapp/v2/live/address/get',
        camera.verificationCode ? { ...form, code: camera.verificationCode } : form,
      ),
    );
    const url = text(data.url);
    if (!url) throw new VideoProviderError('other', 'no url in the answer');
    return { Url: url, ExpireTime: this.fromWallClock(data.expireTime) };
  }

  live: VideoAdapter['live'] = async (camera, token) => this.address(camera, await token(), { type: '1' });

  recordings: VideoAdapter['recordings'] = async (camera, query, token) => {
    const data = await this.post('/api/lapp/video/by/time', {
      ...this.cameraForm(camera, await token()),
      startTime: String(query.startTime),
      endTime: String(query.endTime),
      recType: REC_TYPE[query.recType],
    });
    const segments = (Array.isArray(data) ? data : []).flatMap((item) => {
      const s = record(item);
      const [start, end] = [millis(s.startTime), millis(s.endTime)];
      return start === null || end === null ? [] : [{ StartTime: start, EndTime: end }];
    });
    return clipSegments(segments, query.startTime, query.endTime);
  };

  playback: VideoAdapter['playback'] = async (camera, query, token) =>
    this.address(camera, await token(), {
      type: ADDRESS_TYPE[query.recType],
      startTime: this.wallClock(query.startTime),
      stopTime: this.wallClock(query.endTime),
    });
}
