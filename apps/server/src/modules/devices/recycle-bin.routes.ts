/** The device recycle bin (/device/recyclebin): list, restore, purge (administrators only). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import { deviceSn, recycledDeviceDto } from '@sluice/shared/device.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { deviceDto } from './devices.repository.ts';
import { fromParams } from '../audit/audit-trail.ts';
import { deviceSubject } from './device.audit.ts';

const tags = ['Recycle bin'];
const manage = { operate: 'device.manage' } as const;
const params = z.object({ sn: deviceSn });

export function recycleBinRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.ctx.devices;

  app.get(
    '/Device/RecycleBin',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'Deleted devices with who deleted them and when, newest first (paged)',
        querystring: pageQuery,
        response: { 200: envelopeOf(z.array(recycledDeviceDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { rows, count } = await service.repository.page(user, { recycled: true }, request.query);
      return ok(
        request,
        rows.map((r) => ({
          ...deviceDto(r),
          DeletedAt: r.deleted_at ?? 0,
          DeletedBy: r.deleted_by_name,
          ProjectExists: r.project_name !== null,
        })),
        { count },
      );
    },
  );

  app.put(
    '/Device/RecycleBin/Restore/:sn',
    {
      config: { access: manage, audit: { subject: deviceSubject, action: 'restore', id: fromParams('sn') } },
      schema: { tags, summary: 'Restore a device to its project, or unassigned when that is gone', params },
    },
    async (request) => {
      const home = await service.restore(currentUser(request), request.params.sn);
      return ok(
        request,
        { DeviceSn: request.params.sn, ProjectRestored: home },
        { message: home ? 'device.restored' : 'device.restoredUnassigned' },
      );
    },
  );

  app.delete(
    '/Device/RecycleBin/:sn',
    {
      config: { access: 'admin', audit: { subject: deviceSubject, action: 'purge', id: fromParams('sn') } },
      schema: { tags, summary: 'Delete a device from the bin for good, with its config, card, images and history', params },
    },
    async (request) => {
      await service.purge(currentUser(request), request.params.sn);
      return ok(request, null, { message: 'device.purged' });
    },
  );
}
