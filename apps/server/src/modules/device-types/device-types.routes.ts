/**
 * Device types (spec §7 Device types: Type, DeviceType/GetDeviceType, {x}/Type/Copy and
 * {x}/Type/copyfiles). A type's parts, files and templates have their own route files.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addDeviceTypeRequest,
  copyTypeRequest,
  deviceTypeDto,
  updateDeviceTypeRequest,
  type DeviceTypeDto,
} from '@sluice/shared/device-type.schema';
import { z } from 'zod';
import { currentUser } from '../../auth/access.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { checkGroupSegment } from '../sites/path-group.ts';
import { copyType, copyTypeFiles } from './type-copy.service.ts';

const tags = ['Device types'];
const manage = { operate: 'system.manage' } as const;

async function typeDto(db: Db, groupId: number, id: number): Promise<DeviceTypeDto> {
  const row = await db
    .selectFrom('device_types')
    .selectAll()
    .where('id', '=', id)
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  return {
    Id: row.id,
    TypeName: row.type_name,
    DeviceTypeName: row.type_name,
    ICON: row.icon,
    ParentId: row.parent_id,
    Description: row.description,
    Status: row.status,
  };
}

export function deviceTypesRoutes(root: FastifyInstance): void {
  const { db, storage } = root.ctx;

  /** The parent must be another type of the group and not below the type itself. */
  const checkParent = async (parentId: number, groupId: number, selfId?: number) => {
    if (parentId === 0) return;
    const types = await db.selectFrom('device_types').select(['id', 'parent_id']).where('group_id', '=', groupId).execute();
    const parentOf = new Map(types.map((t) => [t.id, t.parent_id]));
    if (!parentOf.has(parentId)) throw new AppError(400, 'deviceType.badParent', {}, 'ParentId');
    for (
      let at: number | undefined = parentId, hops = 0;
      at !== undefined && at !== 0 && hops <= types.length;
      at = parentOf.get(at), hops++
    ) {
      if (at === selfId) throw new AppError(400, 'deviceType.badParent', {}, 'ParentId');
    }
  };

  registerResource(root, {
    table: 'device_types',
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
      if (typeof row.parent_id === 'number') await checkParent(row.parent_id, user.groupId);
      return row;
    },
    beforeUpdate: async (id, row, user) => {
      if (typeof row.parent_id === 'number') await checkParent(row.parent_id, user.groupId, id);
    },
    beforeRemove: async (database, type, user) => {
      const child = await database
        .selectFrom('device_types')
        .select('id')
        .where('group_id', '=', user.groupId)
        .where('parent_id', '=', type.Id)
        .executeTakeFirst();
      if (child) throw new AppError(409, 'deviceType.hasChildren', { name: type.TypeName });
      const { count } = await database
        .selectFrom('devices')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('group_id', '=', user.groupId)
        .where('type_id', '=', type.Id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(count) > 0) throw new AppError(409, 'deviceType.inUse', { name: type.TypeName, count: Number(count) });
      // The rows go with the type (foreign keys cascade); the stored files are removed here.
      const images = await database.selectFrom('type_images').select('storage_key').where('type_id', '=', type.Id).execute();
      const files = await database.selectFrom('type_update_files').select('storage_key').where('type_id', '=', type.Id).execute();
      for (const { storage_key } of [...images, ...files]) await storage.remove(storage_key);
    },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  // {x} in Type/Copy: older consoles put a word or the group id there; a number must be the caller's group.
  const scopeParams = z.object({ scope: z.string().max(64) });

  app.post(
    '/:scope/Type/Copy',
    {
      config: { access: manage },
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
      const written: string[] = [];
      try {
        const targetId = await db
          .transaction()
          .execute((trx) =>
            copyType(trx, storage, user.groupId, { sourceId: SourceId, targetId: TargetId, typeName: TypeName }, written),
          );
        return await reply.status(201).send(ok(request, await typeDto(db, user.groupId, targetId), { message: 'created' }));
      } catch (error) {
        for (const key of written) await storage.remove(key);
        throw error;
      }
    },
  );

  app.post(
    '/:scope/Type/copyfiles',
    {
      config: { access: manage },
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
      if (SourceId === TargetId) throw new AppError(400, 'deviceType.copySelf', {}, 'TargetId');
      const owned = await db
        .selectFrom('device_types')
        .select('id')
        .where('group_id', '=', user.groupId)
        .where('id', 'in', [SourceId, TargetId])
        .execute();
      if (owned.length !== 2) throw new AppError(404, 'error.notFound');
      const written: string[] = [];
      try {
        await db.transaction().execute((trx) => copyTypeFiles(trx, storage, user.groupId, SourceId, TargetId, written));
      } catch (error) {
        for (const key of written) await storage.remove(key);
        throw error;
      }
      return ok(request, await typeDto(db, user.groupId, TargetId), { message: 'saved' });
    },
  );
}
