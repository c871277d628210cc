/** Tenant (group) calls of spec §7. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addGroupRequest,
  deleteGroupRequest,
  findGroupQuery,
  groupContentsDto,
  GROUP_LOGO_LIMIT,
  groupDto,
  groupWatermarkRequest,
  updateGroupRequest,
} from '@sluice/shared/group.schema';
import { idRef } from '@sluice/shared/schema-fields';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { receiveUpload } from '../../storage/upload.ts';
import { removeStoredFiles } from '../../storage/upload-keys.ts';
import { createTenant } from './tenancy.service.ts';
import { TenantRemovalRepository } from './tenant-removal.repository.ts';
import { fromBody, fromParams, noteAudit } from '../audit/audit-trail.ts';
import { afterCommit } from '../../db/request-transaction.ts';
import { groupSubject } from './group.audit.ts';

const tags = ['Groups'];

export function groupsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { groups, db, storage, dialect, sessions } = app.ctx;
  const removal = new TenantRemovalRepository(db, dialect);

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
      config: { access: 'platform', audit: { subject: groupSubject } },
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
      noteAudit(request, { groupId: created.groupId });
      return reply
        .status(201)
        .send(ok(request, { Id: created.groupId, Account: body.Account, Password: created.password }, { message: 'created' }));
    },
  );

  app.put(
    '/Group/Update',
    {
      config: { access: 'platform', audit: { subject: groupSubject, id: fromBody('Id'), answerIsRecord: true } },
      schema: {
        tags,
        summary: 'The platform administrator edits a group: name, code, description, watermark',
        body: updateGroupRequest,
        response: { 200: envelopeOf(groupDto) },
      },
    },
    async (request) => {
      const { Id, GroupName, Code, Description, Watermark } = request.body;
      if (!(await groups.get(Id))) throw new AppError(404, 'error.notFound');
      noteAudit(request, { groupId: Id });
      if (await groups.nameOrCodeTaken(GroupName, Code, Id))
        throw new AppError(409, 'group.exists', { name: GroupName }, 'GroupName');
      await groups.update(Id, {
        group_name: GroupName,
        code: Code,
        description: Description ?? '',
        ...(Watermark !== undefined ? { watermark: Watermark ? 1 : 0 } : {}),
      });
      const group = await groups.get(Id);
      if (!group) throw new AppError(404, 'error.notFound');
      return ok(request, group, { message: 'saved' });
    },
  );

  app.get(
    '/group/:id/contents',
    {
      config: { access: 'platform' },
      schema: {
        tags,
        summary: 'What removing a group would remove: its users, devices, projects and stations, clients',
        params: z.object({ id: idRef }),
        response: { 200: envelopeOf(groupContentsDto) },
      },
    },
    async (request) => {
      if (!(await groups.get(request.params.id))) throw new AppError(404, 'error.notFound');
      return ok(request, await removal.contents(request.params.id));
    },
  );

  app.delete(
    '/group/:id',
    {
      // The group's audit entries stay (tenant-removal.repository.ts), this call's among them.
      config: { access: 'platform', audit: { subject: groupSubject, id: fromParams('id') } },
      schema: {
        tags,
        summary:
          "The platform administrator removes a group and everything it holds, confirming with the group's code; its sessions end, its devices are disconnected and its stored files deleted",
        params: z.object({ id: idRef }),
        body: deleteGroupRequest,
      },
    },
    async (request) => {
      const user = currentUser(request);
      const group = await groups.get(request.params.id);
      if (!group) throw new AppError(404, 'error.notFound');
      if (group.Id === user.groupId || (await groups.holdsPlatformAdmin(group.Id))) throw new AppError(409, 'group.ownGroup');
      if (request.body.Code.trim().toLowerCase() !== group.Code.toLowerCase())
        throw new AppError(400, 'group.codeMismatch', { code: group.Code }, 'Code');
      noteAudit(request, { groupId: group.Id });
      const removed = await removal.remove(group.Id);
      for (const userId of removed.userIds) sessions.ended({ userId });
      // Once the removal has committed: a failed commit keeps the devices, their connections and the files.
      // The answer waits for the files to be gone: "removed" means removed.
      afterCommit(
        async () => {
          for (const sn of removed.deviceSns) app.live.forget(sn);
          app.live.broker?.closeDevices(removed.deviceSns);
          await removeStoredFiles(storage, removed.fileKeys, request.log);
        },
        { answerWaits: true },
      );
      return ok(request, null, { message: 'deleted' });
    },
  );

  app.put(
    '/group/watermark',
    {
      config: { access: 'admin', audit: { subject: groupSubject, id: (request) => request.user?.groupId, answerIsRecord: true } },
      schema: {
        tags,
        summary: "A group's administrator turns the watermark on the group's pages on or off",
        body: groupWatermarkRequest,
        response: { 200: envelopeOf(groupDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await groups.update(user.groupId, { watermark: request.body.Watermark ? 1 : 0 });
      const group = await groups.get(user.groupId);
      if (!group) throw new AppError(404, 'error.notFound');
      return ok(request, group, { message: 'saved' });
    },
  );

  app.put(
    '/group/logo',
    {
      config: { access: 'admin', audit: { subject: groupSubject, action: 'update' } },
      schema: {
        tags,
        summary:
          "Upload the group logo (PNG, at most 200 KB); the platform administrator may name another group's GroupId (a form field or the query)",
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => {
      const user = currentUser(request);
      let groupId = user.groupId;
      const stored = await receiveUpload(
        request,
        storage,
        { folder: 'group-logo', limit: GROUP_LOGO_LIMIT, kinds: ['png'] },
        {
          fields: async ({ GroupId }) => {
            if (GroupId === undefined || GroupId === '') return;
            const parsed = idRef.safeParse(GroupId);
            if (!parsed.success) throw new AppError(400, 'ref.unknown', { what: 'GroupId', id: GroupId }, 'GroupId');
            if (parsed.data !== user.groupId && !user.isPlatformAdmin) throw new AppError(403, 'auth.otherGroup');
            if (!(await groups.get(parsed.data))) throw new AppError(404, 'error.notFound');
            groupId = parsed.data;
          },
        },
      );
      noteAudit(request, { id: groupId, groupId });
      const previous = (await groups.get(groupId))?.Logo;
      const url = `/uploads/${stored.key}`;
      await groups.setLogo(groupId, url);
      if (previous?.startsWith('/uploads/')) await storage.remove(previous.slice('/uploads/'.length));
      return ok(request, { Logo: url }, { message: 'saved' });
    },
  );
}
