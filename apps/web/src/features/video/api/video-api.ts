/**
 * A device's cameras ({kind}/{deviceSn}/DeviceVideo, PUT DeviceVideo, DELETE DeviceVideo/{id})
 * and playing them: the video token call, the live address, the recorded segments of a range and
 * a playback address (spec §7 Images, video).
 */
import type {
  DeviceVideoDto,
  RecordingSegmentDto,
  RecordingType,
  VideoStreamDto,
  VideoTokenDto,
} from '@sluice/shared/video.schema';
import { defineResource } from '../../../components/resource-table/resource';
import { api } from '../../../lib/api-client';

export type { DeviceVideoDto, RecordingSegmentDto, RecordingType, VideoStreamDto };

export const camerasResource = defineResource<DeviceVideoDto>({
  key: 'device-videos',
  operate: 'device.manage',
  list: 'GET /{g}/{deviceSn}/DeviceVideo',
  paging: 'none',
  create: 'POST /{g}/{deviceSn}/DeviceVideo',
  update: 'PUT /DeviceVideo',
  remove: 'DELETE /DeviceVideo/:id',
});

export interface PlaybackRange {
  startTime: number;
  endTime: number;
  recType: RecordingType;
}

/** Calls that play a camera: never cached (tokens and addresses expire). */
export const cameraCalls = (g: number, sn: string, id: number) => {
  const base = `/${String(g)}/${encodeURIComponent(sn)}/DeviceVideo/${String(id)}`;
  return {
    token: async () => (await api.get<VideoTokenDto>(`${base}/Token`)).data,
    live: async () => (await api.get<VideoStreamDto>(`${base}/Live`)).data,
    records: async (range: PlaybackRange) => (await api.get<RecordingSegmentDto[]>(`${base}/Records`, { ...range })).data,
    playback: async (range: PlaybackRange) => (await api.get<VideoStreamDto>(`${base}/Playback`, { ...range })).data,
  };
};
