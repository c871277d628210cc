/**
 * One log line per request, when it has been answered: method, path, status and milliseconds.
 * Fastify's own request logging writes two (received, completed) with the whole URL; the path
 * alone keeps query parameters out of the log.
 */
import type { FastifyInstance } from 'fastify';

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    const path = request.url.split('?')[0] ?? '';
    request.log.info(
      { method: request.method, path, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      `${request.method} ${path} ${String(reply.statusCode)}`,
    );
    done();
  });
}
