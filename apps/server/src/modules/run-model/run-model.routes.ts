/**
 * A device's custom run model (spec §7): DeviceAccessory (its equipment), DeviceSystem (run
 * systems), DeviceSystemAccessory (a system's accessories) and DeviceSystemCotrolData (the steps
 * of its rotation), each listed, added, changed and removed under {g}/{sn}/; read with
 * device.view; the equipment written with device.manage, the run systems by those who run the
 * station (device.control, with more than a view-only grant). GET {g}/{sn}/DeviceRunModel answers the whole model;
 * POST {g}/{sn}/DeviceRunModel/Send sends it to the device and POST …/Rotate hands a system over
 * to its next step now (device.control).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceSn } from '@sluice/shared/device.schema';
import { deviceLogDto } from '@sluice/shared/telemetry.schema';
import {
  addDeviceAccessoryRequest,
  addDeviceSystemAccessoryRequest,
  addDeviceSystemControlDataRequest,
  addDeviceSystemRequest,
  deviceAccessoryDto,
  deviceSystemAccessoryDto,
  deviceSystemControlDataDto,
  deviceSystemDto,
  rotateRequest,
  runModelDto,
  updateDeviceAccessoryRequest,
  updateDeviceSystemAccessoryRequest,
  updateDeviceSystemControlDataRequest,
  updateDeviceSystemRequest,
} from '@sluice/shared/run-model.schema';
import { currentUser } from '../../auth/access.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource, ownerColumn } from '../../http/resource.ts';
import { idRef } from '@sluice/shared/schema-fields';
import type { ScopeMode } from '../sites/site-scope.ts';
import { deviceLogOf } from '../commands/commands.service.ts';
import { deviceInParams } from '../audit/audit-trail.ts';
import { commandSubject, noteCommand } from '../commands/command.audit.ts';

const view = { operate: 'device.view' } as const;
const manage = { operate: 'device.manage' } as const;
const control = { operate: 'device.control' } as const;
const tags = ['Run model'];

export function runModelRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { scope } = app.ctx;
  const runModel = () => app.live.runModel;
  const repository = () => app.live.runModelRepository;

  const reachDevice = async (raw: unknown, user: CurrentUser, mode: ScopeMode): Promise<string> => {
    const sn = deviceSn.safeParse(raw);
    if (!sn.success) throw new AppError(404, 'error.notFound');
    return (await scope.device(user, sn.data, mode)).device_sn;
  };
  const parent = {
    column: 'device_sn',
    from: (request: FastifyRequest) => (request.params as Record<string, string | undefined>).sn,
    resolve: reachDevice,
  };
  /** The device of a row being changed (an update's row does not carry it). */
  const deviceOfRow = async (
    table: 'device_systems' | 'device_system_accessories' | 'device_system_control_data',
    id: number,
    user: CurrentUser,
  ) => {
    const sn = await repository().deviceOf(table, user.groupId, id);
    if (sn === undefined) throw new AppError(404, 'error.notFound');
    return sn;
  };

  registerResource(root, {
    table: 'device_accessories',
    audit: { kind: 'deviceAccessory', owner: ownerColumn('device', 'device_sn') },
    tags,
    access: { read: view, write: manage },
    dto: deviceAccessoryDto,
    create: addDeviceAccessoryRequest,
    update: updateDeviceAccessoryRequest,
    sortable: ['Name'],
    searchable: ['Name'],
    routes: {
      list: 'GET /:g/:sn/DeviceAccessory',
      create: 'POST /:g/:sn/DeviceAccessory/DeviceAccessoryAdd',
      update: 'PUT /:g/:sn/DeviceAccessory/SaveDeviceAccessory',
      remove: 'POST /:g/:sn/DeviceAccessory/RemoveDeviceAccessory#Id',
    },
    parent,
  });

  registerResource(root, {
    table: 'device_systems',
    audit: { kind: 'deviceSystem', owner: ownerColumn('device', 'device_sn') },
    tags,
    access: { read: view, write: control },
    dto: deviceSystemDto,
    create: addDeviceSystemRequest,
    update: updateDeviceSystemRequest,
    sortable: ['Name'],
    searchable: ['Name'],
    routes: {
      list: 'GET /:g/:sn/DeviceSystem/GetDeviceSystemList',
      create: 'POST /:g/:sn/DeviceSystem/AddDeviceSystem',
      update: 'PUT /:g/:sn/DeviceSystem/UpdateDeviceSystem',
      remove: 'DELETE /:g/:sn/DeviceSystem/RemoveDeviceSystem/:id',
    },
    parent,
  });

  registerResource(root, {
    table: 'device_system_accessories',
    audit: { kind: 'deviceSystemAccessory', owner: ownerColumn('device', 'device_sn') },
    tags,
    access: { read: view, write: control },
    dto: deviceSystemAccessoryDto,
    create: addDeviceSystemAccessoryRequest,
    update: updateDeviceSystemAccessoryRequest,
    sortable: ['Name', 'SystemId'],
    searchable: ['Name'],
    filters: { SystemId: { key: 'SystemId', schema: idRef } },
    routes: {
      list: 'GET /:g/:sn/DeviceSystemAccessory',
      create: 'POST /:g/:sn/DeviceSystemAccessory',
      update: 'PUT /:g/:sn/DeviceSystemAccessory',
      remove: 'DELETE /:g/:sn/DeviceSystemAccessory/:id',
    },
    parent,
    beforeWrite: async (row, user) => {
      if (row.system_id !== undefined && typeof row.device_sn === 'string')
        await runModel().checkSystem(user.groupId, row.device_sn, row.system_id);
      return row;
    },
  });

  registerResource(root, {
    table: 'device_system_control_data',
    audit: { kind: 'deviceSystemControl', owner: ownerColumn('device', 'device_sn') },
    tags,
    access: { read: view, write: control },
    dto: deviceSystemControlDataDto,
    create: addDeviceSystemControlDataRequest,
    update: updateDeviceSystemControlDataRequest,
    sortable: ['SequenceIn', 'ControlName'],
    searchable: ['ControlName'],
    defaultOrder: { key: 'SequenceIn', direction: 'asc' },
    filters: {
      SystemId: { key: 'SystemId', schema: idRef },
      AccessoryId: { key: 'AccessoryId', schema: idRef },
    },
    routes: {
      list: 'GET /:g/:sn/DeviceSystemCotrolData',
      create: 'POST /:g/:sn/DeviceSystemCotrolData',
      update: 'PUT /:g/:sn/DeviceSystemCotrolData',
      remove: 'DELETE /:g/:sn/DeviceSystemCotrolData/:id',
    },
    parent,
    // A new step carries its device; a changed one is checked in beforeUpdate against its own.
    beforeWrite: (row, user) =>
      typeof row.device_sn === 'string' ? runModel().checkStep(user.groupId, row.device_sn, row) : row,
    beforeUpdate: async (id, row, user) => {
      await runModel().checkStep(user.groupId, await deviceOfRow('device_system_control_data', id, user), row);
    },
  });

  const params = z.object({ g: z.string(), sn: deviceSn });

  app.get(
    '/:g/:sn/DeviceRunModel',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A device's run model: its systems, each with its accessories and the steps of its rotation in order",
        params,
        response: { 200: envelopeOf(runModelDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sn = await reachDevice(request.params.sn, user, 'read');
      return ok(request, await runModel().model(user.groupId, sn));
    },
  );

  app.post(
    '/:g/:sn/DeviceRunModel/Send',
    {
      config: { access: control, audit: { subject: commandSubject, action: 'command', owner: deviceInParams('sn') } },
      schema: {
        tags,
        summary: 'Sends the device its run model ($RunModel on its cmd topic); logged and answered like a command',
        params,
        response: { 200: envelopeOf(deviceLogDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sn = await reachDevice(request.params.sn, user, 'write');
      const sent = await runModel().send(user, sn);
      noteCommand(request, sent.log);
      return ok(request, deviceLogOf(sent.log), { message: sent.message });
    },
  );

  app.post(
    '/:g/:sn/DeviceRunModel/Rotate',
    {
      config: { access: control, audit: { subject: commandSubject, action: 'command', owner: deviceInParams('sn') } },
      schema: {
        tags,
        summary: "Hands a run system's running step over to the next one now ($Rotate on the device's cmd topic)",
        params,
        body: rotateRequest,
        response: { 200: envelopeOf(deviceLogDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const sn = await reachDevice(request.params.sn, user, 'write');
      const sent = await runModel().rotate(user, sn, request.body.SystemId);
      noteCommand(request, sent.log);
      return ok(request, deviceLogOf(sent.log), { message: sent.message });
    },
  );
}
