/** Builds the Fastify application: external plugins, then app plugins, then routes. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import { KIT_LOCAL, type Config } from './config.ts';
import type { DatabaseHandle } from './db/database.ts';
import { createContext } from './app-context.ts';
import { accessPlugin, type Access } from './auth/access.ts';
import { scheduleAuthHousekeeping } from './auth/housekeeping.ts';
import { installErrorHandler } from './http/error-handler.ts';
import { installRequestLog } from './http/request-log.ts';
import { zodValidatorCompiler } from './http/validation.ts';
import { registerWebConsole } from './http/web-console.ts';
import { registerEzvizKit } from './http/ezviz-kit.ts';
import { requestLanguage } from './http/language.ts';
import { translate } from '@sluice/shared/i18n';
import { accountRoutes } from './modules/account/account.routes.ts';
import { groupsRoutes } from './modules/groups/groups.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { rolesRoutes } from './modules/roles/roles.routes.ts';
import { menusRoutes } from './modules/menus/menus.routes.ts';
import { clientsRoutes } from './modules/clients/clients.routes.ts';
import { uploadsRoutes } from './storage/uploads.routes.ts';
import { demoVideoRoutes } from './seed/demo-video.ts';
import { areasRoutes } from './modules/areas/areas.routes.ts';
import { regionsRoutes } from './modules/regions/regions.routes.ts';
import { projectsRoutes } from './modules/sites/projects.routes.ts';
import { roleProjectsRoutes } from './modules/sites/role-projects.routes.ts';
import { projectImagesRoutes } from './modules/sites/project-images.routes.ts';
import { projectDetailsRoutes } from './modules/sites/project-details.routes.ts';
import { devicesRoutes } from './modules/devices/devices.routes.ts';
import { legacyDevicesRoutes } from './modules/devices/legacy-devices.routes.ts';
import { deviceDetailsRoutes } from './modules/devices/device-details.routes.ts';
import { recycleBinRoutes } from './modules/devices/recycle-bin.routes.ts';
import { deviceMapRoutes } from './modules/devices/device-map.routes.ts';
import {
  clientConfigRoutes,
  ezvizKitSources,
  geocoderOrigin,
  tileOrigins,
} from './modules/client-config/client-config.routes.ts';
import { dataDefinesRoutes } from './modules/data-defines/data-defines.routes.ts';
import { warnConfigRoutes } from './modules/warn-config/warn-config.routes.ts';
import { alarmsRoutes } from './modules/alarms/alarms.routes.ts';
import { deviceTypesRoutes } from './modules/device-types/device-types.routes.ts';
import { typePartsRoutes } from './modules/device-types/type-parts.routes.ts';
import { typeFilesRoutes } from './modules/device-types/type-files.routes.ts';
import { templatesRoutes } from './modules/device-templates/templates.routes.ts';
import { deviceDataRoutes } from './modules/device-data/device-data.routes.ts';
import { panelPointsRoutes } from './modules/device-data/panel-points.routes.ts';
import { deviceLayoutsRoutes } from './modules/device-layouts/device-layouts.routes.ts';
import { appVersionsRoutes } from './modules/apps/app-versions.routes.ts';
import { simRoutes } from './modules/sim/sim.routes.ts';
import { videoRoutes } from './modules/video/video.routes.ts';
import { liveDataPlugin } from './mqtt/live-data.ts';
import { hj212Plugin } from './modules/hj212/hj212.plugin.ts';
import { hj212ForwardRoutes, hj212Routes } from './modules/hj212/hj212.routes.ts';
import { mqttRoutes } from './mqtt/mqtt.routes.ts';
import { historyRoutes } from './modules/telemetry/history.routes.ts';
import { statisticsRoutes } from './modules/statistics/statistics.routes.ts';
import { monitorRoutes } from './modules/telemetry/monitor.routes.ts';
import { onlineRoutes } from './modules/online/online.routes.ts';
import { commandsRoutes } from './modules/commands/commands.routes.ts';
import { runModelRoutes } from './modules/run-model/run-model.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { fieldRecordsRoutes } from './modules/field-records/field-records.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { auditPlugin } from './modules/audit/audit.plugin.ts';
import type { AuditDeclaration } from './modules/audit/audit-trail.ts';
import { healthRoutes } from './ops/health.routes.ts';
import { registerMetrics } from './ops/metrics.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

/** Routes of the API, registered under /api. Later features add theirs here. */
const apiModules = [
  accountRoutes,
  groupsRoutes,
  usersRoutes,
  rolesRoutes,
  menusRoutes,
  clientsRoutes,
  areasRoutes,
  regionsRoutes,
  projectsRoutes,
  roleProjectsRoutes,
  projectImagesRoutes,
  projectDetailsRoutes,
  devicesRoutes,
  legacyDevicesRoutes,
  deviceDetailsRoutes,
  recycleBinRoutes,
  deviceMapRoutes,
  clientConfigRoutes,
  dataDefinesRoutes,
  warnConfigRoutes,
  deviceTypesRoutes,
  typePartsRoutes,
  typeFilesRoutes,
  templatesRoutes,
  deviceDataRoutes,
  panelPointsRoutes,
  deviceLayoutsRoutes,
  appVersionsRoutes,
  simRoutes,
  videoRoutes,
  mqttRoutes,
  historyRoutes,
  monitorRoutes,
  statisticsRoutes,
  onlineRoutes,
  commandsRoutes,
  runModelRoutes,
  alarmsRoutes,
  notificationsRoutes,
  fieldRecordsRoutes,
  hj212Routes,
  hj212ForwardRoutes,
  auditRoutes,
];

export interface RouteRecord {
  method: string;
  url: string;
  access: () => Access | undefined;
  audit: () => AuditDeclaration | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteRecord[];
  }
}

export interface BuildOptions {
  config: Config;
  database: DatabaseHandle;
  logger?: boolean | object;
}

export async function buildApp({ config, database, logger }: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // Through process.stdout, in order with what the process prints itself (the start-up banner),
    // rather than through a buffer of pino's own that would write it after the banner.
    logger: logger ?? { level: config.LOG_LEVEL, stream: process.stdout },
    // One line per request instead (installRequestLog).
    disableRequestLogging: true,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: 1024 * 1024,
    ...(config.TLS_CERT && config.TLS_KEY
      ? { https: { cert: await readFileText(config.TLS_CERT), key: await readFileText(config.TLS_KEY) } }
      : {}),
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('ctx', createContext(config, database.db, database.dialect, database.reads));
  installErrorHandler(app);
  installRequestLog(app);

  // Routes outside /api (the console's files, the API docs) are public by nature; every API
  // route must say who may call it.
  const routes: RouteRecord[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    routes.push({
      method: [route.method].flat().join(','),
      url: route.url,
      access: () => route.config?.access,
      audit: () => route.config?.audit,
    });
    if (route.config?.access) return;
    const url = route.url.toLowerCase();
    if (!url.startsWith('/api/') || url.startsWith('/api/docs')) {
      route.config = { ...route.config, access: 'public' };
    }
  });

  const videoOrigins = config.VIDEO_ORIGINS.split(',');
  // EZVIZ's player kit (ezopen:// cameras) compiles WASM decoders and starts workers, from this
  // server's copy or another origin, and calls the EZVIZ platform from the page; none of it is
  // allowed when EZVIZ_KIT_URL is off.
  const kit = ezvizKitSources(config);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...(kit ? ["'wasm-unsafe-eval'", ...kit.scripts] : [])],
        // Ant Design writes its styles at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Map tiles come from the configured tile server; the optional geocoder is called from the page.
        imgSrc: ["'self'", 'data:', 'blob:', ...tileOrigins(config)],
        // Cameras' HLS streams come from their platforms (VIDEO_ORIGINS); hls.js plays them through blob: URLs.
        connectSrc: [
          "'self'",
          'ws:',
          'wss:',
          ...[geocoderOrigin(config)].filter((o) => o !== undefined),
          ...videoOrigins,
          ...(kit?.connect ?? []),
        ],
        mediaSrc: ["'self'", 'blob:', ...videoOrigins],
        fontSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:', ...(kit?.scripts ?? [])],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: Boolean(config.TLS_CERT),
  });
  await app.register(multipart);
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Sluice API', version: '1.0.0', description: 'Every response is `{ success, message, data, count? }`.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(accessPlugin, { users: app.ctx.users, sessions: app.ctx.sessions });
  // Every write in one transaction with its audit entry; every API route says what it changes.
  await app.register(auditPlugin, { enabled: config.AUDIT_TRAIL });
  scheduleAuthHousekeeping(app);
  // The broker (MQTT over WebSocket at /mqtt from now, TCP from app.live.start()) and live data.
  await app.register(liveDataPlugin);
  // Prometheus metrics at /metrics, for a scraper holding METRICS_TOKEN (before the routes it times).
  registerMetrics(app);
  // HJ 212 data loggers over TCP (HJ212_PORT), into the same ingestion.
  await app.register(hj212Plugin);
  // Live data keeps what it knows of a device for a minute: a committed change must reach it now.
  app.ctx.deviceEvents.onChanged('forget the device in the live directory', (sn) => {
    app.live.forget(sn);
  });

  await app.register(
    (api, _options, done) => {
      for (const register of apiModules) register(api);
      done();
    },
    { prefix: '/api' },
  );
  // Probes for load balancers and orchestrators (/healthz, /readyz).
  healthRoutes(app);
  // Uploaded files are public by unguessable key, so that <img> tags can show them.
  await app.register((files, _options, done) => {
    uploadsRoutes(files);
    // The demo's camera streams from the server itself (no internet needed).
    if (config.DEMO) demoVideoRoutes(files);
    done();
  });

  // This server's copy of EZVIZ's player kit, for the console's ezopen:// cameras.
  if (config.EZVIZ_KIT_URL === KIT_LOCAL) await registerEzvizKit(app);

  const dist = config.WEB_DIST ?? DEFAULT_WEB_DIST;
  const hasConsole = await registerWebConsole(app, dist);

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    // A missing hashed asset (or a file of another version of EZVIZ's kit) is a 404, not the page: after a redeploy the browser then says so
    // plainly instead of failing on a page served as script.
    const wantsPage = request.method === 'GET' && !/^\/(api|assets|uploads|ezuikit)(\/|$)/i.test(url) && hasConsole;
    if (wantsPage) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return reply.status(404).send({
      success: false,
      message: translate(requestLanguage(request), 'error.routeNotFound', { method: request.method, url }),
      data: null,
    });
  });

  // While shutting down, answer in-flight requests and then close their keep-alive connections,
  // so that the server can stop.
  let closing = false;
  app.addHook('preClose', () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });

  app.addHook('onClose', async () => {
    await app.ctx.audit.close();
    await database.close();
  });
  return app;
}

/**
 * Fastify's trustProxy: named proxies as they are; a hop count as a function, since Fastify
 * ignores a bare number (a hop count cannot tell the proxy from a client that reached the server
 * directly, so it is for servers only the proxies can reach — the README says so).
 */
function trustProxyOption(setting: Config['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}

async function readFileText(file: string): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(file, 'utf8');
}
