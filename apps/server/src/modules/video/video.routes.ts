/**
 * A device's cameras (spec §7 Images, video): {kind}/{deviceSn}/DeviceVideo list and add,
 * PUT DeviceVideo, DELETE DeviceVideo/{id}, read by those who see the device and written by
 * those who manage devices; the secrets (verification code, app key and secret) are sealed and
 * only ever sent back masked. Playing: the video token call and PUT DeviceVideo/Refresh/{id}
 * (EZVIZ's access token), the live address, the recorded segments of a range and a playback
 * address, each only for callers who see the camera's device.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceSn } from '@sluice/shared/device.schema';
import { idRef } from '@sluice/shared/schema-fields';
import {
  SECRET_MASK,
  addDeviceVideoRequest,
  deviceVideoDto,
  playbackQuery,
  recordingSegmentDto,
  updateDeviceVideoRequest,
  videoRefreshDto,
  videoStreamDto,
  videoTokenDto,
} from '@sluice/shared/video.schema';
import { currentUser } from '../../auth/access.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource, ownerColumn } from '../../http/resource.ts';
import { maskedSecret, sealUnlessKept } from '../../security/secret-fields.ts';
import { checkGroupSegment } from '../sites/path-group.ts';
import type { ScopeMode } from '../sites/site-scope.ts';
import { fromParams } from '../audit/audit-trail.ts';

const tags = ['Video'];
const view = { operate: 'device.view' } as const;
const manage = { operate: 'device.manage' } as const;
const SECRET_COLUMNS = ['security_code', 'app_key', 'secret'] as const;

export function videoRoutes(root: FastifyInstance): void {
  const { secrets, scope, video } = root.ctx;

  const reachDevice = async (raw: unknown, user: CurrentUser, mode: ScopeMode): Promise<string> => {
    // Named by the path ({ kind, sn }), or a stored camera's own device (its serial).
    const { kind, sn } =
      typeof raw === 'string' ? { kind: undefined, sn: raw } : ((raw ?? {}) as { kind?: string; sn?: unknown });
    if (kind !== undefined) checkGroupSegment(kind, user);
    const parsed = deviceSn.safeParse(sn);
    if (!parsed.success) throw new AppError(404, 'error.notFound');
    return (await scope.device(user, parsed.data, mode)).device_sn;
  };

  const cameras = registerResource(root, {
    table: 'device_videos',
    audit: { kind: 'deviceVideo', owner: ownerColumn('device', 'device_sn') },
    tags,
    access: { read: view, write: manage },
    dto: deviceVideoDto,
    create: addDeviceVideoRequest,
    update: updateDeviceVideoRequest,
    columns: { Appkey: 'app_key' },
    sortable: ['VideoName'],
    searchable: ['VideoName', 'VideoSn'],
    defaultOrder: { key: 'VideoName', direction: 'asc' },
    routes: {
      all: 'GET /:kind/:deviceSn/DeviceVideo',
      create: 'POST /:kind/:deviceSn/DeviceVideo',
      update: 'PUT /DeviceVideo',
      remove: 'DELETE /DeviceVideo/:id',
    },
    parent: {
      column: 'device_sn',
      from: (request: FastifyRequest) => {
        const params = request.params as Record<string, string | undefined>;
        return params.deviceSn === undefined ? undefined : { kind: params.kind, sn: params.deviceSn };
      },
      resolve: reachDevice,
    },
    enrich: (rows) =>
      Promise.resolve(
        rows.map((r) => ({
          ...r,
          security_code: r.security_code ? SECRET_MASK : '',
          app_key: maskedSecret(secrets, r.app_key),
          secret: r.secret ? SECRET_MASK : '',
        })),
      ),
    // New secrets are sealed, empty or masked ones keep the stored; new credentials drop the cached token.
    beforeWrite: (row) => {
      const out: Record<string, unknown> = Object.fromEntries(
        Object.entries(row).filter(([column]) => !(SECRET_COLUMNS as readonly string[]).includes(column)),
      );
      for (const column of SECRET_COLUMNS) {
        const sealed = sealUnlessKept(secrets, row[column]);
        if (sealed !== undefined) out[column] = sealed;
      }
      if (out.app_key !== undefined || out.secret !== undefined) {
        out.access_token = '';
        out.expire_time = null;
      }
      return out;
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  const cameraParams = z.object({ kind: z.string(), deviceSn, id: idRef });
  const cameraOf = (request: { params: { kind: string; deviceSn: string; id: number } }, user: CurrentUser) => {
    checkGroupSegment(request.params.kind, user);
    return { sn: request.params.deviceSn, id: request.params.id };
  };

  app.put(
    '/DeviceVideo/Refresh/:id',
    {
      config: { access: view, audit: { subject: cameras, action: 'update', id: fromParams('id') } },
      schema: {
        tags,
        summary: "Renew an EZVIZ camera's access token (§7); the answer is the new token and its expiry (epoch ms)",
        params: z.object({ id: idRef }),
        response: { 200: envelopeOf(videoRefreshDto) },
      },
    },
    async (request) => {
      const token = await video.token(currentUser(request), request.params.id, { force: true });
      return ok(request, { accessToken: token.accessToken, expireTime: token.expireTime });
    },
  );

  app.get(
    '/:kind/:deviceSn/DeviceVideo/:id/Token',
    {
      config: {
        access: view,
        audit: {
          exempt: "a viewer asks for the camera's token; the server renews the platform's token it keeps when it expired",
        },
      },
      schema: {
        tags,
        summary: "The video token call (§7): an EZVIZ camera's access token, cached until it expires",
        params: cameraParams,
        response: { 200: envelopeOf(videoTokenDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { sn, id } = cameraOf(request, user);
      const token = await video.token(user, id, { deviceSn: sn });
      return ok(request, { AccessToken: token.accessToken, ExpireTime: token.expireTime });
    },
  );

  app.get(
    '/:kind/:deviceSn/DeviceVideo/:id/Live',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "The camera's live HLS address",
        params: cameraParams,
        response: { 200: envelopeOf(videoStreamDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { sn, id } = cameraOf(request, user);
      return ok(request, await video.live(user, sn, id));
    },
  );

  app.get(
    '/:kind/:deviceSn/DeviceVideo/:id/Records',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          'The recording time query (§7): recorded segments between startTime and endTime (epoch ms), recType card (SD card or NVR) or cloud',
        params: cameraParams,
        querystring: playbackQuery,
        response: { 200: envelopeOf(z.array(recordingSegmentDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { sn, id } = cameraOf(request, user);
      return ok(request, await video.recordings(user, sn, id, request.query));
    },
  );

  app.get(
    '/:kind/:deviceSn/DeviceVideo/:id/Playback',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'An HLS address playing the recordings from startTime to endTime (epoch ms)',
        params: cameraParams,
        querystring: playbackQuery,
        response: { 200: envelopeOf(videoStreamDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { sn, id } = cameraOf(request, user);
      return ok(request, await video.playback(user, sn, id, request.query));
    },
  );
}
