/** What hangs on a device (spec §7 Devices, Images): config, hardware rows, SIM card, images. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addDeviceConfigRequest,
  DEVICE_IMAGE_LIMIT,
  deviceCardDto,
  deviceCardRequest,
  deviceConfigDto,
  deviceImageDto,
  deviceSn,
  updateDeviceConfigRequest,
} from '@sluice/shared/device.schema';
import { deviceHardwareDto } from '@sluice/shared/device-type.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource, ownerColumn } from '../../http/resource.ts';
import { receiveUpload, recordUpload } from '../../storage/upload.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import type { ScopeMode } from '../sites/site-scope.ts';
import { checkGroupSegment } from '../sites/path-group.ts';
import { hardwareRowsResource } from '../device-types/hardware-rows.resource.ts';
import { idRef } from '@sluice/shared/schema-fields';
import { fromParams } from '../audit/audit-trail.ts';
import { deviceCardSubject, deviceImageSubject } from './device.audit.ts';

const view = { operate: 'device.view' } as const;
const manage = { operate: 'device.manage' } as const;
const id = idRef;

export function deviceDetailsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { storage } = app.ctx;
  const { scope } = app.ctx;

  const reachDevice = async (raw: unknown, user: CurrentUser, mode: ScopeMode): Promise<string> => {
    const sn = deviceSn.safeParse(raw);
    if (!sn.success) throw new AppError(404, 'error.notFound');
    return (await scope.device(user, sn.data, mode)).device_sn;
  };

  registerResource(root, {
    table: 'device_configs',
    audit: { kind: 'deviceConfig', owner: ownerColumn('device', 'device_sn') },
    tags: ['Devices'],
    access: { read: view, write: manage },
    dto: deviceConfigDto,
    create: addDeviceConfigRequest,
    update: updateDeviceConfigRequest,
    sortable: ['DataName', 'DataType'],
    searchable: ['DataName', 'DataValue'],
    routes: {
      all: 'GET /:g/:sn/DeviceConfig',
      create: 'POST /:g/:sn/DeviceConfig',
      update: 'PUT /:g/:sn/DeviceConfig',
      remove: 'DELETE /:g/:sn/DeviceConfig/:id',
    },
    parent: {
      column: 'device_sn',
      from: (request: FastifyRequest) => (request.params as Record<string, string | undefined>).sn,
      resolve: reachDevice,
    },
  });

  // Its own Modbus rows, with the rules and read frames of a type's hardware rows.
  registerResource(root, {
    ...hardwareRowsResource,
    table: 'device_hardware_configs',
    audit: { kind: 'deviceHardware', owner: ownerColumn('device', 'device_sn') },
    tags: ['Devices'],
    access: { read: view, write: manage },
    dto: deviceHardwareDto,
    routes: {
      list: 'GET /:g/:sn/DeviceHardware',
      create: 'POST /:g/:sn/DeviceHardware',
      update: 'PUT /:g/:sn/DeviceHardware',
      remove: 'DELETE /:g/:sn/DeviceHardware/:id',
    },
    parent: {
      column: 'device_sn',
      from: (request: FastifyRequest) => (request.params as Record<string, string | undefined>).sn,
      resolve: reachDevice,
    },
    // The data point must be of the group's library.
    beforeWrite: async (row, user) => {
      if (row.data_define_id !== undefined) await app.ctx.typeScope.dataDefineKey(user.groupId, row.data_define_id);
      return row;
    },
  });

  // The SIM card: its ICCID is kept here; its data comes from the SIM provider adapter (SIM issue).
  const cardParams = z.object({ g: z.string(), sn: deviceSn });
  const cards = app.ctx.deviceCards;

  app.get(
    '/:g/:sn/DeviceCard',
    {
      config: { access: view },
      schema: {
        tags: ['Devices'],
        summary: "A device's SIM card; SIM data needs a SIM provider (not configured yet)",
        params: cardParams,
        response: { 200: envelopeOf(deviceCardDto.nullable()) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sn = await reachDevice(request.params.sn, user, 'read');
      return ok(request, (await cards.of(user.groupId, sn)) ?? null, { message: 'sim.notConfigured' });
    },
  );

  app.post(
    '/:g/:sn/DeviceCard',
    {
      config: { access: manage, audit: { subject: deviceCardSubject, id: fromParams('sn'), answerIsRecord: true } },
      schema: {
        tags: ['Devices'],
        summary: "Give a device its SIM card's ICCID",
        params: cardParams,
        body: deviceCardRequest,
        response: { 201: envelopeOf(deviceCardDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const sn = await reachDevice(request.params.sn, user, 'write');
      if (await cards.of(user.groupId, sn)) throw new AppError(409, 'card.exists', {}, 'ICCID');
      await cards.set(user.groupId, sn, request.body.ICCID);
      const card = await cards.of(user.groupId, sn);
      if (!card) throw new AppError(404, 'error.notFound');
      return reply.status(201).send(ok(request, card, { message: 'saved' }));
    },
  );

  app.put(
    '/:g/:sn/DeviceCard',
    {
      config: { access: manage, audit: { subject: deviceCardSubject, id: fromParams('sn'), answerIsRecord: true } },
      schema: {
        tags: ['Devices'],
        summary: "Set a device's ICCID (adds the card when it has none)",
        params: cardParams,
        body: deviceCardRequest,
        response: { 200: envelopeOf(deviceCardDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sn = await reachDevice(request.params.sn, user, 'write');
      await cards.set(user.groupId, sn, request.body.ICCID);
      const card = await cards.of(user.groupId, sn);
      if (!card) throw new AppError(404, 'error.notFound');
      return ok(request, card, { message: 'saved' });
    },
  );

  app.delete(
    '/:g/:sn/DeviceCard/:id',
    {
      config: { access: manage, audit: { subject: deviceCardSubject, id: fromParams('sn') } },
      schema: { tags: ['Devices'], summary: "Remove a device's SIM card", params: cardParams.extend({ id }) },
    },
    async (request) => {
      const user = currentUser(request);
      const sn = await reachDevice(request.params.sn, user, 'write');
      if (!(await cards.remove(user.groupId, sn, request.params.id))) throw new AppError(404, 'error.notFound');
      return ok(request, null, { message: 'deleted' });
    },
  );

  // Device images (§9: 5 MB, png/jpeg/bmp, cropped 4:3 by the console).
  const imageParams = z.object({ kind: z.string(), deviceSn });
  const images = app.ctx.deviceImages;

  app.get(
    '/:kind/:deviceSn/DeviceImage',
    {
      config: { access: view },
      schema: {
        tags: ['Devices'],
        summary: "A device's images by rank",
        params: imageParams,
        response: { 200: envelopeOf(z.array(deviceImageDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.kind, user);
      const sn = await reachDevice(request.params.deviceSn, user, 'read');
      return ok(request, await images.list(user.groupId, sn));
    },
  );

  app.put(
    '/:kind/:deviceSn/DeviceImage',
    {
      config: { access: manage, audit: { subject: deviceImageSubject, action: 'create' } },
      schema: {
        tags: ['Devices'],
        summary:
          'Upload a device image (multipart "file"; png, jpeg or bmp by content, at most 5 MB); Rank defaults to after the last',
        consumes: ['multipart/form-data'],
        params: imageParams,
        querystring: z.object({
          Rank: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(10000).optional()),
          ImageName: z.string().trim().max(64).optional(),
        }),
        response: { 200: envelopeOf(deviceImageDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.kind, user);
      // Reach the device before reading a byte of the file.
      const sn = await reachDevice(request.params.deviceSn, user, 'write');
      const stored = await receiveUpload(request, storage, {
        folder: 'device-images',
        limit: DEVICE_IMAGE_LIMIT,
        kinds: ['png', 'jpeg', 'bmp'],
      });
      const name = (request.query.ImageName ?? stored.fileName.replace(/\.[^.]*$/, '')).slice(0, 64);
      const created = await recordUpload(storage, stored, () =>
        images.add(user.groupId, sn, { name, key: stored.key, rank: request.query.Rank }),
      );
      return ok(request, created, { message: 'saved' });
    },
  );

  app.delete(
    '/:kind/:deviceSn/DeviceImage/:id',
    {
      config: { access: manage, audit: { subject: deviceImageSubject, id: fromParams('id') } },
      schema: { tags: ['Devices'], summary: 'Delete a device image and its file', params: imageParams.extend({ id }) },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.kind, user);
      const sn = await reachDevice(request.params.deviceSn, user, 'write');
      const key = await images.remove(user.groupId, sn, request.params.id);
      if (key === undefined) throw new AppError(404, 'error.notFound');
      await storage.remove(key);
      return ok(request, null, { message: 'deleted' });
    },
  );
}
