/**
 * HJ 212 over TCP, wired once per app beside live data: the listener (on HJ212_PORT from
 * `start()`, when the variable is set) feeding the same ingestion as MQTT, and the forwarding
 * job (from `start()`) sending stored data to supervising platforms.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { RefusalLog } from '../telemetry/refusal-log.ts';
import { Hj212Repository } from './hj212.repository.ts';
import { Hj212Listener } from './hj212-listener.ts';
import { Hj212Forwarder } from './hj212-forwarder.ts';
import { instanceName } from '../../ops/instance.ts';

export interface Hj212 {
  repository: Hj212Repository;
  listener: Hj212Listener;
  forwarder: Hj212Forwarder;
  /** The TCP port once listening (undefined while off). */
  port: number | undefined;
  start(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    hj212: Hj212;
  }
}

export const hj212Plugin = fp(
  (app: FastifyInstance, _options: unknown, done: () => void) => {
    const { config, db } = app.ctx;
    const { live } = app;
    const log = app.log.child({ module: 'hj212' });
    const repository = new Hj212Repository(db);
    const listener = new Hj212Listener({
      repository,
      ingestion: live.ingestion,
      refusals: new RefusalLog({ logs: live.logs, log }),
      online: live.online,
      busy: () => live.writer.full || live.ingestion.pending > config.INGEST_QUEUE_POINTS / 20,
      offsetMinutes: live.offsetMinutes,
      log,
      instance: instanceName(config),
    });
    const forwarder = new Hj212Forwarder({
      repository,
      history: live.history,
      secrets: app.ctx.secrets,
      offsetMinutes: live.offsetMinutes,
      log,
      graceMs: config.HJ212_FORWARD_GRACE * 1000,
      retryMs: config.HJ212_FORWARD_RETRY * 1000,
      leads: () => live.leader.leads(),
    });
    const hj212: Hj212 = {
      repository,
      listener,
      forwarder,
      port: undefined,
      async start() {
        forwarder.start();
        listener.startSweeping(() => live.leader.leads());
        if (config.HJ212_PORT === undefined || hj212.port !== undefined) return;
        hj212.port = await listener.listen(config.HJ212_PORT, config.HOST);
        log.info({ port: hj212.port }, 'HJ 212 listener on TCP');
      },
    };
    app.decorate('hj212', hj212);
    app.addHook('preClose', async () => {
      await forwarder.stop();
      await listener.close();
    });
    done();
  },
  { name: 'hj212', dependencies: ['live-data'] },
);
