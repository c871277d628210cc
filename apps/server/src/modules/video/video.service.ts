/**
 * Cameras at play: reaches the camera's device for the caller (secrets and tokens only for those
 * who see the device), opens the camera's sealed secrets for its provider's adapter, keeps the
 * EZVIZ access token sealed on the camera until it expires (renewed once when the platform says
 * it expired early), and words the platform's failures for the user.
 */
import type { PlaybackQuery, RecordingSegmentDto, VideoProvider, VideoStreamDto } from '@sluice/shared/video.schema';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { SiteScope } from '../sites/site-scope.ts';
import type { DeviceVideoRow, DeviceVideosRepository } from './device-videos.repository.ts';
import { VideoProviderError, type Camera, type ProviderToken, type TokenSource, type VideoAdapter } from './video-adapter.ts';

/** A token this close to its expiry is renewed rather than handed out. */
const EXPIRY_MARGIN_MS = 60_000;

export interface VideoServiceDeps {
  repository: DeviceVideosRepository;
  scope: SiteScope;
  secrets: SecretBox;
  adapters: Record<VideoProvider, VideoAdapter>;
  now?: () => number;
}

export class VideoService {
  private readonly deps: VideoServiceDeps;
  private readonly now: () => number;
  constructor(deps: VideoServiceDeps) {
    this.deps = deps;
    this.now = deps.now ?? Date.now;
  }

  /** The camera, when the caller sees its device (and it is the device named, when one is). */
  private async reach(user: CurrentUser, id: number, deviceSn?: string): Promise<DeviceVideoRow> {
    const row = await this.deps.repository.find(user.groupId, id);
    if (!row || (deviceSn !== undefined && row.device_sn !== deviceSn)) throw new AppError(404, 'error.notFound');
    await this.deps.scope.device(user, row.device_sn, 'read');
    return row;
  }

  private open(sealed: string): string {
    if (!sealed) return '';
    try {
      return this.deps.secrets.open(sealed);
    } catch {
      return '';
    }
  }

  private camera(row: DeviceVideoRow): Camera {
    return {
      provider: row.provider === 'ezviz' ? 'ezviz' : 'hls',
      serial: row.video_sn,
      channel: row.channel,
      verificationCode: this.open(row.security_code),
      url: row.url,
      playbackUrl: row.playback_url,
      appKey: this.open(row.app_key),
      appSecret: this.open(row.secret),
    };
  }

  private adapter(camera: Camera): VideoAdapter {
    return this.deps.adapters[camera.provider];
  }

  private async fetchToken(row: DeviceVideoRow, camera: Camera): Promise<ProviderToken> {
    const adapter = this.adapter(camera);
    if (!adapter.fetchToken) throw new AppError(409, 'video.tokenNotNeeded');
    const token = await this.worded(() => adapter.fetchToken?.(camera) ?? Promise.reject(new Error('no token')), camera);
    await this.deps.repository.saveToken(row.group_id, row.id, this.deps.secrets.seal(token.accessToken), token.expireTime);
    return token;
  }

  /** The cached token while it is valid, else a new one. */
  private async currentToken(row: DeviceVideoRow, camera: Camera): Promise<ProviderToken> {
    const cached = this.open(row.access_token);
    if (cached && row.expire_time !== null && row.expire_time - EXPIRY_MARGIN_MS > this.now())
      return { accessToken: cached, expireTime: row.expire_time };
    return this.fetchToken(row, camera);
  }

  /** The video token call (§7): the cached token, or a new one when it expired or `force` says so. */
  async token(user: CurrentUser, id: number, options: { deviceSn?: string; force?: boolean } = {}): Promise<ProviderToken> {
    const row = await this.reach(user, id, options.deviceSn);
    const camera = this.camera(row);
    if (!this.adapter(camera).usesToken) throw new AppError(409, 'video.tokenNotNeeded');
    return options.force ? this.fetchToken(row, camera) : this.currentToken(row, camera);
  }

  /** Runs an adapter call with the camera's token; renews the token once when the platform says it expired. */
  private async withCamera<T>(
    user: CurrentUser,
    id: number,
    deviceSn: string,
    call: (camera: Camera, adapter: VideoAdapter, token: TokenSource) => Promise<T>,
  ): Promise<T> {
    const row = await this.reach(user, id, deviceSn);
    const camera = this.camera(row);
    const adapter = this.adapter(camera);
    let fresh = false;
    const token: TokenSource = async () =>
      (await (fresh ? this.fetchToken(row, camera) : this.currentToken(row, camera))).accessToken;
    return this.worded(async () => {
      try {
        return await call(camera, adapter, token);
      } catch (error) {
        if (!(error instanceof VideoProviderError) || error.kind !== 'tokenExpired' || !adapter.usesToken) throw error;
        fresh = true;
        return call(camera, adapter, token);
      }
    }, camera);
  }

  live(user: CurrentUser, deviceSn: string, id: number): Promise<VideoStreamDto> {
    return this.withCamera(user, id, deviceSn, (camera, adapter, token) => adapter.live(camera, token));
  }

  recordings(user: CurrentUser, deviceSn: string, id: number, query: PlaybackQuery): Promise<RecordingSegmentDto[]> {
    return this.withCamera(user, id, deviceSn, (camera, adapter, token) => adapter.recordings(camera, query, token));
  }

  playback(user: CurrentUser, deviceSn: string, id: number, query: PlaybackQuery): Promise<VideoStreamDto> {
    return this.withCamera(user, id, deviceSn, (camera, adapter, token) => adapter.playback(camera, query, token));
  }

  /** A provider's failure as a message for the user. */
  private async worded<T>(call: () => Promise<T>, camera?: Camera): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof VideoProviderError)) throw error;
      switch (error.kind) {
        case 'unreachable':
          throw new AppError(502, 'video.providerUnreachable');
        case 'badCredentials':
          throw new AppError(502, 'video.badCredentials');
        case 'tokenExpired':
          throw new AppError(502, 'video.tokenExpired');
        case 'cameraUnknown':
          throw new AppError(404, 'video.cameraUnknown', { serial: camera?.serial ?? '' });
        case 'cameraOffline':
          throw new AppError(409, 'video.cameraOffline');
        case 'encrypted':
          throw new AppError(409, 'video.encrypted');
        case 'notOwned':
          throw new AppError(403, 'video.notOwned');
        default:
          throw new AppError(502, 'video.providerError', { message: error.detail });
      }
    }
  }
}
