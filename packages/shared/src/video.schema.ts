/**
 * Cameras of a device (spec §3 DeviceVideo, §7 {kind}/{deviceSn}/DeviceVideo): a camera on the
 * EZVIZ open platform (serial, channel, verification code, the account's app key and secret) or
 * a generic stream (an HLS address, and optionally a playback address template). Secrets are
 * sealed at rest and only ever sent back masked (SECRET_MASK, as the SIM accounts').
 */
import { z } from 'zod';
import { messageRef } from './rules.ts';
import { idRef, name, text } from './schema-fields.ts';
import { SECRET_MASK } from './sim.schema.ts';
import { secretFields } from './secret-fields.ts';

export { SECRET_MASK };

export const VIDEO_PROVIDERS = ['ezviz', 'hls'] as const;
export type VideoProvider = (typeof VIDEO_PROVIDERS)[number];

/** §9 playback types: SD card or NVR (the provider's recType 2) and cloud storage (recType 1). */
export const RECORDING_TYPES = ['card', 'cloud'] as const;
export type RecordingType = (typeof RECORDING_TYPES)[number];

/** The longest playback query: two days (§9 leaves the limit open; the default range is one day). */
export const PLAYBACK_MAX_MS = 2 * 24 * 3600 * 1000;
/** §9: the time line's canvas height. */
export const TIMELINE_HEIGHT = 48;
/** The placeholders of a generic camera's playback address template, replaced by epoch milliseconds. */
export const PLAYBACK_PLACEHOLDERS = ['{start}', '{end}'] as const;

/** An EZVIZ address its web player kit opens: ezopen://open.ys7.com/{serial}/{channel}.live (or .hd.live, .rec, .cloud.rec). */
export const EZOPEN_URL = /^ezopen:\/\/[^/\s]+\/\S+$/i;

export const deviceVideoDto = z.object({
  Id: z.number(),
  DeviceSn: z.string(),
  VideoName: z.string(),
  Provider: z.enum(VIDEO_PROVIDERS),
  /** EZVIZ: the camera's serial number. */
  VideoSn: z.string(),
  Channel: z.number(),
  /** The mask when a verification code is kept, else ''. */
  SecurityCode: z.string(),
  /** Generic: the live HLS address. EZVIZ: '' or an ezopen:// address, played by EZVIZ's web player kit. */
  Url: z.string(),
  /** Generic: the playback address, with {start} and {end} (epoch ms). */
  PlaybackUrl: z.string(),
  /** EZVIZ: the mask and the last 4 characters of the app key. */
  Appkey: z.string(),
  /** EZVIZ: the mask. */
  Secret: z.string(),
});
export type DeviceVideoDto = z.infer<typeof deviceVideoDto>;

/** An http(s) address, or a path on the console's own server (the demo's camera: /demo/video/live.m3u8). */
const httpUrl = z
  .string()
  .trim()
  .max(1000)
  .refine((v) => /^(https?:\/\/[^/\s]+|\/[^/\s])/i.test(v), { message: 'rule.url' });

const secret = z.string().trim().max(200);
const videoFields = {
  VideoName: name(64),
  Provider: z.enum(VIDEO_PROVIDERS, { message: 'rule.required' }),
  VideoSn: text(64),
  Channel: z.coerce.number().int().min(1).max(256).optional(),
  Url: text(1000),
  PlaybackUrl: text(1000),
  ...secretFields({ SecurityCode: secret.optional(), Appkey: secret.optional(), Secret: secret.optional() }),
};

type VideoInput = {
  Provider: VideoProvider;
  VideoSn?: string | undefined;
  Url?: string | undefined;
  PlaybackUrl?: string | undefined;
  Appkey?: string | undefined;
  Secret?: string | undefined;
};

/** What each provider needs; `creating` also needs the secrets (an update may keep the stored ones). */
function providerNeeds(v: VideoInput, ctx: z.RefinementCtx, creating: boolean): void {
  const need = (field: keyof VideoInput) => {
    const value = v[field];
    if (typeof value !== 'string' || value.trim() === '')
      ctx.addIssue({ code: 'custom', message: 'rule.required', path: [field] });
  };
  const url = (field: 'Url' | 'PlaybackUrl') => {
    const value = v[field];
    if (value && !httpUrl.safeParse(value).success) ctx.addIssue({ code: 'custom', message: 'rule.url', path: [field] });
  };
  if (v.Provider === 'ezviz') {
    need('VideoSn');
    // Optional: an ezopen:// address plays through EZVIZ's web player kit.
    if (v.Url && !EZOPEN_URL.test(v.Url.trim())) ctx.addIssue({ code: 'custom', message: 'video.ezopenUrl', path: ['Url'] });
    if (creating) {
      need('Appkey');
      need('Secret');
    }
  } else {
    need('Url');
    url('Url');
    url('PlaybackUrl');
    if (v.PlaybackUrl && !PLAYBACK_PLACEHOLDERS.every((p) => v.PlaybackUrl?.includes(p)))
      ctx.addIssue({
        code: 'custom',
        message: messageRef('video.playbackTemplate', { placeholders: PLAYBACK_PLACEHOLDERS.join(' ') }),
        path: ['PlaybackUrl'],
      });
  }
}

export const addDeviceVideoRequest = z.object(videoFields).superRefine((v, ctx) => {
  providerNeeds(v, ctx, true);
});
/** Empty or masked secrets keep the stored ones. */
export const updateDeviceVideoRequest = z.object({ Id: idRef, ...videoFields }).superRefine((v, ctx) => {
  providerNeeds(v, ctx, false);
});
export type AddDeviceVideoRequest = z.infer<typeof addDeviceVideoRequest>;

/** The video token call (§7): the provider's access token and when it expires (epoch ms). */
export const videoTokenDto = z.object({ AccessToken: z.string(), ExpireTime: z.number() });
export type VideoTokenDto = z.infer<typeof videoTokenDto>;
/** PUT DeviceVideo/Refresh/{id} answers the same in the provider's spelling (§7). */
export const videoRefreshDto = z.object({ accessToken: z.string(), expireTime: z.number() });

/** An address the player opens: HLS, with its expiry when the provider gives one. */
export const videoStreamDto = z.object({ Url: z.string(), ExpireTime: z.number().nullable() });
export type VideoStreamDto = z.infer<typeof videoStreamDto>;

const epochMs = z.coerce.number().int().min(0).max(8_640_000_000_000);

/** A playback query (§5: begin not after end, within PLAYBACK_MAX_MS of each other). */
export const playbackQuery = z
  .object({
    startTime: epochMs,
    endTime: epochMs,
    recType: z.enum(RECORDING_TYPES).default('card'),
  })
  .superRefine((q, ctx) => {
    if (q.startTime > q.endTime) ctx.addIssue({ code: 'custom', message: 'video.beginAfterEnd', path: ['startTime'] });
    else if (q.endTime - q.startTime > PLAYBACK_MAX_MS)
      ctx.addIssue({
        code: 'custom',
        message: messageRef('video.rangeTooLong', { hours: PLAYBACK_MAX_MS / 3_600_000 }),
        path: ['endTime'],
      });
  });
export type PlaybackQuery = z.infer<typeof playbackQuery>;

/** A recorded segment (epoch ms). */
export const recordingSegmentDto = z.object({ StartTime: z.number(), EndTime: z.number() });
export type RecordingSegmentDto = z.infer<typeof recordingSegmentDto>;
