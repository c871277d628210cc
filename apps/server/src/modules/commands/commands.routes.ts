/**
 * POST {g}/{deviceSn}/DeviceCommand (Key, Value): controls a device (device.control, a grant
 * that is not view-only, the device online, not in auto mode). GET {kind}/{deviceSn}/DeviceLog:
 * the commands sent to a device, newest first by default.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import { deviceSn } from '@sluice/shared/device.schema';
import { commandRequest, deviceLogDto, deviceLogQuery } from '@sluice/shared/telemetry.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { searchPattern } from '../../http/resource.ts';
import { checkGroupSegment } from '../sites/path-group.ts';
import { parseTimeParam } from '../telemetry/history.service.ts';
import { deviceLogOf } from './commands.service.ts';

const tags = ['Live data'];

export function commandsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { scope } = app.ctx;

  app.post(
    '/:g/:deviceSn/DeviceCommand',
    {
      config: { access: { operate: 'device.control' } },
      schema: {
        tags,
        summary:
          'Sends a command (a data point’s new value) to a device; refused in auto mode (自动模式下不允许控制设备) except for the control mode and one-key stop; the device log keeps old and new value',
        params: z.object({ g: z.string(), deviceSn }),
        body: commandRequest,
        response: { 200: envelopeOf(deviceLogDto) },
      },
    },
    async (request) => {
      const sent = await app.live.commands.send(
        currentUser(request),
        request.params.deviceSn,
        request.body.Key,
        request.body.Value,
      );
      return ok(request, deviceLogOf(sent.log), { message: sent.message });
    },
  );

  app.get(
    '/:kind/:deviceSn/DeviceLog',
    {
      config: { access: { operate: 'device.view' } },
      schema: {
        tags,
        summary: 'Commands sent to a device (paged; BeginTime, EndTime, Search; newest first unless OrderType=asc)',
        params: z.object({ kind: z.string(), deviceSn }),
        querystring: z.intersection(pageQuery, deviceLogQuery),
        response: { 200: envelopeOf(z.array(deviceLogDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.kind, user);
      const device = await scope.device(user, request.params.deviceSn);
      const q = request.query;
      const offset = app.live.offsetMinutes;
      const { rows, count } = await app.live.logs.page(
        user.groupId,
        device.device_sn,
        {
          from: q.BeginTime === undefined ? undefined : parseTimeParam(q.BeginTime, offset),
          to: q.EndTime === undefined ? undefined : parseTimeParam(q.EndTime, offset, true),
          search: searchPattern(q.Search),
          desc: (q.OrderType ?? 'desc').toLowerCase() === 'desc',
        },
        { no: q.PageNo, size: q.PageSize },
      );
      return ok(request, rows.map(deviceLogOf), { count });
    },
  );
}
