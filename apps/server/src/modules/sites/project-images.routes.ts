/** Project images (spec §3 Project image, §7, §9: 5 MB, png/jpeg/bmp; Sn 0 is the cover). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROJECT_IMAGE_LIMIT, projectImageDto } from '@sluice/shared/project.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { receiveUpload } from '../../storage/upload.ts';
import { SiteScope } from './site-scope.ts';
import { imageUrl } from './projects.repository.ts';

const tags = ['Projects'];
const id = z.coerce.number().int().positive();
const params = z.object({ g: z.string(), projectId: id });

export function projectImagesRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { db, storage } = app.ctx;
  const scope = new SiteScope(db);

  const list = async (groupId: number, projectId: number) => {
    const rows = await db
      .selectFrom('project_images')
      .select(['id', 'project_id', 'storage_key', 'sn'])
      .where('group_id', '=', groupId)
      .where('project_id', '=', projectId)
      .orderBy('sn')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ Id: r.id, ProjectId: r.project_id, url: imageUrl(r.storage_key), Sn: r.sn }));
  };

  app.get(
    '/:g/:projectId/ProjectImage',
    { config: { access: { operate: 'project.view' } }, schema: { tags, summary: "A project's or station's images, the cover (Sn 0) first", params, response: { 200: envelopeOf(z.array(projectImageDto)) } } },
    async (request) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.params.projectId);
      return ok(request, await list(user.groupId, project.id));
    },
  );

  app.post(
    '/:g/:projectId/ProjectImage',
    {
      config: { access: { operate: 'project.manage' } },
      schema: {
        tags,
        summary: 'Upload an image (multipart "file"; png, jpeg or bmp by content, at most 5 MB). Sn=0 makes it the cover; the first image is the cover.',
        consumes: ['multipart/form-data'],
        params,
        querystring: z.object({ Sn: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(10000).optional()) }),
        response: { 201: envelopeOf(projectImageDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // Reach the project before reading a byte of the file.
      const project = await scope.project(user, request.params.projectId, 'write');
      const stored = await receiveUpload(request, storage, { folder: 'project-images', limit: PROJECT_IMAGE_LIMIT, kinds: ['png', 'jpeg', 'bmp'] });
      let created;
      try {
        created = await db.transaction().execute(async (trx) => {
          const top = await trx
            .selectFrom('project_images')
            .select((eb) => [eb.fn.max<number | null>('sn').as('max'), eb.fn.countAll<number>().as('n')])
            .where('project_id', '=', project.id)
            .executeTakeFirstOrThrow();
          const next = (top.max ?? 0) + 1;
          const cover = request.query.Sn === 0 || top.n === 0;
          if (cover) await trx.updateTable('project_images').set({ sn: next }).where('project_id', '=', project.id).where('sn', '=', 0).execute();
          const sn = cover ? 0 : (request.query.Sn ?? next);
          const row = await trx
            .insertInto('project_images')
            .values({ group_id: user.groupId, project_id: project.id, storage_key: stored.key, sn, created_at: Date.now() })
            .returning('id')
            .executeTakeFirstOrThrow();
          return { Id: row.id, ProjectId: project.id, url: imageUrl(stored.key), Sn: sn };
        });
      } catch (error) {
        await storage.remove(stored.key);
        throw error;
      }
      return reply.status(201).send(ok(request, created, { message: 'saved' }));
    },
  );

  app.delete(
    '/:g/:projectId/ProjectImage/:id',
    { config: { access: { operate: 'project.manage' } }, schema: { tags, summary: 'Delete an image and its file', params: params.extend({ id }) } },
    async (request) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.params.projectId, 'write');
      const image = await db
        .selectFrom('project_images')
        .select(['id', 'storage_key'])
        .where('id', '=', request.params.id)
        .where('project_id', '=', project.id)
        .where('group_id', '=', user.groupId)
        .executeTakeFirst();
      if (!image) throw new AppError(404, 'error.notFound');
      await db.deleteFrom('project_images').where('id', '=', image.id).execute();
      await storage.remove(image.storage_key);
      return ok(request, null, { message: 'deleted' });
    },
  );
}
