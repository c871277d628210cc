/**
 * An account's arrangement of a device's page (spec §2 Home panels, §3 the device panel layout
 * kept per account): read by whoever sees the device, arranged by those who manage devices. The
 * layout is the caller's own; nobody reads or changes another account's.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceSn } from '@sluice/shared/device.schema';
import { panelLayoutDto, savePanelLayoutRequest } from '@sluice/shared/panel-layout';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { fromBody, plainSubject } from '../audit/audit-trail.ts';

/** An account's arrangement of a device's page: the entry keeps the layout saved. */
const layoutSubject = plainSubject('deviceLayout', (record) =>
  typeof record.deviceSn === 'string' ? { kind: 'device', id: record.deviceSn } : undefined,
);

const tags = ['Devices'];

export function deviceLayoutsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { scope, deviceLayouts } = app.ctx;

  const reach = async (raw: string, mode: 'read' | 'write', user: ReturnType<typeof currentUser>) => {
    const sn = deviceSn.safeParse(raw);
    if (!sn.success) throw new AppError(404, 'error.notFound');
    return (await scope.device(user, sn.data, mode)).device_sn;
  };

  app.get(
    '/DevicePanelLayout',
    {
      config: { access: { operate: 'device.view' } },
      schema: {
        tags,
        summary: "The caller's arrangement of a device's page (null: the default layout)",
        querystring: z.object({ deviceSn: z.string() }),
        response: { 200: envelopeOf(panelLayoutDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sn = await reach(request.query.deviceSn, 'read', user);
      return ok(request, { deviceSn: sn, Layout: await deviceLayouts.of(user.groupId, user.id, sn) });
    },
  );

  app.put(
    '/DevicePanelLayout',
    {
      config: {
        access: { operate: 'device.manage' },
        audit: { subject: layoutSubject, action: 'update', id: fromBody('deviceSn') },
      },
      schema: {
        tags,
        summary: "Keep the caller's arrangement of a device's page; an empty Layout goes back to the default",
        body: savePanelLayoutRequest,
        response: { 200: envelopeOf(panelLayoutDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sn = await reach(request.body.deviceSn, 'write', user);
      const { Layout } = request.body;
      if (Layout.length === 0) await deviceLayouts.forget(user.groupId, user.id, sn);
      else await deviceLayouts.save(user.groupId, user.id, sn, Layout);
      return ok(request, { deviceSn: sn, Layout: Layout.length === 0 ? null : Layout }, { message: 'saved' });
    },
  );
}
