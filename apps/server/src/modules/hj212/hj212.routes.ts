/**
 * HJ 212 (issue 21): a group's pollutant code table (read by those who see devices, edited by
 * administrators), a device's logger credential (MN and password) with its counters, and the
 * forwarding links to supervising platforms with their state.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceSn } from '@sluice/shared/device.schema';
import { SECRET_MASK } from '@sluice/shared/sim.schema';
import {
  addHj212CodeRequest,
  addHj212ForwardRequest,
  hj212ForwardDto,
  updateHj212ForwardRequest,
  hj212CodeDto,
  hj212LoggerDto,
  setHj212LoggerRequest,
  updateHj212CodeRequest,
  type Hj212LoggerDto,
} from '@sluice/shared/hj212.schema';
import { currentUser } from '../../auth/access.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { AppError } from '../../http/errors.ts';
import { registerResource, ownerColumn } from '../../http/resource.ts';
import { hashDeviceSecret } from '../devices/device-credentials.ts';
import { sealUnlessKept } from '../../security/secret-fields.ts';
import { LINK_STATE_REFRESH_MS } from './hj212-forwarder.ts';
import { fromParams, type AuditSubject } from '../audit/audit-trail.ts';

const tags = ['HJ 212'];
const view = { operate: 'device.view' } as const;
const manage = { operate: 'device.manage' } as const;

export function hj212Routes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { scope } = app.ctx;

  registerResource(root, {
    table: 'hj212_codes',
    audit: { kind: 'hj212Code' },
    tags,
    access: { read: view, write: 'admin' },
    dto: hj212CodeDto,
    create: addHj212CodeRequest,
    update: updateHj212CodeRequest,
    sortable: ['Code', 'DataKey', 'Name'],
    searchable: ['Code', 'DataKey', 'Name'],
    unique: [{ key: 'Code', message: 'hj212.codeExists' }],
    defaultOrder: { key: 'Code', direction: 'asc' },
    routes: {
      list: 'GET /Hj212Code',
      create: 'POST /Hj212Code',
      update: 'PUT /Hj212Code',
      remove: 'DELETE /Hj212Code/:id',
    },
  });

  const params = z.object({ g: z.string(), sn: deviceSn });
  /** A device's logger credential, by the device (its password's hash masked: a new one shows as changed). */
  const loggerSubject: AuditSubject = {
    kind: 'hj212Logger',
    load: async (_ctx, user, sn) => {
      const logger = user ? await app.hj212.repository.loggerOf(user.groupId, String(sn)) : undefined;
      return logger ? { DeviceSn: logger.deviceSn, Mn: logger.mn, Password: logger.passwordHash } : null;
    },
    owner: (record) => (typeof record.DeviceSn === 'string' ? { kind: 'device', id: record.DeviceSn } : undefined),
    name: (record) => (typeof record.Mn === 'string' ? record.Mn : undefined),
  };

  const present = async (groupId: number, sn: string): Promise<Hj212LoggerDto> => {
    const logger = await app.hj212.repository.loggerOf(groupId, sn);
    const stats = await app.hj212.repository.statsOf(groupId, sn);
    return {
      DeviceSn: sn,
      Mn: logger?.mn ?? '',
      Connected: logger !== undefined && app.hj212.listener.connected(stats),
      LastPacket: stats.lastPacket,
      Received: stats.received,
      Stored: stats.stored,
      Refused: stats.refused,
      LastRefusal: stats.lastRefusal,
      ListenerPort: app.hj212.port ?? null,
    };
  };

  app.get(
    '/:g/:sn/Hj212Logger',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "A device's HJ 212 logger: its MN (empty when it is none), connection and counters (of every server instance)",
        params,
        response: { 200: envelopeOf(hj212LoggerDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.sn, 'read');
      return ok(request, await present(user.groupId, device.device_sn));
    },
  );

  app.put(
    '/:g/:sn/Hj212Logger',
    {
      config: { access: manage, audit: { subject: loggerSubject, action: 'update', id: fromParams('sn') } },
      schema: {
        tags,
        summary: 'Make a device an HJ 212 logger, or change its MN or password (only its hash is kept)',
        params,
        body: setHj212LoggerRequest,
        response: { 200: envelopeOf(hj212LoggerDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.sn, 'write');
      const { Mn, Password } = request.body;
      if (await app.hj212.repository.mnTaken(Mn, device.device_sn)) {
        throw new AppError(409, 'hj212.mnTaken', { mn: Mn }, 'Mn');
      }
      await app.hj212.repository.setLogger(user.groupId, device.device_sn, Mn, hashDeviceSecret(Password));
      return ok(request, await present(user.groupId, device.device_sn), { message: 'saved' });
    },
  );

  app.delete(
    '/:g/:sn/Hj212Logger',
    {
      config: { access: manage, audit: { subject: loggerSubject, id: fromParams('sn') } },
      schema: { tags, summary: 'The device is no HJ 212 logger any more (its MN and password are forgotten)', params },
    },
    async (request) => {
      const user = currentUser(request);
      const device = await scope.device(user, request.params.sn, 'write');
      if (!(await app.hj212.repository.removeLogger(user.groupId, device.device_sn))) {
        throw new AppError(404, 'hj212.notLogger');
      }
      return ok(request, null, { message: 'deleted' });
    },
  );
}

/** Links from a station's device to supervising platforms, with each link's state. */
export function hj212ForwardRoutes(root: FastifyInstance): void {
  const { secrets, scope } = root.ctx;
  registerResource(root, {
    table: 'hj212_forwards',
    audit: { kind: 'hj212Forward', owner: ownerColumn('device', 'device_sn') },
    tags,
    access: { read: view, write: manage },
    dto: hj212ForwardDto,
    create: addHj212ForwardRequest,
    update: updateHj212ForwardRequest,
    sortable: ['Name', 'DeviceSn', 'Host'],
    searchable: ['Name', 'DeviceSn', 'Host', 'Mn'],
    defaultOrder: { key: 'Name', direction: 'asc' },
    enrich: (rows) => Promise.resolve(rows.map((r) => ({ ...r, password: SECRET_MASK }))),
    // As the job leader (the one instance that forwards) last wrote it; a state it has not
    // refreshed for three of its intervals is of a leader gone: not connected.
    computed: {
      Connected: (row) => Number(row.link_connected) === 1 && Number(row.state_at ?? 0) >= Date.now() - 3 * LINK_STATE_REFRESH_MS,
      LastSent: (row) => (row.last_sent === null || row.last_sent === undefined ? null : Number(row.last_sent)),
      Backlog: (row) => Number(row.link_backlog ?? 0),
      LastError: (row) => (typeof row.last_error === 'string' ? row.last_error : ''),
    },
    routes: {
      list: 'GET /Hj212Forward',
      create: 'POST /Hj212Forward',
      update: 'PUT /Hj212Forward',
      remove: 'DELETE /Hj212Forward/:id',
    },
    beforeWrite: async (row, user) => {
      const { password, ...rest } = row;
      if (typeof rest.device_sn === 'string') {
        const device = await scope.device(user, rest.device_sn, 'write').catch(() => {
          throw new AppError(400, 'hj212.rule.device', {}, 'DeviceSn');
        });
        rest.device_sn = device.device_sn;
      }
      const sealed = sealUnlessKept(secrets, password);
      return { ...rest, ...(sealed === undefined ? {} : { password: sealed }) };
    },
  });
}
