/** Tenant (group) calls of spec §7. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addGroupRequest, findGroupQuery, GROUP_LOGO_LIMIT, groupDto } from '@sluice/shared/group.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { receiveUpload } from '../../storage/upload.ts';
import { createTenant } from './tenancy.service.ts';

const tags = ['Groups'];

export function groupsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { groups, db, storage } = app.ctx;

  app.get(
    '/Group/FindByName',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Groups by name (a platform administrator sees all, others their own)',
        querystring: findGroupQuery,
        response: { 200: envelopeOf(z.array(groupDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { Name, PageNo, PageSize } = request.query;
      const { rows, count } = await groups.findByName(
        Name ?? '',
        { pageNo: PageNo, pageSize: PageSize },
        user.isPlatformAdmin ? undefined : user.groupId,
      );
      return ok(request, rows, { count });
    },
  );

  app.get(
    '/group/:id',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'One group',
        params: z.object({ id: z.coerce.number().int() }),
        response: { 200: envelopeOf(groupDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (request.params.id !== user.groupId && !user.isPlatformAdmin) throw new AppError(403, 'auth.otherGroup');
      const group = await groups.get(request.params.id);
      if (!group) throw new AppError(404, 'error.notFound');
      return ok(request, group);
    },
  );

  app.post(
    '/Group/Add',
    {
      config: { access: 'platform' },
      schema: {
        tags,
        summary: 'Create a group with its first administrator; the generated password is returned once',
        body: addGroupRequest,
      },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await createTenant(db, {
        groupName: body.GroupName,
        code: body.Code,
        description: body.Description,
        adminAccount: body.Account,
      });
      return reply
        .status(201)
        .send(ok(request, { Id: created.groupId, Account: body.Account, Password: created.password }, { message: 'created' }));
    },
  );

  app.put(
    '/group/logo',
    {
      config: { access: 'admin' },
      schema: { tags, summary: 'Upload the group logo (PNG, at most 200 KB)', consumes: ['multipart/form-data'] },
    },
    async (request) => {
      const user = currentUser(request);
      const stored = await receiveUpload(request, storage, { folder: 'group-logo', limit: GROUP_LOGO_LIMIT, kinds: ['png'] });
      const previous = (await groups.get(user.groupId))?.Logo;
      const url = `/uploads/${stored.key}`;
      await groups.setLogo(user.groupId, url);
      if (previous?.startsWith('/uploads/')) await storage.remove(previous.slice('/uploads/'.length));
      return ok(request, { Logo: url }, { message: 'saved' });
    },
  );
}
