/**
 * GET DeviceOnline/GetDeviceOnline: hours online per device per local day between BeginTime and
 * EndTime (dates; the last 7 days by default, §9), from the recorded online periods, and
 * their total by the §5 device-online summation rule.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { onlineQuery, onlineRowDto } from '@sluice/shared/telemetry.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';

export function onlineRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/DeviceOnline/GetDeviceOnline',
    {
      config: { access: { operate: 'device.view' } },
      schema: {
        tags: ['Live data'],
        summary:
          'Hours online per device and local day (BeginTime, EndTime as YYYY-MM-DD; last 7 days by default), optionally of ProjectId or one DeviceSn',
        querystring: onlineQuery,
        response: { 200: envelopeOf(z.array(onlineRowDto)) },
      },
    },
    async (request) => {
      const rows = await app.ctx.onlineHours.report(currentUser(request), request.query, app.live.offsetMinutes);
      return ok(request, rows, { count: rows.length });
    },
  );
}
