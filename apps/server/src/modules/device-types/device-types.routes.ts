/**
 * Device types (spec §7 Device types: Type, DeviceType/GetDeviceType, {x}/Type/Copy and
 * {x}/Type/copyfiles). A type's parts, files and templates have their own route files.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addDeviceTypeRequest, copyTypeRequest, deviceTypeDto, updateDeviceTypeRequest } from '@sluice/shared/device-type.schema';
import { z } from 'zod';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { checkGroupSegment } from '../sites/path-group.ts';
import { fromBody } from '../audit/audit-trail.ts';

const tags = ['Device types'];
const manage = { operate: 'system.manage' } as const;

export function deviceTypesRoutes(root: FastifyInstance): void {
  const { deviceTypes } = root.ctx;

  const types = registerResource(root, {
    table: 'device_types',
    audit: { kind: 'deviceType' },
    tags,
    access: { read: 'session', write: manage },
    dto: deviceTypeDto,
    create: addDeviceTypeRequest,
    update: updateDeviceTypeRequest,
    computed: { DeviceTypeName: (row) => row.type_name },
    sortable: ['TypeName', 'ParentId', 'Status'],
    searchable: ['TypeName', 'Description'],
    filters: {
      ParentId: { key: 'ParentId', schema: z.coerce.number().int().min(0) },
      Status: { key: 'Status', schema: z.coerce.number().int() },
    },
    unique: [{ key: 'TypeName', message: 'deviceType.exists' }],
    defaultOrder: { key: 'TypeName', direction: 'asc' },
    routes: {
      list: 'GET /Type',
      all: 'GET /DeviceType/GetDeviceType',
      get: 'GET /Type/:id',
      create: 'POST /Type',
      update: 'PUT /Type/:id',
      remove: 'DELETE /Type/:id',
    },
    beforeWrite: async (row, user) => {
      if (typeof row.parent_id === 'number') await deviceTypes.checkParent(row.parent_id, user.groupId);
      return row;
    },
    beforeUpdate: async (id, row, user) => {
      if (typeof row.parent_id === 'number') await deviceTypes.checkParent(row.parent_id, user.groupId, id);
    },
    beforeRemove: (_database, type, user) => deviceTypes.beforeRemove(type, user.groupId),
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  // {x} in Type/Copy: older consoles put a word or the group id there; a number must be the caller's group.
  const scopeParams = z.object({ scope: z.string().max(64) });

  app.post(
    '/:scope/Type/Copy',
    {
      config: { access: manage, audit: { subject: types, action: 'copy', id: fromBody('TargetId') } },
      schema: {
        tags,
        summary:
          'Copy a type with everything under it (parts, templates, images, firmware) into a new type, or over an existing type (TargetId: its parts and templates are replaced, its files kept)',
        params: scopeParams,
        body: copyTypeRequest,
        response: { 201: envelopeOf(deviceTypeDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.scope, user);
      const { SourceId, TargetId, TypeName } = request.body;
      const copy = await deviceTypes.copy(user, { sourceId: SourceId, targetId: TargetId, typeName: TypeName });
      return reply.status(201).send(ok(request, copy, { message: 'created' }));
    },
  );

  app.post(
    '/:scope/Type/copyfiles',
    {
      config: { access: manage, audit: { subject: types, action: 'copy', id: fromBody('TargetId') } },
      schema: {
        tags,
        summary: "Copy a type's images and firmware files onto another type (appended)",
        params: scopeParams,
        body: copyTypeRequest,
        response: { 200: envelopeOf(deviceTypeDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.scope, user);
      const { SourceId, TargetId } = request.body;
      if (TargetId === undefined) throw new AppError(400, 'rule.required', {}, 'TargetId');
      return ok(request, await deviceTypes.copyFiles(user, SourceId, TargetId), { message: 'saved' });
    },
  );
}
