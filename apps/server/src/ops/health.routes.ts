/**
 * Probes for a load balancer or an orchestrator, outside /api and without a session:
 * GET /healthz answers 200 while the process serves HTTP (alive); GET /readyz answers 200 only
 * when the database answers, every migration this server knows has run, and the MQTT side is up
 * (the embedded broker listening, or the external broker's connections open), else 503 naming
 * what is not ready. While the server shuts down Fastify answers 503 to both.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { pingDatabase } from '../db/database.ts';
import { pendingMigrations } from '../db/migrations.ts';

export interface Readiness {
  ready: boolean;
  checks: { database: string; migrations: string; broker: string };
}

export async function readiness(app: FastifyInstance): Promise<Readiness> {
  const { db, dialect } = app.ctx;
  const database = await pingDatabase(db)
    .then(() => 'ok')
    .catch((error: unknown) => `unreachable: ${error instanceof Error ? error.message : String(error)}`);
  const migrations =
    database === 'ok'
      ? await pendingMigrations(db as Kysely<unknown>, dialect).then(
          (pending) => (pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`),
          (error: unknown) => `unknown: ${error instanceof Error ? error.message : String(error)}`,
        )
      : 'unknown';
  const broker = app.live.brokerProblem() ?? 'ok';
  return {
    ready: database === 'ok' && migrations === 'ok' && broker === 'ok',
    checks: { database, migrations, broker },
  };
}

export function healthRoutes(app: FastifyInstance): void {
  app.get('/healthz', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send({ status: 'alive' });
  });
  app.get('/readyz', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const state = await readiness(app);
    return reply
      .status(state.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: state.ready ? 'ready' : 'not ready', ...state.checks });
  });
}
