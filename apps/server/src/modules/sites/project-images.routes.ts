/** Project images (spec §3 Project image, §7, §9: 5 MB, png/jpeg/bmp; Sn 0 is the cover). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PROJECT_IMAGE_LIMIT, projectImageDto } from '@sluice/shared/project.schema';
import { currentUser } from '../../auth/access.ts';
import { AppError } from '../../http/errors.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';
import { receiveUpload, recordUpload } from '../../storage/upload.ts';
import { idRef } from '@sluice/shared/schema-fields';
import { fromParams } from '../audit/audit-trail.ts';
import { projectImageSubject } from './site.audit.ts';

const tags = ['Projects'];
const id = idRef;
const params = z.object({ g: z.string(), projectId: id });

export function projectImagesRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { storage } = app.ctx;
  const { scope } = app.ctx;

  const images = app.ctx.projectImages;

  app.get(
    '/:g/:projectId/ProjectImage',
    {
      config: { access: { operate: 'project.view' } },
      schema: {
        tags,
        summary: "A project's or station's images, the cover (Sn 0) first",
        params,
        response: { 200: envelopeOf(z.array(projectImageDto)) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.params.projectId);
      return ok(request, await images.list(user.groupId, project.id));
    },
  );

  app.post(
    '/:g/:projectId/ProjectImage',
    {
      config: { access: { operate: 'project.manage' }, audit: { subject: projectImageSubject } },
      schema: {
        tags,
        summary:
          'Upload an image (multipart "file"; png, jpeg or bmp by content, at most 5 MB). Sn=0 makes it the cover; the first image is the cover.',
        consumes: ['multipart/form-data'],
        params,
        querystring: z.object({
          Sn: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(10000).optional()),
        }),
        response: { 201: envelopeOf(projectImageDto) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      // Reach the project before reading a byte of the file.
      const project = await scope.project(user, request.params.projectId, 'write');
      const stored = await receiveUpload(request, storage, {
        folder: 'project-images',
        limit: PROJECT_IMAGE_LIMIT,
        kinds: ['png', 'jpeg', 'bmp'],
      });
      const created = await recordUpload(storage, stored, () =>
        images.add(user.groupId, project.id, stored.key, request.query.Sn),
      );
      return reply.status(201).send(ok(request, created, { message: 'saved' }));
    },
  );

  app.delete(
    '/:g/:projectId/ProjectImage/:id',
    {
      config: { access: { operate: 'project.manage' }, audit: { subject: projectImageSubject, id: fromParams('id') } },
      schema: { tags, summary: 'Delete an image and its file', params: params.extend({ id }) },
    },
    async (request) => {
      const user = currentUser(request);
      const project = await scope.project(user, request.params.projectId, 'write');
      const key = await images.remove(user.groupId, project.id, request.params.id);
      if (key === undefined) throw new AppError(404, 'error.notFound');
      await storage.remove(key);
      return ok(request, null, { message: 'deleted' });
    },
  );
}
