/**
 * GET {g}/{deviceSn}/DeviceControl: the device's control panel (modules, controls, control mode).
 * POST {g}/{deviceSn}/DeviceCommand (Key, Value): controls a device (device.control, a grant
 * that is not view-only, the device online, not in auto mode). {kind}/{deviceSn}/DeviceLog: GET
 * the commands sent to a device and the notes on it, newest first by default; POST a note
 * (device.control); DELETE /{id} one row (an administrator).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import { deviceSn } from '@sluice/shared/device.schema';
import { deviceControlDto } from '@sluice/shared/device-control.schema';
import { commandRequest, deviceLogDto, deviceLogNoteRequest, deviceLogQuery } from '@sluice/shared/telemetry.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { searchPattern } from '../../http/resource.ts';
import { checkGroupSegment } from '../sites/path-group.ts';
import { parseTimeParam } from '../telemetry/history.service.ts';
import { deviceLogOf } from './commands.service.ts';
import { deviceInParams, fromParams } from '../audit/audit-trail.ts';
import { commandSubject, deviceLogSubject, noteCommand } from './command.audit.ts';

const device = deviceInParams('deviceSn');

const tags = ['Live data'];

export function commandsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { scope } = app.ctx;

  app.get(
    '/:g/:deviceSn/DeviceControl',
    {
      config: { access: { operate: 'device.view' } },
      schema: {
        tags,
        summary:
          "A device's control panel: its type's modules and controls, each with the data point a command is checked against, the control mode, one-key stop and alarm reset, and whether the caller may control it",
        params: z.object({ g: z.string(), deviceSn }),
        response: { 200: envelopeOf(deviceControlDto) },
      },
    },
    async (request) => ok(request, await app.live.commands.panel(currentUser(request), request.params.deviceSn)),
  );

  app.post(
    '/:g/:deviceSn/DeviceCommand',
    {
      config: { access: { operate: 'device.control' }, audit: { subject: commandSubject, action: 'command', owner: device } },
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
      noteCommand(request, sent.log);
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

  app.post(
    '/:kind/:deviceSn/DeviceLog',
    {
      config: { access: { operate: 'device.control' }, audit: { subject: deviceLogSubject } },
      schema: {
        tags,
        summary: "Adds an operator's note to the device log (Message; Key the data point it is about, optional)",
        params: z.object({ kind: z.string(), deviceSn }),
        body: deviceLogNoteRequest,
        response: { 200: envelopeOf(deviceLogDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.kind, user);
      const row = await app.live.commands.note(user, request.params.deviceSn, request.body.Message, request.body.Key);
      return ok(request, deviceLogOf(row));
    },
  );

  app.delete(
    '/:kind/:deviceSn/DeviceLog/:id',
    {
      config: { access: 'admin', audit: { subject: deviceLogSubject, id: fromParams('id') } },
      schema: {
        tags,
        summary: 'Deletes one row of the device log (administrators)',
        params: z.object({ kind: z.string(), deviceSn, id: idRef }),
        response: { 200: envelopeOf(z.null()) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.kind, user);
      await app.live.commands.deleteLog(user, request.params.deviceSn, request.params.id);
      return ok(request, null);
    },
  );
}
