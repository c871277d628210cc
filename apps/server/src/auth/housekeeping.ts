/**
 * Forgets what sign-in leaves behind: expired sessions and throttle counts whose time is over.
 * Hourly on every instance; both deletes are idempotent, so instances need not take turns.
 */
import type { FastifyInstance } from 'fastify';

const EVERY_MS = 60 * 60 * 1000;

export function scheduleAuthHousekeeping(app: FastifyInstance): void {
  const { sessions, throttle } = app.ctx;
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    Promise.all([sessions.purgeExpired(), throttle.purge()]).catch((error: unknown) => {
      app.log.warn({ err: error }, 'purging expired sessions and sign-in throttle counts failed');
    });
  };
  app.addHook('onReady', () => {
    timer = setInterval(run, EVERY_MS).unref();
  });
  app.addHook('onClose', () => {
    clearInterval(timer);
  });
}
