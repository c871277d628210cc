/**
 * GET /metrics in Prometheus' text format (prom-client), for a scraper that sends METRICS_TOKEN
 * as a bearer token; without the setting the route answers 404 (metrics are off), with a wrong
 * or missing token 401. Each server instance answers for itself: counters count since its start.
 *
 * Most figures are read from the counters the live-data services keep anyway (ingestion, the
 * writer, alarms, notifications) when a scrape comes; HTTP latency and batch commit times are
 * observed as they happen. HTTP requests are labelled by route pattern, never by raw URL.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** A counter whose value is read from a running total when scraped. */
function totalCounter<L extends string>(
  registry: Registry,
  name: string,
  help: string,
  labelNames: L[],
  read: () => [Partial<Record<L, string>>, number][],
): void {
  new Counter({
    name,
    help,
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) this.inc(labels, value);
    },
  });
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Registers the instruments over the app's live data and the /metrics route. */
export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'sluice_process_' });
  const live = app.live;

  const httpSeconds = new Histogram({
    name: 'sluice_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The pattern (`/api/:kind/:deviceSn/DeviceHisData`); requests no route matched share one label.
    const route = request.routeOptions.url ?? 'unmatched';
    httpSeconds.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const commitSeconds = new Histogram({
    name: 'sluice_ingest_batch_commit_seconds',
    help: 'Time to commit one batch of incoming live data',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  live.writer.onCommit((seconds) => {
    commitSeconds.observe(seconds);
  });

  const { writer, ingestion, alarms } = live;
  totalCounter(registry, 'sluice_ingest_points_total', 'Data points committed to history', [], () => [[{}, writer.stats.points]]);
  totalCounter(registry, 'sluice_ingest_messages_total', 'Messages committed in ingest batches', [], () => [
    [{}, writer.stats.messages],
  ]);
  totalCounter(registry, 'sluice_ingest_batches_total', 'Ingest batches by outcome', ['outcome'], () => [
    [{ outcome: 'committed' }, writer.stats.batches],
    [{ outcome: 'failed' }, writer.stats.failedBatches],
  ]);
  totalCounter(registry, 'sluice_ingest_refused_total', 'Messages refused (acknowledged and dropped)', [], () => [
    [{}, ingestion.counters.refused],
  ]);
  totalCounter(registry, 'sluice_mqtt_messages_total', 'MQTT messages received from devices by topic kind', ['kind'], () =>
    [...ingestion.byKind].map(([kind, n]) => [{ kind }, n]),
  );
  totalCounter(
    registry,
    'sluice_alarm_evaluations_total',
    "Evaluations of devices' alarm conditions by source (error topic, linked data, offline time-out)",
    ['source'],
    () => Object.entries(alarms.evaluations).map(([source, n]) => [{ source }, n]),
  );
  totalCounter(
    registry,
    'sluice_notification_deliveries_total',
    'Alarm notification deliveries finished by channel kind and outcome',
    ['channel', 'outcome'],
    () =>
      [...app.ctx.notifications.outcomes].map(([key, n]) => {
        const [channel = '', outcome = ''] = key.split('\u0000');
        return [{ channel, outcome }, n];
      }),
  );

  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  gauge('sluice_ingest_queue_points', 'Points held by the ingest writer (queued and being committed)', () => writer.backlog);
  gauge('sluice_ingest_waiting_messages', 'Messages waiting for room in the ingest queue', () => writer.waitingMessages);
  gauge('sluice_ingest_pending_messages', 'Messages being looked up, checked or committed', () => ingestion.pending);
  gauge(
    'sluice_mqtt_backlog_messages',
    "Devices' messages waiting unparsed in the embedded broker for room in ingestion",
    () => live.broker?.backlogStats().waiting ?? 0,
  );
  gauge(
    'sluice_mqtt_backlog_bytes',
    'What those messages count for against INGEST_BACKLOG_BYTES',
    () => live.broker?.backlogStats().bytes ?? 0,
  );
  gauge(
    'sluice_mqtt_held_connections',
    'Device connections not read while their messages wait for ingestion',
    () => live.broker?.backlogStats().held ?? 0,
  );
  gauge(
    'sluice_mqtt_connected_devices',
    'Devices connected to the embedded broker (an external broker reports its own)',
    () => live.broker?.devicesConnected ?? 0,
  );
  gauge('sluice_job_leader', 'Whether this instance runs the once-only jobs (offline time-out, retention)', () =>
    live.leader.leads() ? 1 : 0,
  );
  gauge(
    'sluice_mqtt_connected_clients',
    'MQTT clients of the embedded broker (devices and consoles)',
    () => live.broker?.clients ?? 0,
  );

  app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
    const token = app.ctx.config.METRICS_TOKEN;
    if (!token) return reply.status(404).send('metrics are off: set METRICS_TOKEN\n');
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!same(given, token)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send('a bearer token (METRICS_TOKEN) is required\n');
    }
    return reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
}
