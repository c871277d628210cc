/**
 * A generic stream: a camera platform's HLS address, played directly, and optionally its
 * playback address template with {start} and {end} (epoch ms). Such a platform does not say
 * which parts of a range hold recordings, so the whole range is offered as one segment.
 */
import type { VideoAdapter } from './video-adapter.ts';
import { AppError } from '../../http/errors.ts';

export class HlsAdapter implements VideoAdapter {
  readonly usesToken = false;

  live: VideoAdapter['live'] = (camera) => Promise.resolve({ Url: camera.url, ExpireTime: null });

  recordings: VideoAdapter['recordings'] = (camera, query) => {
    if (!camera.playbackUrl) return Promise.reject(new AppError(409, 'video.noPlayback'));
    return Promise.resolve([{ StartTime: query.startTime, EndTime: query.endTime }]);
  };

  playback: VideoAdapter['playback'] = (camera, query) => {
    if (!camera.playbackUrl) return Promise.reject(new AppError(409, 'video.noPlayback'));
    const url = camera.playbackUrl.replaceAll('{start}', String(query.startTime)).replaceAll('{end}', String(query.endTime));
    return Promise.resolve({ Url: url, ExpireTime: null });
  };
}
