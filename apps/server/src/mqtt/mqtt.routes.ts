/**
 * MQTT calls: GET Mqtt/Config (what the console's live client needs: where, how, which topics),
 * GET Mqtt/Stats (platform administrators only: broker-wide ingestion and refusal counters,
 * which span every tenant), and the HTTP hooks an external broker calls to authenticate and
 * authorise clients (EMQX's HTTP authentication and authorisation): POST mqtt/auth and
 * POST mqtt/acl. The hooks need no session but the shared secret MQTT_HOOK_SECRET (header
 * `x-mqtt-hook-secret`, or `Authorization: Bearer …`).
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONSOLE_MQTT, CONSOLE_SUBSCRIBES, TOPIC_KINDS } from '@sluice/shared/device-protocol';
import { mqttConfigDto } from '@sluice/shared/telemetry.schema';
import { currentUser } from '../auth/access.ts';
import { AppError } from '../http/errors.ts';
import { envelopeOf, ok } from '../http/envelope.ts';
import { reachableDevices } from '../modules/telemetry/reachable-devices.repository.ts';
import { WS_PATH } from './embedded-broker.ts';

const tags = ['MQTT'];

const authBody = z.object({
  clientid: z.string().max(256).default(''),
  username: z.string().max(256).default(''),
  password: z.string().max(1024).default(''),
});
const aclBody = z.object({
  clientid: z.string().max(256).default(''),
  username: z.string().max(256).default(''),
  topic: z.string().min(1).max(1024),
  action: z.enum(['publish', 'subscribe', 'all']),
});
const hookAnswer = z.object({ result: z.enum(['allow', 'deny']), is_superuser: z.boolean().optional() });

const statsDto = z.object({
  Broker: z.enum(['embedded', 'external']),
  Clients: z.number().nullable(),
  Ingestion: z.record(z.string(), z.number()),
  Writer: z.record(z.string(), z.number()),
  /** The embedded broker's backlog (null with an external broker). */
  Backlog: z.record(z.string(), z.number()).nullable(),
  Refused: z.record(z.string(), z.number()),
});

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function mqttRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { config } = app.ctx;

  const checkHookSecret = (request: FastifyRequest) => {
    const secret = config.MQTT_HOOK_SECRET;
    if (!secret) throw new AppError(404, 'mqtt.hookDisabled');
    const header = request.headers['x-mqtt-hook-secret'];
    const bearer = request.headers.authorization?.startsWith('Bearer ') ? request.headers.authorization.slice(7) : undefined;
    const given = typeof header === 'string' ? header : bearer;
    if (!given || !same(given, secret)) throw new AppError(403, 'auth.forbidden');
  };

  app.get(
    '/Mqtt/Config',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          'How the console connects for live data: MQTT over WebSocket (the console’s origin at /mqtt unless Url says otherwise), username the account; a browser sends no password (the embedded broker reads the session cookie of the WebSocket upgrade), other clients the session token as password; the filters to subscribe to',
        response: { 200: envelopeOf(mqttConfigDto) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { topics, broker } = app.live;
      // An external broker cannot drop other devices' messages from a wildcard subscription:
      // a user with project grants there subscribes device by device.
      const perDevice = !broker && !user.isAdmin;
      const subscriptions = perDevice
        ? (await reachableDevices(app.ctx.db, user, {})).flatMap((d) =>
            CONSOLE_SUBSCRIBES.map((kind) => topics.topic(kind, d.deviceSn, user.groupId)),
          )
        : CONSOLE_SUBSCRIBES.map((kind) => topics.groupFilter(kind, user.groupId));
      return ok(request, {
        Url: config.MQTT_WS_URL ?? null,
        Path: WS_PATH,
        Username: user.account,
        GroupId: user.groupId,
        ConnectTimeout: CONSOLE_MQTT.connectTimeoutMs,
        KeepAlive: CONSOLE_MQTT.keepaliveSeconds,
        Clean: CONSOLE_MQTT.clean,
        Subscriptions: subscriptions,
        Topics: Object.fromEntries(
          TOPIC_KINDS.map((kind) => [kind, topics.templates[kind].replace('{groupId}', String(user.groupId))]),
        ),
      });
    },
  );

  app.get(
    '/Mqtt/Stats',
    {
      // Broker-wide: the counters cover every tenant's devices, so no tenant's administrator sees them.
      config: { access: 'platform' },
      schema: {
        tags,
        summary:
          'Platform administrators: broker-wide counters of ingestion (received, stored, refused, flagged) and of refused connections, subscriptions and publishes, since start',
        response: { 200: envelopeOf(statsDto) },
      },
    },
    (request) => {
      const { ingestion, writer, auth, broker } = app.live;
      return ok(request, {
        Broker: broker ? ('embedded' as const) : ('external' as const),
        Clients: broker ? broker.clients : null,
        Ingestion: { ...ingestion.counters },
        Writer: { ...writer.stats, backlog: writer.backlog, waiting: writer.waitingMessages },
        Backlog: broker ? broker.backlogStats() : null,
        Refused: { ...auth.counters },
      });
    },
  );

  app.post(
    '/mqtt/auth',
    {
      config: {
        access: 'public',
        audit: { exempt: 'an external broker asks whether a device or console may connect; it changes nothing' },
      },
      schema: {
        tags,
        summary: 'External broker hook: may this client connect? (EMQX HTTP authentication; body clientid, username, password)',
        body: authBody,
        response: { 200: hookAnswer },
      },
    },
    async (request) => {
      checkHookSecret(request);
      const { clientid, username, password } = request.body;
      const result = await app.live.auth.authenticate(clientid, username, password);
      if ('refused' in result) return { result: 'deny' as const };
      return { result: 'allow' as const, is_superuser: result.kind === 'server' };
    },
  );

  app.post(
    '/mqtt/acl',
    {
      config: {
        access: 'public',
        audit: { exempt: 'an external broker asks whether a client may use a topic; it changes nothing' },
      },
      schema: {
        tags,
        summary:
          'External broker hook: may this client publish or subscribe to the topic? (EMQX HTTP authorisation; body clientid, username, topic, action)',
        body: aclBody,
        response: { 200: hookAnswer },
      },
    },
    async (request) => {
      checkHookSecret(request);
      const { username, topic, action } = request.body;
      const { auth } = app.live;
      const identity = await auth.identityOf(username);
      if (!identity) return { result: 'deny' as const };
      if (action === 'publish') return { result: auth.mayPublish(identity, topic).ok ? ('allow' as const) : ('deny' as const) };
      if (action === 'subscribe')
        return { result: (await auth.maySubscribe(identity, topic, true)).ok ? ('allow' as const) : ('deny' as const) };
      return {
        result:
          auth.mayPublish(identity, topic).ok && (await auth.maySubscribe(identity, topic, true)).ok
            ? ('allow' as const)
            : ('deny' as const),
      };
    },
  );
}
