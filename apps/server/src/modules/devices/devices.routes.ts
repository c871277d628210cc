/** Devices (spec §7 Devices): lists, overview, add, edit, delete to the bin, migration, type, project. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import {
  addDeviceRequest,
  createdDeviceDto,
  deviceControlCheckDto,
  deviceDto as deviceSchema,
  deviceOverviewDto,
  deviceOverviewQuery,
  devicePageQuery,
  deviceSn,
  deviceSnRequest,
  deviceTypeRequest,
  migrateDeviceRequest,
  migrationListDto,
  updateDeviceRequest,
} from '@sluice/shared/device.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { checkGroupSegment } from '../sites/path-group.ts';
import { deviceDto, type DeviceFilter } from './devices.repository.ts';
import { fromBody, fromParams } from '../audit/audit-trail.ts';
import { deviceSubject } from './device.audit.ts';

/** A new device's serial number in the answer of POST {g}/Device. */
const createdSn = (data: Record<string, unknown>) => (data.Device as { DeviceSn?: string } | undefined)?.DeviceSn;

const tags = ['Devices'];
const view = { operate: 'device.view' } as const;
const manage = { operate: 'device.manage' } as const;
const g = z.object({ g: z.string() });
const list = envelopeOf(z.array(deviceSchema));
const pagedQuery = z.intersection(pageQuery, devicePageQuery);

export function devicesRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const service = app.ctx.devices;
  const { repository, scope } = service;

  const one = async (request: Parameters<typeof currentUser>[0], sn: string) => {
    const row = await repository.one(currentUser(request), sn);
    if (!row) throw new AppError(404, 'error.notFound');
    return deviceDto(row);
  };

  app.get(
    '/:g/Device/AllDevice',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Every device of a project (its stations included) or station, or the one device of deviceSn',
        params: g,
        querystring: devicePageQuery,
        response: { 200: list },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { ProjectId, DeviceSn, TypeId, Online } = request.query;
      if (ProjectId !== undefined) await scope.project(user, ProjectId);
      const rows = await repository.all(user, { projectId: ProjectId, deviceSn: DeviceSn, typeId: TypeId, online: Online });
      return ok(request, rows.map(deviceDto), { count: rows.length });
    },
  );

  const paged = (path: string, summary: string, base: DeviceFilter) =>
    app.get(
      path,
      { config: { access: view }, schema: { tags, summary, params: g, querystring: pagedQuery, response: { 200: list } } },
      async (request) => {
        const user = currentUser(request);
        const q = request.query;
        if (q.ProjectId !== undefined) await scope.project(user, q.ProjectId);
        const { rows, count } = await repository.page(
          user,
          { ...base, projectId: q.ProjectId, clientId: q.ClientId, typeId: q.TypeId, online: q.Online, deviceSn: q.DeviceSn },
          q,
        );
        return ok(request, rows.map(deviceDto), { count });
      },
    );
  paged('/:g/Device/MyDevice', 'The devices the caller reaches (paged; Search, ProjectId, ClientId, TypeId, Online filter)', {});
  paged('/:g/Device/Project', 'The devices in projects (paged; ProjectId names one, its stations included)', { assigned: true });
  paged('/:g/Device/NoProject', 'Devices in no project (paged; administrators)', { unassigned: true });

  app.get(
    '/:g/Device/OverView',
    {
      config: { access: view },
      schema: {
        tags,
        summary:
          'How many devices, how many online, and both by type (of a project or station with ProjectId, of a client with ClientId)',
        params: g,
        querystring: deviceOverviewQuery,
        response: { 200: envelopeOf(deviceOverviewDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { ProjectId, ClientId } = request.query;
      if (ProjectId !== undefined) await scope.project(user, ProjectId);
      if (ClientId !== undefined) await scope.client(user, ClientId);
      return ok(request, await repository.overview(user, { projectId: ProjectId, clientId: ClientId }));
    },
  );

  app.post(
    '/:g/Device',
    {
      config: { access: manage, audit: { subject: deviceSubject, createdId: createdSn } },
      schema: {
        tags,
        summary: 'Add a device; the answer holds its MQTT credential (username DeviceSn, password shown only this once)',
        params: g,
        body: addDeviceRequest,
        response: { 201: envelopeOf(createdDeviceDto) },
      },
    },
    async (request, reply) => {
      const { sn, secret } = await service.create(currentUser(request), request.body);
      const device = await one(request, sn);
      return reply
        .status(201)
        .send(ok(request, { Device: device, Credential: { Username: sn, Password: secret } }, { message: 'device.created' }));
    },
  );

  app.put(
    '/:g/Device',
    {
      config: { access: manage, audit: { subject: deviceSubject, id: fromBody('DeviceSn') } },
      schema: {
        tags,
        summary: 'Edit a device',
        params: g,
        body: updateDeviceRequest,
        response: { 200: envelopeOf(deviceSchema) },
      },
    },
    async (request) => {
      await service.update(currentUser(request), request.body);
      return ok(request, await one(request, request.body.DeviceSn), { message: 'saved' });
    },
  );

  app.delete(
    '/:g/Device/:sn',
    {
      config: { access: manage, audit: { subject: deviceSubject, id: fromParams('sn') } },
      schema: { tags, summary: 'Move a device to the recycle bin', params: z.object({ g: z.string(), sn: deviceSn }) },
    },
    async (request) => {
      await service.recycle(currentUser(request), request.params.sn);
      return ok(request, null, { message: 'device.recycled' });
    },
  );

  app.put(
    '/:g/Device/Migration',
    {
      config: { access: manage, audit: { subject: deviceSubject, id: fromBody('DeviceSn') } },
      schema: {
        tags,
        summary: 'Move a device to another project or station (recorded)',
        params: g,
        body: migrateDeviceRequest,
        response: { 200: envelopeOf(deviceSchema) },
      },
    },
    async (request) => {
      await service.move(currentUser(request), request.body.DeviceSn, request.body.ProjectId);
      return ok(request, await one(request, request.body.DeviceSn), { message: 'saved' });
    },
  );

  app.put(
    '/:g/Device/Project',
    {
      config: { access: manage, audit: { subject: deviceSubject, id: fromBody('DeviceSn') } },
      schema: {
        tags,
        summary: 'Take a device out of its project (recorded)',
        params: g,
        body: deviceSnRequest,
        response: { 200: envelopeOf(deviceSchema) },
      },
    },
    async (request) => {
      await service.move(currentUser(request), request.body.DeviceSn, null);
      return ok(request, await one(request, request.body.DeviceSn), { message: 'saved' });
    },
  );

  app.put(
    '/:g/Device/Type',
    {
      config: { access: manage, audit: { subject: deviceSubject, id: fromBody('DeviceSn') } },
      schema: {
        tags,
        summary: "Change a device's type",
        params: g,
        body: deviceTypeRequest,
        response: { 200: envelopeOf(deviceSchema) },
      },
    },
    async (request) => {
      await service.setType(currentUser(request), request.body.DeviceSn, request.body.TypeId ?? null);
      return ok(request, await one(request, request.body.DeviceSn), { message: 'saved' });
    },
  );

  app.put(
    '/:g/Device/Credential',
    {
      config: { access: manage, audit: { subject: deviceSubject, id: fromBody('DeviceSn') } },
      schema: {
        tags,
        summary: "Replace a device's MQTT secret; the new one is shown only this once",
        params: g,
        body: deviceSnRequest,
        response: { 200: envelopeOf(createdDeviceDto.shape.Credential) },
      },
    },
    async (request) => {
      const secret = await service.resetCredential(currentUser(request), request.body.DeviceSn);
      return ok(request, { Username: request.body.DeviceSn, Password: secret }, { message: 'saved' });
    },
  );

  app.get(
    '/:g/:sn/DeviceMigration',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A device's moves between projects, newest first",
        params: z.object({ g: z.string(), sn: deviceSn }),
        response: { 200: envelopeOf(migrationListDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.sn);
      return ok(request, {
        DeviceSn: device.device_sn,
        ListMigration: await repository.migrations(user.groupId, device.device_sn),
      });
    },
  );

  app.get(
    '/:module/Device/CheckDeviceControl/:deviceSn',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Whether the caller may control the device (holds device.control and more than a view-only grant)',
        params: z.object({ module: z.string(), deviceSn }),
        response: { 200: envelopeOf(deviceControlCheckDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.module, user);
      const device = await scope.device(user, request.params.deviceSn);
      const writable = await app.live.commands.mayControl(user, device.device_sn);
      return ok(request, { DeviceSn: device.device_sn, CanControl: writable, Online: device.online === 1 });
    },
  );
}
