/**
 * Serves the built console: hashed assets cached for a year, everything else revalidated, and
 * history-mode fallback to index.html for any GET outside /api that is not a file.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

export async function registerWebConsole(app: FastifyInstance, dist: string): Promise<boolean> {
  if (!existsSync(path.join(dist, 'index.html'))) {
    app.log.warn({ dist }, 'the console is not built (npm run build); only the API is served');
    return false;
  }
  await app.register(fastifyStatic, {
    root: dist,
    wildcard: false,
    index: false,
    setHeaders(reply, file) {
      const hashed = file.includes(`${path.sep}assets${path.sep}`);
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return true;
}
