/**
 * Live data, wired once per app: topics, the ingestion pipeline, online state, alarms,
 * commands, MQTT authentication, and the broker — embedded (Aedes, WebSocket at /mqtt on the
 * HTTP server from the start, TCP on MQTT_PORT from `start()`), or external with MQTT_URL.
 * `start()` opens the network side and the periodic jobs (main.ts calls it after listen;
 * route tests that need no broker never do); closing the app stops everything and commits
 * what is queued.
 */
import path from 'node:path';
import { instanceName } from '../ops/instance.ts';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { TopicCodec } from '@sluice/shared/device-protocol';
import { topicTemplates, utcOffsetMinutes } from '../config.ts';
import { DeviceDirectory } from '../modules/telemetry/device-directory.ts';
import { TelemetryWriteRepository } from '../modules/telemetry/telemetry-write.repository.ts';
import { IngestWriter, committerOf } from '../modules/telemetry/ingest-writer.ts';
import { ThreadedWriteRepository } from '../modules/telemetry/threaded-write.repository.ts';
import { HistoryRepository } from '../modules/telemetry/history.repository.ts';
import { IngestionService } from '../modules/telemetry/ingestion.service.ts';
import { RefusalLog } from '../modules/telemetry/refusal-log.ts';
import { UndefinedKeyLimit } from '../modules/telemetry/undefined-keys.ts';
import { RetentionJob } from '../modules/telemetry/retention.job.ts';
import { MaintenanceJob } from '../modules/field-records/maintenance.job.ts';
import { MaintenanceRepository } from '../modules/field-records/maintenance.repository.ts';
import { OnlineRepository } from '../modules/online/online.repository.ts';
import { OnlineService } from '../modules/online/online.service.ts';
import { AlarmsRepository } from '../modules/alarms/alarms.repository.ts';
import { AlarmsService } from '../modules/alarms/alarms.service.ts';
import { DeviceLogsRepository } from '../modules/commands/device-logs.repository.ts';
import { CommandsService } from '../modules/commands/commands.service.ts';
import { ControlDefinitionsRepository } from '../modules/commands/control-definitions.repository.ts';
import { RunModelRepository } from '../modules/run-model/run-model.repository.ts';
import { RunModelService } from '../modules/run-model/run-model.service.ts';
import { SiteScope } from '../modules/sites/site-scope.ts';
import { SqliteCheckpointer } from '../db/sqlite-checkpointer.ts';
import { openPgPool } from '../db/database.ts';
import { PgJobLeader, soleLeader, type JobLeader } from '../db/job-leader.ts';
import { PgChangeFeed, loneFeed, type ChangeFeed } from '../db/change-feed.ts';
import { EmbeddedBroker } from './embedded-broker.ts';
import { ExternalBroker } from './external-broker.ts';
import { SwitchableBus } from './message-bus.ts';
import { LiveEvents } from './live-events.ts';
import { MqttAuth } from './mqtt-auth.ts';
import { SESSION_COOKIE, fromOwnOrigin } from '../auth/session-cookie.ts';
import type { SessionEnd } from '../auth/sessions.repository.ts';

export interface LiveData {
  topics: TopicCodec;
  offsetMinutes: number;
  directory: DeviceDirectory;
  writer: IngestWriter;
  /** Forgets what live data holds of a device (a committed change: edited, retyped, purged…). */
  forget(deviceSn: string): void;
  history: HistoryRepository;
  ingestion: IngestionService;
  online: OnlineService;
  alarms: AlarmsService;
  alarmsRepository: AlarmsRepository;
  commands: CommandsService;
  runModel: RunModelService;
  runModelRepository: RunModelRepository;
  logs: DeviceLogsRepository;
  auth: MqttAuth;
  retention: RetentionJob;
  /** Changes other instances made to what this one caches (devices, ended sessions); on SQLite nothing. */
  changes: ChangeFeed;
  /** Repairs opened by run hours (modules/field-records/maintenance.job.ts). */
  maintenance: MaintenanceJob;
  /** Whether this instance runs the jobs that must run once (always on SQLite). */
  leader: JobLeader;
  /** The embedded broker (undefined with an external one). */
  broker: EmbeddedBroker | undefined;
  external: ExternalBroker | undefined;
  /** The TCP port of the embedded broker once started. */
  mqttPort: number | undefined;
  /** Undefined while the MQTT side takes work (readiness), else what is wrong. */
  brokerProblem(): string | undefined;
  start(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveData;
  }
}

export const liveDataPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, db, dialect, users, sessions } = app.ctx;
    const log = app.log.child({ module: 'live' });
    const onError = (error: unknown) => {
      log.error({ err: error }, 'live data error');
    };
    const topics = new TopicCodec(topicTemplates(config));
    const offsetMinutes = utcOffsetMinutes(config);
    const bus = new SwitchableBus();
    const events = new LiveEvents(bus, topics, onError);
    // On PostgreSQL ingestion's own lookups, and the online state's writes (a connect storm
    // makes thousands), go through small pools of their own: in the app's pool console calls
    // waited behind them for 70–90 s; in one pool together, devices' authentication waited
    // behind the online writes (2,000 devices took 66 s to connect at load 19). The queue in
    // front of them is bounded: the broker holds messages back while ingestion has many pending
    // (see `busy` below).
    const ownPool = () => (dialect === 'postgres' && config.DATABASE_URL ? openPgPool(config.DATABASE_URL, 2) : undefined);
    const lookupPool = ownPool();
    const onlinePool = ownPool();
    const lookups = lookupPool ?? db;
    const directory = new DeviceDirectory(lookups);
    // On SQLite the commits run in a worker thread with its own connection, off the thread
    // serving HTTP and MQTT. On PostgreSQL they are off it already, on a pool of their own (one
    // batch commits at a time), so that they do not queue behind the per-message queries of a
    // fleet's first messages in the app's pool.
    const writeThread =
      dialect === 'sqlite'
        ? new ThreadedWriteRepository(path.join(config.DATA_DIR, 'sluice.db'), offsetMinutes, onError)
        : undefined;
    const writePool = dialect === 'postgres' && config.DATABASE_URL ? openPgPool(config.DATABASE_URL, 1) : undefined;
    const writeRepository = writeThread ?? committerOf(new TelemetryWriteRepository(writePool ?? db, dialect, offsetMinutes));
    const writer = new IngestWriter(writeRepository, {
      maxDelayMs: config.INGEST_BATCH_MS,
      maxPoints: config.INGEST_BATCH_POINTS,
      maxQueuedPoints: config.INGEST_QUEUE_POINTS,
      maxQueuedBytes: config.INGEST_QUEUE_BYTES,
      onError: (error, messages) => {
        log.error({ err: error, messages }, 'a batch of live data failed to commit; its messages are not acknowledged');
      },
    });
    const history = new HistoryRepository(app.ctx.reads);
    const alarmsRepository = new AlarmsRepository(db);
    const leader: JobLeader =
      dialect === 'postgres' && config.DATABASE_URL
        ? new PgJobLeader({
            databaseUrl: config.DATABASE_URL,
            retryMs: config.LEADER_RETRY_SECONDS * 1000,
            onChange: (leading) => {
              log.info(
                { leading },
                leading ? 'this instance now runs the once-only jobs' : 'this instance stopped leading the jobs',
              );
            },
            onError: (error) => {
              log.warn({ err: error }, 'job leader connection');
            },
          })
        : soleLeader;
    // Other instances cache devices, alarms, online state and sessions too: they hear of changes made here, and this one of theirs.
    const feed: ChangeFeed =
      dialect === 'postgres' && config.DATABASE_URL
        ? new PgChangeFeed({ db, databaseUrl: config.DATABASE_URL, onError })
        : loneFeed;
    const online: OnlineService = new OnlineService(new OnlineRepository(onlinePool ?? db), events, {
      timeoutMs: config.DEVICE_TIMEOUT * 1000,
      sweepMs: Math.min(30_000, Math.max(1000, (config.DEVICE_TIMEOUT * 1000) / 4)),
      hasActiveWarn: (sn) => alarmsRepository.hasActive(sn),
      // Offline alarms: opened for a device silent past the time-out, cleared when it is heard.
      onHeard: (groupId, deviceSn, at): Promise<void> => alarms.heard({ groupId, deviceSn, projectId: null }, at),
      onSwept: (cutoff, now): Promise<void> => alarms.sweepOffline(cutoff, now),
      leads: () => leader.leads(),
      wentOffline: (deviceSn) => {
        feed.publish({ offline: deviceSn });
      },
      onError,
    });
    const alarms: AlarmsService = new AlarmsService(
      alarmsRepository,
      events,
      (device, at) => {
        feed.publish({ alarms: device.deviceSn });
        return online.announceState(device.groupId, device.deviceSn, at);
      },
      // Notifications are queued after the alarms' commit, off the ingestion path.
      (opened) => {
        app.ctx.notifications.alarmOpened(opened);
      },
    );
    const logs = new DeviceLogsRepository(db);
    const commands = new CommandsService({
      scope: new SiteScope(db),
      directory,
      definitions: new ControlDefinitionsRepository(db),
      history,
      logs,
      bus,
      topics,
      events,
      userName: async (user) =>
        (await db.selectFrom('users').select('user_name').where('id', '=', user.id).executeTakeFirst())?.user_name ??
        user.account,
      holdsControl: (user) => users.holdsOperate(user.id, 'device.control'),
      timeoutMs: config.COMMAND_TIMEOUT * 1000,
      onError,
    });
    const runModelRepository = new RunModelRepository(db);
    const runModel = new RunModelService({
      repository: runModelRepository,
      commands,
      dataDefineKey: (groupId, id, field) => app.ctx.typeScope.dataDefineKey(groupId, id, field),
    });
    const ingestion = new IngestionService({
      directory,
      writer,
      online,
      alarms,
      commands,
      refusals: new RefusalLog({ logs, log }),
      undefinedKeys: new UndefinedKeyLimit(lookupPool ? new HistoryRepository(lookupPool) : history, config.MAX_UNDEFINED_KEYS),
      offsetMinutes,
      log,
    });
    const auth = new MqttAuth({
      db,
      directory,
      sessions,
      users,
      topics,
      log,
      server:
        config.MQTT_USERNAME && config.MQTT_PASSWORD
          ? { username: config.MQTT_USERNAME, password: config.MQTT_PASSWORD }
          : undefined,
    });
    // On SQLite its deletes run in the ingest writer's thread, between batches.
    const retention = new RetentionJob(db, dialect, config, log, { expired: writeThread });
    const maintenance = new MaintenanceJob({ repository: new MaintenanceRepository(db), history, log });

    const broker = config.MQTT_URL
      ? undefined
      : await EmbeddedBroker.create({
          auth,
          ingestion,
          online,
          log,
          connectRate: config.MQTT_CONNECT_RATE,
          // Full: the writer holds its bound, or as many messages are still being looked up and
          // checked ahead of it as would fill it at 20 points each (on PostgreSQL, where those
          // lookups queue in the pool under a fleet's first messages).
          busy: () => writer.full || ingestion.pending > config.INGEST_QUEUE_POINTS / 20,
          backlogBytes: config.INGEST_BACKLOG_BYTES,
          sessionCookie: (request) => {
            const token = app.parseCookie(request.headers.cookie ?? '')[SESSION_COOKIE];
            // An upgrade is a write: only from the console's own origin (no cross-site WebSocket hijacking).
            return token && fromOwnOrigin('WEBSOCKET', request.headers, request.headers.host) ? token : undefined;
          },
        });
    // Sign-out, a password change, a disabled or deleted user: their live connections end now.
    const endSessions = (end: SessionEnd) => {
      auth.sessionEnded(end);
      broker?.closeSessions(end);
    };
    const forgetDevice = (deviceSn: string) => {
      directory.forget(deviceSn);
      // Its series ids too: a purged device's history is gone, and a new device may take its number.
      writeRepository.forgetDevice(deviceSn);
    };
    feed.onChange((change) => {
      if ('device' in change) forgetDevice(change.device);
      else if ('alarms' in change) alarms.forget(change.alarms);
      else if ('offline' in change) online.forget(change.offline);
      else endSessions(change.session);
    });
    await feed.start();
    const stopListening = sessions.onEnded((end) => {
      endSessions(end);
      feed.publish({ session: end });
    });
    if (broker) {
      broker.attach(app.server);
      bus.use(broker);
      online.watchConnections((sn) => broker.isConnected(sn));
    }
    let external: ExternalBroker | undefined;
    let started = false;
    const checkpointer = dialect === 'sqlite' ? new SqliteCheckpointer() : undefined;

    const live: LiveData = {
      topics,
      offsetMinutes,
      directory,
      writer,
      forget(deviceSn) {
        forgetDevice(deviceSn);
        feed.publish({ device: deviceSn });
      },
      history,
      ingestion,
      online,
      alarms,
      alarmsRepository,
      commands,
      runModel,
      runModelRepository,
      logs,
      auth,
      retention,
      changes: feed,
      maintenance,
      leader,
      broker,
      get external() {
        return external;
      },
      mqttPort: undefined,
      brokerProblem() {
        if (!started) return 'not started';
        if (external) return external.problem();
        return live.mqttPort === undefined ? 'the embedded broker is not listening' : undefined;
      },
      async start() {
        if (started) return;
        started = true;
        if (broker) {
          live.mqttPort = await broker.listen(config.MQTT_PORT, config.HOST);
          log.info({ port: live.mqttPort }, 'MQTT broker listening (TCP; WebSocket at /mqtt)');
        } else if (config.MQTT_URL) {
          const instance = instanceName(config);
          external = new ExternalBroker(
            {
              url: config.MQTT_URL,
              username: config.MQTT_USERNAME,
              password: config.MQTT_PASSWORD,
              shareGroup: config.MQTT_SHARE_GROUP,
              connections: config.MQTT_INGEST_CONNECTIONS,
              instance,
            },
            { ingestion, topics, log },
          );
          await external.start();
          bus.use(external);
          log.info({ url: config.MQTT_URL.replace(/\/\/[^@/]*@/, '//***@') }, 'ingesting from the external MQTT broker');
        }
        checkpointer?.start(path.join(config.DATA_DIR, 'sluice.db'), (message) => {
          log.warn({ message }, 'SQLite checkpoint worker');
        });
        await leader.start();
        online.start();
        retention.start(() => leader.leads());
        maintenance.start(() => leader.leads());
        commands.start();
        app.ctx.notifications.start((error) => {
          log.error({ err: error }, 'alarm notifications');
        });
      },
    };
    app.decorate('live', live);

    app.addHook('preClose', async () => {
      stopListening();
      await feed.stop();
      // A run under way ends after its chunk (on SQLite when the write thread closes, below).
      const retentionStopped = retention.stop();
      await maintenance.stop();
      commands.stop();
      await app.ctx.notifications.stop();
      if (broker) await broker.close();
      if (external) await external.close();
      await writer.close();
      await writeThread?.close();
      await retentionStopped;
      await writePool?.destroy();
      await online.stop();
      await leader.stop();
      await lookupPool?.destroy();
      await onlinePool?.destroy();
      await checkpointer?.stop();
    });
  },
  { name: 'live-data' },
);
