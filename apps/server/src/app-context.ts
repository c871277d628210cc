/**
 * The composition root: the server's repositories, services and domain events, built once from
 * the configuration and the database, with the handlers each event runs subscribed here by
 * name. buildApp registers the HTTP routes over it (`app.ctx`); a job runner, a CLI or a test
 * builds the same graph with `createContext` and no routes. Live data (the broker and ingestion)
 * is built over it by mqtt/live-data.ts.
 */
import type { Db } from './db/database.ts';
import type { DialectName } from './db/migrations.ts';
import { SessionsRepository } from './auth/sessions.repository.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { UsersRepository } from './modules/account/users.repository.ts';
import { GroupsRepository } from './modules/groups/groups.repository.ts';
import { AccountService } from './modules/account/account.service.ts';
import { AvatarService } from './modules/account/avatar.service.ts';
import { LocalStorage, type FileStorage } from './storage/file-storage.ts';
import { S3Storage } from './storage/s3-storage.ts';
import { SecretBox } from './security/secret-box.ts';
import { RolesRepository } from './modules/roles/roles.repository.ts';
import { UserAdminRepository } from './modules/users/user-admin.repository.ts';
import { UserAdminService } from './modules/users/user-admin.service.ts';
import { MenusRepository } from './modules/menus/menus.repository.ts';
import { MenusService } from './modules/menus/menus.service.ts';
import { SiteScope } from './modules/sites/site-scope.ts';
import { ProjectsService } from './modules/sites/projects.service.ts';
import { DeviceEvents } from './modules/devices/device-events.ts';
import { OnlineRepository } from './modules/online/online.repository.ts';
import { RegionsRepository } from './modules/regions/regions.repository.ts';
import { PanelPointsRepository } from './modules/device-data/panel-points.repository.ts';
import { PanelPointsService } from './modules/device-data/panel-points.service.ts';
import { ClientsRepository } from './modules/clients/clients.repository.ts';
import { RoleProjectsRepository } from './modules/sites/role-projects.repository.ts';
import { ProjectImagesRepository } from './modules/sites/project-images.repository.ts';
import { DeviceImagesRepository } from './modules/devices/device-images.repository.ts';
import { SiteRefsCheck } from './modules/sites/site-refs.ts';
import { DeviceCardsRepository } from './modules/devices/device-cards.repository.ts';
import { DeviceLayoutsRepository } from './modules/device-layouts/device-layouts.repository.ts';
import { SimAccountsRepository } from './modules/sim/sim-accounts.repository.ts';
import { SimCardService } from './modules/sim/sim-card.service.ts';
import { AppVersionsRepository } from './modules/apps/app-versions.repository.ts';
import { AppVersionsService } from './modules/apps/app-versions.service.ts';
import { DataDefinesRepository } from './modules/data-defines/data-defines.repository.ts';
import { DeviceTypesRepository } from './modules/device-types/device-types.repository.ts';
import { DeviceTypesService } from './modules/device-types/device-types.service.ts';
import { TypeScope } from './modules/device-types/type-scope.ts';
import { TypeFilesService } from './modules/device-types/type-files.service.ts';
import { TemplatesRepository } from './modules/device-templates/templates.repository.ts';
import { TemplatesService } from './modules/device-templates/templates.service.ts';
import { OnlineHoursService } from './modules/online/online-hours.service.ts';
import { DevicesService } from './modules/devices/devices.service.ts';
import { DeviceMapRepository } from './modules/devices/device-map.repository.ts';
import { DeviceMapService } from './modules/devices/device-map.service.ts';
import {
  copyStandardTemplate,
  reapplyStandardTemplate,
  removeDeviceData,
} from './modules/device-templates/template-to-device.service.ts';
import { purgeDeviceLiveData } from './modules/telemetry/retention.job.ts';
import { WarnConfigRepository } from './modules/warn-config/warn-config.repository.ts';
import { WarnConfigService } from './modules/warn-config/warn-config.service.ts';
import { NotificationsRepository } from './modules/notifications/notifications.repository.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import { FieldRecordsService } from './modules/field-records/field-records.service.ts';
import { FieldRecordsRepository, StationMonthRepository } from './modules/field-records/field-records.repository.ts';
import { StationReportService } from './modules/field-records/station-report.service.ts';
import { WebhookChannel } from './modules/notifications/channels/webhook.channel.ts';
import { EmailChannel } from './modules/notifications/channels/email.channel.ts';
import { SmsChannel } from './modules/notifications/channels/sms.channel.ts';
import { Hj212Repository } from './modules/hj212/hj212.repository.ts';
import { DeviceVideosRepository } from './modules/video/device-videos.repository.ts';
import { VideoService } from './modules/video/video.service.ts';
import { EzvizAdapter } from './modules/video/ezviz.adapter.ts';
import { HlsAdapter } from './modules/video/hls.adapter.ts';
import { utcOffsetMinutes, type Config } from './config.ts';
import path from 'node:path';
import { AlarmsRepository } from './modules/alarms/alarms.repository.ts';
import { HistoryRepository } from './modules/telemetry/history.repository.ts';
import { StatisticsRepository } from './modules/statistics/statistics.repository.ts';
import { StatisticsService } from './modules/statistics/statistics.service.ts';
import { AuditRepository } from './modules/audit/audit.repository.ts';

export interface AppContext {
  config: Config;
  db: Db;
  /** For long reads (history, charts): off the main thread on SQLite (DatabaseHandle.reads). */
  reads: Db;
  dialect: DialectName;
  users: UsersRepository;
  groups: GroupsRepository;
  sessions: SessionsRepository;
  throttle: LoginThrottle;
  account: AccountService;
  avatars: AvatarService;
  storage: FileStorage;
  /** Seals secrets at rest (SIM provider credentials). */
  secrets: SecretBox;
  roles: RolesRepository;
  /** Administrators' rules over a group's users (a group keeps an administrator; the platform administrator is its peers'). */
  userAdmin: UserAdminService;
  menus: MenusService;
  /** Which projects, stations and devices a user reaches (the group, and the role's project grants). */
  scope: SiteScope;
  projects: ProjectsService;
  /** What happens to devices: the devices service emits, the handlers below subscribe. */
  deviceEvents: DeviceEvents;
  devices: DevicesService;
  deviceMap: DeviceMapService;
  onlineHours: OnlineHoursService;
  regions: RegionsRepository;
  /** A device's data points on its basic-data or control panel (the legacy DeviceBaseData and DeviceControlData calls). */
  panelPoints: PanelPointsService;
  deviceCards: DeviceCardsRepository;
  /** Accounts' arrangements of device pages. */
  deviceLayouts: DeviceLayoutsRepository;
  deviceImages: DeviceImagesRepository;
  projectImages: ProjectImagesRepository;
  /** The projects granted to roles. */
  roleProjects: RoleProjectsRepository;
  /** A device's SIM card as the SIM provider reports it. */
  simCards: SimCardService;
  appVersions: AppVersionsService;
  /** The data-definition library, its categories and warn-code links. */
  library: DataDefinesRepository;
  deviceTypes: DeviceTypesService;
  /** Which type or module a type's part hangs on, and what its references may name. */
  typeScope: TypeScope;
  typeFiles: TypeFilesService;
  templates: TemplatesService;
  /** The group's alarm configuration: warn types and warn codes. */
  warnConfig: WarnConfigService;
  /** Alarm notifications: rules, channels, quiet hours, the delivery queue and its job. */
  notifications: NotificationsService;
  /** Type statistics: daily and monthly figures, states and compliance, per-site totals. */
  statistics: StatisticsService;
  /** Cameras at play: provider adapters (EZVIZ, generic HLS) and the EZVIZ token cache. */
  video: VideoService;
  /** Field records: water-quality results and compliance, repairs, inspection rounds, their photos. */
  fieldRecords: FieldRecordsService;
  /** The monthly station report over field records, alarms and the online statistics. */
  stationReports: StationReportService;
  /** The audit trail: one entry per accepted write (modules/audit). */
  audit: AuditRepository;
}

export function createContext(config: Config, db: Db, dialect: DialectName, reads: Db = db): AppContext {
  const users = new UsersRepository(db);
  const sessions = new SessionsRepository(db);
  const groups = new GroupsRepository(db);
  const throttle = new LoginThrottle(db);
  const storage = config.STORAGE === 's3' ? new S3Storage(config) : new LocalStorage(path.join(config.DATA_DIR, 'uploads'));
  const scope = new SiteScope(db);
  const secrets = new SecretBox(config);
  const regions = new RegionsRepository(db);
  const refs = new SiteRefsCheck({ regions, clients: new ClientsRepository(db) });
  const deviceCards = new DeviceCardsRepository(db);
  const types = new DeviceTypesRepository(db);
  const typeScope = new TypeScope(types);

  const deviceEvents = new DeviceEvents();
  deviceEvents.on('created', "copy the type's standard template to the device", copyStandardTemplate);
  deviceEvents.on(
    'typeChanged',
    "replace what the old type put on the device by the new type's standard template",
    reapplyStandardTemplate,
  );
  deviceEvents.on('purged', "delete the device's live data and history", purgeDeviceLiveData);
  deviceEvents.on('purged', "delete the device's own data points and panels", removeDeviceData);
  deviceEvents.on('purged', "forget the accounts' layouts of the device's page", (trx, device) =>
    new DeviceLayoutsRepository(trx).removeDevice(device),
  );
  deviceEvents.on('purged', "delete the device's cameras", (trx, device) =>
    new DeviceVideosRepository(trx).removeOfDevice(device.groupId, device.deviceSn),
  );
  deviceEvents.on('purged', "delete the device's HJ 212 logger credential", async (trx, device) => {
    await new Hj212Repository(trx).removeLogger(device.groupId, device.deviceSn);
  });

  const fieldRecords = new FieldRecordsService({ repository: new FieldRecordsRepository(db), storage });
  const statistics = new StatisticsService({
    db,
    history: new HistoryRepository(reads),
    repository: new StatisticsRepository(db),
    alarms: new AlarmsRepository(db),
    scope,
    offsetMinutes: utcOffsetMinutes(config),
  });
  return {
    config,
    db,
    reads,
    dialect,
    users,
    groups,
    sessions,
    throttle,
    account: new AccountService(users, sessions, throttle, groups),
    avatars: new AvatarService(users, storage),
    storage,
    secrets,
    roles: new RolesRepository(db),
    userAdmin: new UserAdminService(new UserAdminRepository(db)),
    menus: new MenusService(new MenusRepository(db)),
    scope,
    projects: new ProjectsService({ db, storage, scope, refs }),
    deviceEvents,
    devices: new DevicesService({ db, storage, scope, events: deviceEvents, refs }),
    deviceMap: new DeviceMapService(new DeviceMapRepository(db)),
    onlineHours: new OnlineHoursService({ db, repository: new OnlineRepository(db), scope }),
    regions,
    panelPoints: new PanelPointsService({ scope, repository: new PanelPointsRepository(db) }),
    deviceCards,
    deviceLayouts: new DeviceLayoutsRepository(db),
    deviceImages: new DeviceImagesRepository(db),
    projectImages: new ProjectImagesRepository(db),
    roleProjects: new RoleProjectsRepository(db),
    simCards: new SimCardService({
      accounts: new SimAccountsRepository(db),
      scope,
      cards: deviceCards,
      secrets,
      apiUrl: config.SIM_API_URL,
    }),
    appVersions: new AppVersionsService({ repository: new AppVersionsRepository(db), storage }),
    library: new DataDefinesRepository(db),
    deviceTypes: new DeviceTypesService({ db, storage, repository: types }),
    typeScope,
    typeFiles: new TypeFilesService({ types, storage }),
    templates: new TemplatesService({ repository: new TemplatesRepository(db), typeScope }),
    warnConfig: new WarnConfigService(new WarnConfigRepository(db)),
    fieldRecords,
    notifications: new NotificationsService({
      repository: new NotificationsRepository(db),
      secrets,
      adapters: { webhook: new WebhookChannel(), email: new EmailChannel(), sms: new SmsChannel(config.SMS_API_URL) },
      settings: {
        intervalMs: config.NOTIFY_INTERVAL * 1000,
        maxAttempts: config.NOTIFY_MAX_ATTEMPTS,
        retryBaseMs: config.NOTIFY_RETRY_SECONDS * 1000,
        offsetMinutes: utcOffsetMinutes(config),
      },
    }),
    statistics,
    stationReports: new StationReportService({ records: fieldRecords, statistics, months: new StationMonthRepository(db) }),
    audit: new AuditRepository(db, dialect),
    video: new VideoService({
      repository: new DeviceVideosRepository(db),
      scope,
      secrets,
      adapters: { ezviz: new EzvizAdapter(config.EZVIZ_API_URL, utcOffsetMinutes(config)), hls: new HlsAdapter() },
    }),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}
