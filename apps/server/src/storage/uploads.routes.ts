/**
 * Serves stored uploads by their generated keys, with the content type of their kind. Folders in
 * PRIVATE_FOLDERS are never served here: their files go out through a call that checks who asks
 * (avatars: GET /api/user/Picture/{id}, within the group).
 */
import type { FastifyInstance } from 'fastify';
import { CONTENT_TYPES, type FileKind } from './file-types.ts';
import { AppError } from '../http/errors.ts';

export const AVATAR_FOLDER = 'avatar';
const PRIVATE_FOLDERS = [AVATAR_FOLDER];

export function uploadsRoutes(app: FastifyInstance): void {
  app.get('/uploads/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const key = (request.params as { '*': string })['*'];
    const extension = key.split('.').pop() ?? '';
    const folder = key.split('/', 1)[0] ?? '';
    const served = Object.hasOwn(CONTENT_TYPES, extension) && !PRIVATE_FOLDERS.includes(folder.toLowerCase());
    const stream = served ? await app.ctx.storage.open(key) : undefined;
    if (!stream) throw new AppError(404, 'error.notFound');
    return reply
      .header('content-type', CONTENT_TYPES[extension as FileKind])
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(stream);
  });
}
