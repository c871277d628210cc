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

const tags = ['Roles'];

export function roleProjectsRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  const roleOfGroup = async (roleId: number, groupId: number) => {
    const role = await db.selectFrom('roles').select('id').where('id', '=', roleId).where('group_id', '=', groupId).executeTakeFirst();
    if (!role) throw new AppError(404, 'error.notFound');
  };

  app.get(
    '/:module/roleproject/:roleId',
    {
      config: { access: { operate: 'role.view' } },
      schema: { tags, summary: 'The projects a role reaches (Operate 0 full, 1 view only; TypeId repeats Operate)', params: z.object({ module: z.string(), roleId: z.coerce.number().int().positive() }), response: { 200: envelopeOf(z.array(roleProjectDto)) } },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.module, user);
      await roleOfGroup(request.params.roleId, user.groupId);
      const rows = await db
        .selectFrom('role_projects')
        .innerJoin('projects', 'projects.id', 'role_projects.project_id')
        .select(['role_projects.role_id', 'role_projects.project_id', 'role_projects.operate', 'projects.name', 'projects.project_type'])
        .where('role_projects.role_id', '=', request.params.roleId)
        .where('projects.group_id', '=', user.groupId)
        .orderBy('projects.project_type')
        .orderBy('projects.name')
        .execute();
      return ok(
        request,
        rows.map((r) => ({ RoleId: r.role_id, ProjectId: r.project_id, ProjectName: r.name, ProjectType: r.project_type, Operate: r.operate, TypeId: r.operate })),
      );
    },
  );

  app.post(
    '/:module/roleproject',
    {
      config: { access: { operate: 'role.manage' } },
      schema: { tags, summary: 'Set the full set of projects a role reaches', params: z.object({ module: z.string() }), body: roleProjectsRequest },
    },
    async (request) => {
      const user = currentUser(request);
      checkGroupSegment(request.params.module, user);
      const { RoleId, Projects } = request.body;
      await roleOfGroup(RoleId, user.groupId);
      const wanted = new Map(Projects.map((p) => [p.ProjectId, p.Operate]));
      const ids = [...wanted.keys()];
      if (ids.length) {
        const found = await db.selectFrom('projects').select('id').where('id', 'in', ids).where('group_id', '=', user.groupId).execute();
        const known = new Set(found.map((f) => f.id));
        const unknown = ids.find((i) => !known.has(i));
        if (unknown !== undefined) throw new AppError(400, 'ref.unknown', { what: 'ProjectId', id: unknown }, 'Projects');
      }
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('role_projects').where('role_id', '=', RoleId).execute();
        if (ids.length) {
          await trx
            .insertInto('role_projects')
            .values(ids.map((projectId) => ({ role_id: RoleId, project_id: projectId, operate: wanted.get(projectId) ?? 0 })))
            .execute();
        }
      });
      return ok(request, null, { message: 'saved' });
    },
  );
}
