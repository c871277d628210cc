/**
 * Warn (alarm) types and codes (spec §7 Alarms: warntype, warnCode, WarnCode/GetWarnCode,
 * {typeId}/warncode). Codes are unique in a group and addressed by their code under their type.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addWarnCodeRequest,
  addWarnTypeRequest,
  updateWarnCodeRequest,
  updateWarnTypeRequest,
  warnCodeDto,
  warnTypeDto,
} from '@sluice/shared/warn.schema';
import { warnCodeValue } from '@sluice/shared/data-define.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import type { Db } from '../../db/database.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';

const tags = ['Alarms'];
const manage = { operate: 'system.manage' } as const;

/** Adds each code's warn type name and colour, in one query. */
async function withTypeNames(db: Db, groupId: number, rows: Record<string, unknown>[]) {
  const ids = [...new Set(rows.map((r) => Number(r.warn_type_id)))];
  const types = ids.length
    ? await db
        .selectFrom('warn_types')
        .select(['id', 'type_name', 'color'])
        .where('group_id', '=', groupId)
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(types.map((t) => [t.id, t]));
  return rows.map((r) => ({
    ...r,
    type_name: byId.get(Number(r.warn_type_id))?.type_name ?? '',
    color: byId.get(Number(r.warn_type_id))?.color ?? '',
  }));
}

export function warnRoutes(root: FastifyInstance): void {
  const { db } = root.ctx;

  registerResource(root, {
    table: 'warn_types',
    tags,
    access: { read: 'session', write: manage },
    dto: warnTypeDto,
    create: addWarnTypeRequest,
    update: updateWarnTypeRequest,
    sortable: ['TypeName'],
    searchable: ['TypeName'],
    unique: [{ key: 'TypeName', message: 'warnType.exists' }],
    routes: {
      all: 'GET /warntype',
      list: 'GET /warntype/pages',
      get: 'GET /warntype/:id',
      create: 'POST /warntype',
      update: 'PUT /warntype',
      remove: 'DELETE /warntype/:id',
    },
    beforeRemove: async (database, type, user) => {
      const code = await database
        .selectFrom('warn_codes')
        .select('id')
        .where('group_id', '=', user.groupId)
        .where('warn_type_id', '=', type.Id)
        .executeTakeFirst();
      if (code) throw new AppError(409, 'warnType.inUse', { name: type.TypeName });
    },
  });

  const warnTypeFilter = {
    warnTypeId: { key: 'WarnTypeId' as const, schema: idRef },
    WarnTypeId: { key: 'WarnTypeId' as const, schema: idRef },
  };
  registerResource(root, {
    table: 'warn_codes',
    tags,
    access: { read: 'session', write: manage },
    dto: warnCodeDto,
    // Codes are written by the {typeId}/warncode calls below.
    create: addWarnCodeRequest,
    update: updateWarnCodeRequest,
    computed: { TypeName: (row) => row.type_name, Color: (row) => row.color },
    sortable: ['Code', 'Description', 'WarnTypeId'],
    searchable: ['Code', 'Description'],
    filters: warnTypeFilter,
    defaultOrder: { key: 'Code', direction: 'asc' },
    enrich: (rows, user) => withTypeNames(db, user.groupId, rows),
    routes: { list: 'GET /warnCode', all: 'GET /WarnCode/GetWarnCode' },
  });

  const app = root.withTypeProvider<ZodTypeProvider>();
  const typeParams = z.object({ typeId: idRef });
  const codeParams = z.object({ typeId: idRef, code: warnCodeValue });

  const typeOf = async (groupId: number, id: number) => {
    const type = await db
      .selectFrom('warn_types')
      .select('id')
      .where('id', '=', id)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    if (!type) throw new AppError(404, 'error.notFound');
    return type.id;
  };
  const codeOf = async (groupId: number, typeId: number, code: string) => {
    const row = await db
      .selectFrom('warn_codes')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('warn_type_id', '=', typeId)
      .where('code', '=', code)
      .executeTakeFirst();
    if (!row) throw new AppError(404, 'warnCode.unknown', { code });
    return row;
  };
  const dto = async (groupId: number, id: number) => {
    const row = await db.selectFrom('warn_codes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const [named] = await withTypeNames(db, groupId, [row]);
    return {
      Id: row.id,
      Code: row.code,
      Description: row.description,
      WarnTypeId: row.warn_type_id,
      TypeName: named?.type_name ?? '',
      Color: named?.color ?? '',
    };
  };

  app.get(
    '/WarnCode/GetWarnCode/:code',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One warn code by its code',
        params: z.object({ code: warnCodeValue }),
        response: { 200: envelopeOf(warnCodeDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const row = await db
        .selectFrom('warn_codes')
        .select('id')
        .where('group_id', '=', user.groupId)
        .where('code', '=', request.params.code)
        .executeTakeFirst();
      if (!row) throw new AppError(404, 'warnCode.unknown', { code: request.params.code });
      return ok(request, await dto(user.groupId, row.id));
    },
  );

  app.post(
    '/:typeId/warncode',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: 'Add a warn code to a warn type',
        params: typeParams,
        body: addWarnCodeRequest,
        response: { 201: envelopeOf(warnCodeDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const typeId = await typeOf(user.groupId, request.params.typeId);
      const { Code, Description } = request.body;
      const taken = await db
        .selectFrom('warn_codes')
        .select('id')
        .where('group_id', '=', user.groupId)
        .where('code', '=', Code)
        .executeTakeFirst();
      if (taken) throw new AppError(409, 'warnCode.exists', { code: Code }, 'Code');
      const { id } = await db
        .insertInto('warn_codes')
        .values({ group_id: user.groupId, warn_type_id: typeId, code: Code, description: Description })
        .returning('id')
        .executeTakeFirstOrThrow();
      return reply.status(201).send(ok(request, await dto(user.groupId, id), { message: 'created' }));
    },
  );

  app.put(
    '/:typeId/warncode/:code',
    {
      config: { access: manage },
      schema: {
        tags,
        summary: "Change a warn code's description (or move it to another warn type)",
        params: codeParams,
        body: updateWarnCodeRequest,
        response: { 200: envelopeOf(warnCodeDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const typeId = await typeOf(user.groupId, request.params.typeId);
      const row = await codeOf(user.groupId, typeId, request.params.code);
      const { Description, WarnTypeId } = request.body;
      const target =
        WarnTypeId === undefined
          ? typeId
          : await typeOf(user.groupId, WarnTypeId).catch(() => {
              throw new AppError(400, 'ref.unknown', { what: 'WarnTypeId', id: WarnTypeId }, 'WarnTypeId');
            });
      await db
        .updateTable('warn_codes')
        .set({ description: Description, warn_type_id: target })
        .where('id', '=', row.id)
        .execute();
      return ok(request, await dto(user.groupId, row.id), { message: 'saved' });
    },
  );

  app.delete(
    '/:typeId/warncode/:code',
    {
      config: { access: manage },
      schema: { tags, summary: 'Delete a warn code (refused while data points are linked to it)', params: codeParams },
    },
    async (request) => {
      const user = currentUser(request);
      const typeId = await typeOf(user.groupId, request.params.typeId);
      const row = await codeOf(user.groupId, typeId, request.params.code);
      const linked = await db
        .selectFrom('data_define_warn_codes')
        .select('id')
        .where('group_id', '=', user.groupId)
        .where('code', '=', row.code)
        .executeTakeFirst();
      if (linked) throw new AppError(409, 'warnCode.inUse', { code: row.code });
      await db.deleteFrom('warn_codes').where('id', '=', row.id).execute();
      return ok(request, null, { message: 'deleted' });
    },
  );
}
