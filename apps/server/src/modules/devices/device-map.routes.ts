/**
 * GET DeviceMap/GetDeviceMap: every device and station the caller reaches, with position and
 * state, in one query and a compact answer (rows as arrays) for a map of 10,000 devices.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deviceMapDto } from '@sluice/shared/device.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';

export function deviceMapRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/DeviceMap/GetDeviceMap',
    {
      config: { access: { operate: 'device.view' } },
      schema: {
        tags: ['Devices'],
        summary:
          'Every device and station on the map: rows are arrays in the order of DeviceFields and StationFields; State 0 offline, 1 online, 2 online with a warning',
        response: { 200: envelopeOf(deviceMapDto) },
      },
    },
    async (request) => ok(request, await app.ctx.deviceMap.map(currentUser(request))),
  );
}
