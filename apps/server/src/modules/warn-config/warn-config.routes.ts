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
import { envelopeOf, ok } from '../../http/envelope.ts';
import { registerResource } from '../../http/resource.ts';
import { fromBody, fromParams, type AuditSubject } from '../audit/audit-trail.ts';

const tags = ['Alarms'];
const manage = { operate: 'system.manage' } as const;

export function warnConfigRoutes(root: FastifyInstance): void {
  const { warnConfig } = root.ctx;

  registerResource(root, {
    table: 'warn_types',
    audit: { kind: 'warnType' },
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
    beforeRemove: (_db, type, user) => warnConfig.checkTypeRemovable(user.groupId, type),
  });

  const warnTypeFilter = {
    warnTypeId: { key: 'WarnTypeId' as const, schema: idRef },
    WarnTypeId: { key: 'WarnTypeId' as const, schema: idRef },
  };
  registerResource(root, {
    table: 'warn_codes',
    audit: { kind: 'warnCode' },
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
    enrich: (rows, user) => warnConfig.withTypeNames(user.groupId, rows),
    routes: { list: 'GET /warnCode', all: 'GET /WarnCode/GetWarnCode' },
  });

  /** A warn code by its code, as the calls below name it. */
  const codeSubject: AuditSubject = {
    kind: 'warnCode',
    load: async (_ctx, user, code) => {
      if (!user) return null;
      const row = await warnConfig.code(user.groupId, String(code)).catch(() => undefined);
      return row ? warnConfig.dto(user.groupId, row.id) : null;
    },
  };

  const app = root.withTypeProvider<ZodTypeProvider>();
  const typeParams = z.object({ typeId: idRef });
  const codeParams = z.object({ typeId: idRef, code: warnCodeValue });

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
      const row = await warnConfig.code(user.groupId, request.params.code);
      return ok(request, await warnConfig.dto(user.groupId, row.id));
    },
  );

  app.post(
    '/:typeId/warncode',
    {
      config: { access: manage, audit: { subject: codeSubject, id: fromBody('Code') } },
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
      const { Code, Description } = request.body;
      const created = await warnConfig.addCode(user.groupId, request.params.typeId, Code, Description);
      return reply.status(201).send(ok(request, created, { message: 'created' }));
    },
  );

  app.put(
    '/:typeId/warncode/:code',
    {
      config: { access: manage, audit: { subject: codeSubject, id: fromParams('code') } },
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
      const { Description, WarnTypeId } = request.body;
      const saved = await warnConfig.updateCode(
        user.groupId,
        request.params.typeId,
        request.params.code,
        Description,
        WarnTypeId,
      );
      return ok(request, saved, { message: 'saved' });
    },
  );

  app.delete(
    '/:typeId/warncode/:code',
    {
      config: { access: manage, audit: { subject: codeSubject, id: fromParams('code') } },
      schema: { tags, summary: 'Delete a warn code (refused while data points are linked to it)', params: codeParams },
    },
    async (request) => {
      const user = currentUser(request);
      await warnConfig.deleteCode(user.groupId, request.params.typeId, request.params.code);
      return ok(request, null, { message: 'deleted' });
    },
  );
}
