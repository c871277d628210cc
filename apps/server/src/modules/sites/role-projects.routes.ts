/**
 * Role-project grants (spec §6 "a list of projects it may access", §7 roleproject): which
 * projects a role's users reach. site-scope.ts enforces them on every project and device query.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { roleProjectDto } from '@sluice/shared/project.schema';
import { roleProjectsRequest } from '@sluice/shared/role.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { checkGroupSegment } from './path-group.ts';
import { idRef } from '@sluice/shared/schema-fields';
import { fromBody } from '../audit/audit-trail.ts';
import { roleGrantsSubject } from '../roles/role.audit.ts';

const tags = ['Roles'];

export function roleProjectsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const grants = app.ctx.roleProjects;

  app.get(
    '/:module/roleproject/:roleId',
    {
      config: { access: { operate: 'role.view' } },
      schema: {
        tags,
        summary: 'The projects a role reaches (Operate 0 full, 1 view only; TypeId repeats Operate)',
        params: z.object({ module: z.string(), roleId: idRef }),
        response: { 200: envelopeOf(z.array(roleProjectDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.module, user);
      if (!(await grants.roleInGroup(request.params.roleId, user.groupId))) throw new AppError(404, 'error.notFound');
      return ok(request, await grants.grants(request.params.roleId, user.groupId));
    },
  );

  app.post(
    '/:module/roleproject',
    {
      config: {
        access: { operate: 'role.manage' },
        audit: { subject: roleGrantsSubject, action: 'update', id: fromBody('RoleId') },
      },
      schema: {
        tags,
        summary:
          'Grant a role one project (RoleId, ProjectId, Operate: the spec’s body) or set the full set of projects it reaches (Projects)',
        params: z.object({ module: z.string() }),
        body: roleProjectsRequest,
      },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.module, user);
      const { RoleId, ProjectId, Operate, Projects = [] } = request.body;
      if (!(await grants.roleInGroup(RoleId, user.groupId))) throw new AppError(404, 'error.notFound');
      if (ProjectId !== undefined) {
        if ((await grants.firstForeign([ProjectId], user.groupId)) !== undefined)
          throw new AppError(400, 'ref.unknown', { what: 'ProjectId', id: ProjectId }, 'ProjectId');
        await grants.grant(RoleId, ProjectId, Operate);
        return ok(request, null, { message: 'saved' });
      }
      const wanted = new Map(Projects.map((p) => [p.ProjectId, p.Operate]));
      const foreign = await grants.firstForeign([...wanted.keys()], user.groupId);
      if (foreign !== undefined) throw new AppError(400, 'ref.unknown', { what: 'ProjectId', id: foreign }, 'Projects');
      await grants.replace(RoleId, wanted);
      return ok(request, null, { message: 'saved' });
    },
  );
}
