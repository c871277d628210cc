/**
 * The legacy device calls (spec §7 Devices, legacy): older clients name no group in the path and
 * send `account` and `token` in the query or body (a Bearer header or the console's cookie works
 * as well). The group is the caller's; role-project grants narrow what is reached, as everywhere.
 * Pages answer `{ data, count, totalPage, currentPage, pageSize }` as the paged project calls do.
 * Writes answer the device as it now is, and are accepted as POST or PUT (older clients differ).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import {
  deviceDto as deviceSchema,
  devicePageDto,
  devicePageQuery,
  devicePositionRequest,
  deviceUseTimeRequest,
  regionDeviceQuery,
} from '@sluice/shared/device.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { deviceDto, type DeviceFilter } from './devices.repository.ts';
import { fromBody } from '../audit/audit-trail.ts';
import { deviceSubject } from './device.audit.ts';

const tags = ['Devices (legacy)'];
const view = { operate: 'device.view' } as const;
const manage = { operate: 'device.manage' } as const;
const pagedQuery = z.intersection(pageQuery, devicePageQuery);

export function legacyDevicesRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.ctx.devices;
  const { repository, scope } = service;
  const { regions } = app.ctx;

  const paged = (url: string, summary: string, base: DeviceFilter) =>
    app.get(
      url,
      {
        config: { access: view, legacyToken: true },
        schema: { tags, summary, querystring: pagedQuery, response: { 200: envelopeOf(devicePageDto) } },
      },
      async (request) => {
        const user = currentUser(request);
        const q = request.query;
        if (q.ProjectId !== undefined) await scope.project(user, q.ProjectId);
        const { rows, count } = await repository.page(
          user,
          { ...base, projectId: q.ProjectId, typeId: q.TypeId, online: q.Online, deviceSn: q.DeviceSn },
          q,
        );
        const data = rows.map(deviceDto);
        return ok(
          request,
          { data, count, totalPage: Math.ceil(count / q.PageSize), currentPage: q.PageNo, pageSize: q.PageSize },
          { count },
        );
      },
    );
  paged('/Device/GetPageDevices', 'Devices in projects, a page at a time (ProjectId names one, its stations included)', {
    assigned: true,
  });
  paged('/Device/MyPageDevice', 'Every device the caller reaches, a page at a time', {});

  app.get(
    '/Device/GetRegionDevice',
    {
      config: { access: view, legacyToken: true },
      schema: {
        tags,
        summary: 'The devices of a region and of the regions under it',
        querystring: regionDeviceQuery,
        response: { 200: envelopeOf(z.array(deviceSchema)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const regionIds = await regions.withDescendants(request.query.RegionId, user.groupId);
      if (regionIds.length === 0) throw new AppError(404, 'error.notFound');
      const rows = await repository.all(user, { regionIds });
      return ok(request, rows.map(deviceDto), { count: rows.length });
    },
  );

  const one = async (request: Parameters<typeof currentUser>[0], sn: string) => {
    const row = await repository.one(currentUser(request), sn);
    if (!row) throw new AppError(404, 'error.notFound');
    return deviceDto(row);
  };

  app.route({
    method: ['POST', 'PUT'],
    url: '/Device/UpdateDevicePosition',
    config: { access: manage, legacyToken: true, audit: { subject: deviceSubject, action: 'update', id: fromBody('DeviceSn') } },
    schema: {
      tags,
      summary: "Set where a device stands ('lng,lat', GCJ-02) and, when given, its address",
      body: devicePositionRequest,
      response: { 200: envelopeOf(deviceSchema) },
    },
    handler: async (request) => {
      const { DeviceSn, Position, Address } = request.body;
      await service.update(currentUser(request), { DeviceSn, Position, ...(Address !== undefined ? { Address } : {}) });
      return ok(request, await one(request, DeviceSn), { message: 'saved' });
    },
  });

  app.route({
    method: ['POST', 'PUT'],
    url: '/Device/UpdateDeviceUseTime',
    config: { access: manage, legacyToken: true, audit: { subject: deviceSubject, action: 'update', id: fromBody('DeviceSn') } },
    schema: {
      tags,
      summary: "Set the day a device was put into use (YYYY-MM-DD; '' clears it)",
      body: deviceUseTimeRequest,
      response: { 200: envelopeOf(deviceSchema) },
    },
    handler: async (request) => {
      const { DeviceSn, UseTime } = request.body;
      await service.update(currentUser(request), { DeviceSn, UseTime });
      return ok(request, await one(request, DeviceSn), { message: 'saved' });
    },
  });
}
