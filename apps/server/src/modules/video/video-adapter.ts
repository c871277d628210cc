/**
 * What the console asks of a camera, whatever platform it is on: a live HLS address, the
 * recorded segments of a time range, and a playback address from a point in time. One adapter
 * per provider (ezviz.adapter.ts, hls.adapter.ts); the video service picks it by the camera's
 * provider and keeps the EZVIZ access token.
 */
import type { PlaybackQuery, RecordingSegmentDto, VideoProvider, VideoStreamDto } from '@sluice/shared/video.schema';

/** A camera with its secrets opened, for an adapter. */
export interface Camera {
  provider: VideoProvider;
  serial: string;
  channel: number;
  verificationCode: string;
  url: string;
  playbackUrl: string;
  appKey: string;
  appSecret: string;
}

export interface ProviderToken {
  accessToken: string;
  /** Epoch ms. */
  expireTime: number;
}

/** Hands an adapter the provider's access token (cached by the service until it expires). */
export type TokenSource = () => Promise<string>;

/** Why a provider call failed; the service words each kind for the user. */
export type ProviderFailure =
  'unreachable' | 'tokenExpired' | 'badCredentials' | 'cameraUnknown' | 'cameraOffline' | 'encrypted' | 'notOwned' | 'other';

export class VideoProviderError extends Error {
  readonly kind: ProviderFailure;
  readonly detail: string;
  constructor(kind: ProviderFailure, detail = '') {
    super(`${kind}${detail ? `: ${detail}` : ''}`);
    this.kind = kind;
    this.detail = detail;
  }
}

export interface VideoAdapter {
  /** Whether the provider works with an access token (the video token call answers it). */
  readonly usesToken: boolean;
  /** A fresh token from the app key and secret; only for adapters that use one. */
  fetchToken?(camera: Camera): Promise<ProviderToken>;
  live(camera: Camera, token: TokenSource): Promise<VideoStreamDto>;
  /** The recorded segments within the query's range, clipped to it, in order. */
  recordings(camera: Camera, query: PlaybackQuery, token: TokenSource): Promise<RecordingSegmentDto[]>;
  playback(camera: Camera, query: PlaybackQuery, token: TokenSource): Promise<VideoStreamDto>;
}

/** Segments clipped to [start, end], without empty ones, by start. */
export function clipSegments(segments: RecordingSegmentDto[], start: number, end: number): RecordingSegmentDto[] {
  return segments
    .map((s) => ({ StartTime: Math.max(s.StartTime, start), EndTime: Math.min(s.EndTime, end) }))
    .filter((s) => s.EndTime > s.StartTime)
    .sort((a, b) => a.StartTime - b.StartTime);
}
