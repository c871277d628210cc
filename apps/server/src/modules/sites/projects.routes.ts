/** Projects and stations (spec §7 Projects): the tree client → project → station. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageQuery } from '@sluice/shared/paging.schema';
import {
  addProjectRequest,
  PROJECT_TYPE,
  projectDto,
  projectInfoDto,
  projectListQuery,
  projectPageDto,
  updateProjectRequest,
  userProjectDto,
} from '@sluice/shared/project.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { idRef } from '@sluice/shared/schema-fields';
import { fromBody, fromParams } from '../audit/audit-trail.ts';
import { projectSubject } from './site.audit.ts';

const tags = ['Projects'];
const view = { operate: 'project.view' } as const;
const manage = { operate: 'project.manage' } as const;
const id = idRef;
const listQuery = z.intersection(pageQuery, projectListQuery);
/** mySite's spec default page size is 10, as every list's. */
const pageParams = z.object({ g: z.string() });

export function projectsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { users } = app.ctx;
  const service = app.ctx.projects;
  const { repository, scope } = service;

  app.get(
    '/:g/project',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'Clients, projects and stations the caller reaches (paged; ProjectType, ParentId, ClientId, Online filter)',
        params: pageParams,
        querystring: listQuery,
        response: { 200: envelopeOf(z.array(projectDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const q = request.query;
      const { rows, count } = await repository.page(
        user,
        {
          ...(q.ProjectType !== undefined ? { types: [q.ProjectType] } : {}),
          parentId: q.ParentId,
          online: q.Online,
          clientId: q.ClientId,
        },
        q,
      );
      return ok(request, await repository.summarize(user.groupId, rows), { count });
    },
  );

  const paged = (path: string, type: number, summary: string) =>
    app.get(
      path,
      {
        config: { access: view },
        schema: { tags, summary, params: pageParams, querystring: listQuery, response: { 200: envelopeOf(projectPageDto) } },
      },
      async (request) => {
        const user = currentUser(request);
        const q = request.query;
        const { rows, count } = await repository.page(
          user,
          { types: [type], parentId: q.ParentId, online: q.Online, clientId: q.ClientId },
          q,
        );
        const data = await repository.summarize(user.groupId, rows);
        return ok(
          request,
          { data, count, totalPage: Math.ceil(count / q.PageSize), currentPage: q.PageNo, pageSize: q.PageSize },
          { count },
        );
      },
    );
  paged('/:g/project/myProject', PROJECT_TYPE.project, 'Projects the caller reaches (paged; ParentId a client)');
  paged(
    '/:g/project/mySite',
    PROJECT_TYPE.station,
    'Stations the caller reaches (paged, 10 a page by default; ParentId a project)',
  );

  app.get(
    '/:g/project/info/:id',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'One node with its children',
        params: z.object({ g: z.string(), id }),
        response: { 200: envelopeOf(projectInfoDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const row = await scope.project(user, request.params.id);
      const children = await repository.all(user, { parentId: row.id });
      const [dto] = await repository.summarize(user.groupId, [row]);
      if (!dto) throw new AppError(404, 'error.notFound');
      return ok(request, { ...dto, Child: await repository.summarize(user.groupId, children) });
    },
  );

  app.get(
    '/:g/project/Child/:id',
    {
      config: { access: view },
      schema: {
        tags,
        summary: 'The children of a node',
        params: z.object({ g: z.string(), id }),
        response: { 200: envelopeOf(z.array(projectDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const row = await scope.project(user, request.params.id);
      return ok(request, await repository.summarize(user.groupId, await repository.all(user, { parentId: row.id })));
    },
  );

  app.post(
    '/:g/project',
    {
      config: { access: manage, audit: { subject: projectSubject, answerIsRecord: true } },
      schema: {
        tags,
        summary: 'Add a client (-1), project (0) or station (1)',
        params: pageParams,
        body: addProjectRequest,
        response: { 201: envelopeOf(projectDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const created = await service.create(user, request.body);
      const row = await repository.byId(user.groupId, created);
      const [dto] = row ? await repository.summarize(user.groupId, [row]) : [];
      if (!dto) throw new AppError(404, 'error.notFound');
      return reply.status(201).send(ok(request, dto, { message: 'created' }));
    },
  );

  app.put(
    '/:g/project',
    {
      config: { access: manage, audit: { subject: projectSubject, id: fromBody('Id'), answerIsRecord: true } },
      schema: {
        tags,
        summary: 'Edit a node (its type stays)',
        params: pageParams,
        body: updateProjectRequest,
        response: { 200: envelopeOf(projectDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await service.update(user, request.body);
      const row = await repository.byId(user.groupId, request.body.Id);
      const [dto] = row ? await repository.summarize(user.groupId, [row]) : [];
      if (!dto) throw new AppError(404, 'error.notFound');
      return ok(request, dto, { message: 'saved' });
    },
  );

  app.delete(
    '/:g/project/:id',
    {
      config: { access: manage, audit: { subject: projectSubject, id: fromParams('id') } },
      schema: {
        tags,
        summary: 'Delete an empty node (refused while it holds stations or devices)',
        params: z.object({ g: z.string(), id }),
      },
    },
    async (request) => {
      await service.remove(currentUser(request), request.params.id);
      return ok(request, null, { message: 'deleted' });
    },
  );

  app.get(
    '/Project/FindUserProject',
    {
      config: { access: view },
      schema: {
        tags,
        summary: "The projects and stations a user reaches (the caller's own; an administrator may name UserId)",
        querystring: z.object({ UserId: z.preprocess((v) => (v === '' ? undefined : v), id.optional()) }),
        response: { 200: envelopeOf(z.array(userProjectDto)) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      let user = caller;
      const asked = request.query.UserId;
      if (asked !== undefined && asked !== caller.id) {
        if (!caller.isAdmin) throw new AppError(403, 'auth.forbidden');
        const other = await users.current(asked);
        if (other?.groupId !== caller.groupId) throw new AppError(404, 'error.notFound');
        user = other;
      }
      const rows = await repository.all(user, {});
      return ok(
        request,
        rows.map((r) => ({ Id: r.id, Name: r.name, ProjectType: r.project_type, ParentId: r.parent_id })),
      );
    },
  );
}
