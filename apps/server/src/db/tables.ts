/** Row types of the database, as Kysely sees them. Times are epoch milliseconds; flags are 0/1. */
import type { Generated } from 'kysely';

export interface GroupTable {
  id: Generated<number>;
  group_name: string;
  account: string;
  code: string;
  description: string;
  logo: string;
  /** 1: the watermark shows on the group's signed-in pages. */
  watermark: Generated<number>;
  created_at: number;
}

export interface UserTable {
  id: Generated<number>;
  group_id: number;
  account: string;
  user_name: string;
  email: string;
  phone: string;
  user_type: number;
  remark: string;
  password_hash: string;
  status: number;
  is_platform_admin: number;
  picture: string;
  config: string;
  created_at: number;
  updated_at: number;
}

export interface RoleTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  is_admin: number;
  module_id: number | null;
}

export interface UserRoleTable {
  user_id: number;
  role_id: number;
  group_id: number;
}

export interface SessionTable {
  token_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface LoginThrottleTable {
  key: string;
  failures: number;
  window_start: number;
  locked_until: number;
}

export interface Database {
  groups: GroupTable;
  users: UserTable;
  roles: RoleTable;
  user_roles: UserRoleTable;
  sessions: SessionTable;
  login_throttle: LoginThrottleTable;
  modules: ModuleTable;
  module_operates: ModuleOperateTable;
  role_operates: RoleOperateTable;
  sys_menus: SysMenuTable;
  role_menus: RoleMenuTable;
  role_projects: RoleProjectTable;
  clients: ClientTable;
  regions: RegionTable;
  projects: ProjectTable;
  project_images: ProjectImageTable;
  project_affiliates: ProjectAffiliateTable;
  principals: PrincipalTable;
  devices: DeviceTable;
  device_migrations: DeviceMigrationTable;
  device_configs: DeviceConfigTable;
  device_cards: DeviceCardTable;
  device_images: DeviceImageTable;
  data_categories: DataCategoryTable;
  data_defines: DataDefineTable;
  warn_types: WarnTypeTable;
  warn_codes: WarnCodeTable;
  data_define_warn_codes: DataDefineWarnCodeTable;
  device_types: DeviceTypeTable;
  type_data_defines: TypeDataDefineTable;
  type_arguments: TypeArgumentTable;
  type_configs: TypeConfigTable;
  type_display_icons: TypeDisplayIconTable;
  type_hardware_configs: TypeHardwareConfigTable;
  device_hardware_configs: DeviceHardwareConfigTable;
  device_panel_layouts: DevicePanelLayoutTable;
  device_videos: DeviceVideoTable;
  hj212_loggers: Hj212LoggerTable;
  hj212_codes: Hj212CodeTable;
  hj212_forwards: Hj212ForwardTable;
  hj212_forward_requests: Hj212ForwardRequestTable;
  hj212_split_parts: Hj212SplitPartTable;
  device_accessories: DeviceAccessoryTable;
  device_systems: DeviceSystemTable;
  device_system_accessories: DeviceSystemAccessoryTable;
  device_system_control_data: DeviceSystemControlDataTable;
  type_modules: TypeModuleTable;
  type_classes: TypeClassTable;
  type_module_controls: TypeModuleControlTable;
  type_module_arguments: TypeModuleArgumentTable;
  type_module_feedbacks: TypeModuleFeedbackTable;
  type_overviews: TypeOverviewTable;
  type_schemas: TypeSchemaTable;
  type_statistics: TypeStatisticTable;
  type_maintenance: TypeMaintenanceTable;
  maintenance_counters: MaintenanceCounterTable;
  type_images: TypeImageTable;
  type_update_files: TypeUpdateFileTable;
  type_templates: TypeTemplateTable;
  template_panels: TemplatePanelTable;
  template_profiles: TemplateProfileTable;
  template_args: TemplateArgTable;
  template_accessories: TemplateAccessoryTable;
  template_control_data: TemplateControlDataTable;
  template_configs: TemplateConfigTable;
  device_panels: DevicePanelTable;
  device_data_defines: DeviceDataDefineTable;
  app_versions: AppVersionTable;
  sim_accounts: SimAccountTable;
  telemetry_series: TelemetrySeriesTable;
  telemetry_raw: TelemetryRawTable;
  telemetry_hourly: TelemetryRollupTable;
  telemetry_daily: TelemetryRollupTable;
  device_latest: DeviceLatestTable;
  device_online_periods: DeviceOnlinePeriodTable;
  warns: WarnTable;
  device_logs: DeviceLogTable;
  notify_channels: NotifyChannelTable;
  notify_rules: NotifyRuleTable;
  notify_settings: NotifySettingsTable;
  notify_deliveries: NotifyDeliveryTable;
  discharge_standards: DischargeStandardTable;
  station_standards: StationStandardTable;
  device_inputs: DeviceInputTable;
  repairs: RepairTable;
  poll_plans: PollPlanTable;
  polls: PollTable;
  record_photos: RecordPhotoTable;
  audit_log: AuditLogTable;
  /** The newest entries, not yet moved into audit_log (migration 0034). */
  audit_recent: AuditLogTable;
}

export interface ModuleTable {
  id: Generated<number>;
  group_id: number;
  module_name: string;
  code: string;
}

export interface ModuleOperateTable {
  id: Generated<number>;
  group_id: number;
  module_id: number;
  name: string;
  code: string;
}

export interface RoleOperateTable {
  role_id: number;
  operate_id: number;
}

export interface SysMenuTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  parent_id: number;
  url: string;
  router: string;
  menu_type: number;
  icon: string;
  remarks: string;
  sn: number;
}

export interface RoleMenuTable {
  role_id: number;
  menu_id: number;
}

export interface RoleProjectTable {
  role_id: number;
  project_id: number;
  operate: number;
}

export interface ClientTable {
  id: Generated<number>;
  group_id: number;
  client_name: string;
  client_sn: string;
  linkman: string;
  telephone: string;
  mobile: string;
  address: string;
  description: string;
}

export interface RegionTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  radius: Generated<string>;
  parent_id: Generated<number>;
  region_code: Generated<string>;
  point: Generated<string>;
}

/** Clients-as-nodes (-1), projects (0) and stations (1); parent_id 0 is none. */
export interface ProjectTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  project_type: number;
  parent_id: number;
  client_id: number | null;
  region_id: number | null;
  area_id: string | null;
  address: string;
  position: string;
  created_at: number;
  updated_at: number;
}

export interface ProjectImageTable {
  id: Generated<number>;
  group_id: number;
  project_id: number;
  storage_key: string;
  /** 0 is the cover */
  sn: number;
  created_at: number;
}

export interface ProjectAffiliateTable {
  id: Generated<number>;
  group_id: number;
  project_id: number;
  affiliate_name: string;
  affiliate_value: Generated<string>;
}

export interface PrincipalTable {
  id: Generated<number>;
  group_id: number;
  /** 'project:<id>' or 'device:<sn>' */
  parent_ref: string;
  name: string;
  phone: Generated<string>;
}

export interface DeviceTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  device_no: string;
  device_name: string;
  device_description: string;
  type_id: number | null;
  project_id: number | null;
  region_id: number | null;
  area_id: string | null;
  position: string;
  address: string;
  online: number;
  last_seen: number | null;
  secret_hash: string;
  created_at: number;
  updated_at: number;
  /** set while the device is in the recycle bin */
  deleted_at: number | null;
  deleted_by: number | null;
  deleted_by_name: Generated<string>;
  /** the day the device was put into use (YYYY-MM-DD), or '' */
  use_time: Generated<string>;
}

export interface DeviceMigrationTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  from_project_id: number | null;
  from_project_name: string;
  to_project_id: number | null;
  to_project_name: string;
  user_id: number | null;
  user_name: string;
  created_at: number;
}

export interface DeviceConfigTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  data_name: string;
  data_type: Generated<string>;
  data_value: Generated<string>;
  /** 1 when the device's type put it there (its standard template), 0 when a user added it. */
  from_type: Generated<number>;
}

export interface DeviceCardTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  iccid: string;
  created_at: number;
}

export interface DeviceImageTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  image_name: string;
  storage_key: string;
  rank: number;
  created_at: number;
}

// ---- Device types and data definitions (0004_device_types) --------------------------------

export interface DataCategoryTable {
  id: Generated<number>;
  group_id: number;
  name: string;
}

export interface DataDefineTable {
  id: Generated<number>;
  group_id: number;
  data_key: string;
  data_name: string;
  unit: Generated<string>;
  data_type: string;
  default_value: Generated<string>;
  format: Generated<string>;
  model: Generated<string>;
  /** category names joined by commas */
  category: Generated<string>;
}

export interface WarnTypeTable {
  id: Generated<number>;
  group_id: number;
  type_name: string;
  color: Generated<string>;
  icon: Generated<string>;
}

export interface WarnCodeTable {
  id: Generated<number>;
  group_id: number;
  warn_type_id: number;
  code: string;
  description: Generated<string>;
}

export interface DataDefineWarnCodeTable {
  id: Generated<number>;
  group_id: number;
  data_key: string;
  code: string;
}

export interface DeviceTypeTable {
  id: Generated<number>;
  group_id: number;
  type_name: string;
  icon: Generated<string>;
  parent_id: Generated<number>;
  description: Generated<string>;
  status: Generated<number>;
}

export interface TypeDataDefineTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  data_define_id: number;
  auto_control: Generated<number>;
  out_key: Generated<string>;
  show_type: Generated<number>;
}

export interface TypeArgumentTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  define_id: number;
  name: string;
  category: Generated<string>;
}

export interface TypeConfigTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  data_name: string;
  data_type: string;
  data_value: Generated<string>;
  category: Generated<string>;
  position: Generated<string>;
}

export interface TypeDisplayIconTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  name: string;
  sn: Generated<number>;
  data_define_id: number;
  icon: Generated<string>;
  data_define_key: Generated<string>;
}

export interface TypeHardwareConfigTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  data_define_id: number;
  no: Generated<string>;
  sn: Generated<number>;
  show_key: Generated<string>;
  key_type: Generated<string>;
  max_value: number | null;
  min_value: number | null;
  comm: Generated<string>;
  port: Generated<string>;
  modbus_slave: Generated<number>;
  plc_type: Generated<string>;
  reg_ad: Generated<number>;
  cmd: Generated<number>;
  address: Generated<string>;
  bit_off_set: Generated<number>;
  lens: Generated<number>;
}

/** An account's arrangement of a device's page: the grid items as JSON. */
export interface DevicePanelLayoutTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  device_sn: string;
  layout: string;
  updated_at: number;
}

/** A device's own hardware row: a type's hardware row's fields, under the device. */
export interface DeviceHardwareConfigTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  data_define_id: number;
  no: Generated<string>;
  sn: Generated<number>;
  show_key: Generated<string>;
  key_type: Generated<string>;
  max_value: number | null;
  min_value: number | null;
  comm: Generated<string>;
  port: Generated<string>;
  modbus_slave: Generated<number>;
  plc_type: Generated<string>;
  reg_ad: Generated<number>;
  cmd: Generated<number>;
  address: Generated<string>;
  bit_off_set: Generated<number>;
  lens: Generated<number>;
}

export interface DeviceVideoTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  video_name: string;
  provider: Generated<string>;
  video_sn: Generated<string>;
  channel: Generated<number>;
  /** Sealed (security/secret-box.ts), like app_key, secret and access_token. */
  security_code: Generated<string>;
  url: Generated<string>;
  playback_url: Generated<string>;
  app_key: Generated<string>;
  secret: Generated<string>;
  access_token: Generated<string>;
  expire_time: number | null;
}

export interface DeviceAccessoryTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  name: Generated<string>;
  icon: Generated<string>;
}

export interface DeviceSystemTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  name: Generated<string>;
  rest_time: Generated<number>;
}

export interface DeviceSystemAccessoryTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  system_id: number;
  name: Generated<string>;
  icon: Generated<string>;
}

export interface DeviceSystemControlDataTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  system_id: number;
  accessory_id: number;
  control_name: Generated<string>;
  data_value: number;
  data_define_id: number;
  associate_define_id: number | null;
  sequence_in: Generated<number>;
}

export interface TypeModuleTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  module_name: string;
  module_type: Generated<string>;
  sn: Generated<number>;
}

export interface TypeClassTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  name: string;
  rank: Generated<number>;
}

export interface TypeModuleControlTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  module_id: number;
  control_key: Generated<string>;
  control_name: string;
  data_define_id: number;
  show_type: Generated<string>;
  format: Generated<string>;
  unit: Generated<string>;
  auto_control: Generated<number>;
  formula: Generated<string>;
  data_value: Generated<string>;
  sn: Generated<number>;
  class_id: number | null;
}

export interface TypeModuleArgumentTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  module_id: number;
  data_define_id: number;
  name: string;
  category: Generated<string>;
}

export interface TypeModuleFeedbackTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  module_control_id: number;
  data_define_id: number;
  sn: Generated<number>;
}

export interface TypeOverviewTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  type_data_define_id: number;
  name: string;
  sn: Generated<number>;
}

export interface TypeSchemaTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  data_define_id: number | null;
  name: string;
  value: Generated<string>;
  schema_type: Generated<string>;
  /** 0 at the root */
  parent_id: Generated<number>;
}

export interface TypeStatisticTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  stat_key: Generated<string>;
  data_define_id: number;
  statics_type: string;
  display_type: Generated<string>;
  standard: Generated<string>;
  filter_value: Generated<string>;
  filter_type: Generated<string>;
  show_state: Generated<number>;
  s_unit: Generated<string>;
  name: string;
}

/** A device type's service interval: hours its run switch may be on between services. */
export interface TypeMaintenanceTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  data_define_id: number;
  run_key: Generated<string>;
  name: string;
  interval_hours: number;
}

/** A device's run time counted for a service interval, and the maintenance repair it opened. */
export interface MaintenanceCounterTable {
  device_sn: string;
  maintenance_id: number;
  group_id: number;
  run_seconds: Generated<number>;
  counted_to: number;
  service_seconds: Generated<number>;
  open_repair_id: number | null;
}

export interface TypeImageTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  image_name: Generated<string>;
  sn: Generated<number>;
  storage_key: string;
  kind: string;
  created_at: number;
}

export interface TypeUpdateFileTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  file_name: Generated<string>;
  version: string;
  role: string;
  description: Generated<string>;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: number;
}

export interface TypeTemplateTable {
  id: Generated<number>;
  group_id: number;
  type_id: number;
  temp_name: string;
  is_standard: Generated<number>;
  device_sn: Generated<string>;
}

export interface TemplatePanelTable {
  id: Generated<number>;
  group_id: number;
  temp_id: number;
  panel_type_id: number;
  panel_name: string;
  sn: Generated<number>;
}

export interface TemplateProfileTable {
  id: Generated<number>;
  group_id: number;
  temp_id: number;
  panel_id: number | null;
  data_type: string;
  data_key: string;
  display_key: Generated<string>;
  data_name: string;
  unit: Generated<string>;
  default_value: Generated<string>;
  format: Generated<string>;
  auto_control: Generated<number>;
}

export interface TemplateArgTable {
  id: Generated<number>;
  group_id: number;
  temp_id: number;
  data_name: string;
  data_type: string;
  data_value: Generated<string>;
}

export interface TemplateAccessoryTable {
  id: Generated<number>;
  group_id: number;
  temp_id: number;
  name: string;
  icon: Generated<string>;
}

export interface TemplateControlDataTable {
  id: Generated<number>;
  group_id: number;
  temp_id: number;
  control_name: string;
  data_value: Generated<string>;
  data_define_key: Generated<string>;
  associate_key: Generated<string>;
  sequence_in: Generated<number>;
  sequence_out: Generated<number>;
  i_state: Generated<number>;
  accessory_id: number | null;
}

export interface TemplateConfigTable {
  id: Generated<number>;
  group_id: number;
  temp_id: number;
  category: Generated<string>;
  define_key: string;
  name: string;
}

export interface DevicePanelTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  panel_name: string;
  /** the panel type (PANEL_TYPES) */
  type_id: number;
  sn: Generated<number>;
  /** 1 when the device's type put it there (its standard template), 0 when a user added it. */
  from_type: Generated<number>;
}

export interface DeviceDataDefineTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  panel_id: number | null;
  data_key: string;
  display_key: Generated<string>;
  data_name: string;
  unit: Generated<string>;
  data_type: string;
  default_value: Generated<string>;
  format: Generated<string>;
  auto_control: Generated<number>;
  /** 1 when the device's type put it there (its standard template), 0 when a user added it. */
  from_type: Generated<number>;
}

export interface AppVersionTable {
  id: Generated<number>;
  group_id: number;
  app_type: string;
  version_no: string;
  description: Generated<string>;
  state: Generated<number>;
  file_name: Generated<string>;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: number;
}

export interface SimAccountTable {
  id: Generated<number>;
  group_id: number;
  sim_account: string;
  /** sealed with the SECRET_KEY */
  sim_password: string;
  app_id: string;
  /** sealed with the SECRET_KEY */
  app_secret: string;
}

// ---- Live data (0005_telemetry) ----------------------------------------------------------

export interface TelemetrySeriesTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  data_key: string;
  /** 0 when the key is not among the device's data definitions (kept, but flagged). */
  defined: number;
  created_at: number;
}

export interface TelemetryRawTable {
  series_id: number;
  ts: number;
  num: number | null;
  txt: string | null;
}

/** Hourly and daily roll-ups of a numeric series; bucket is the start of the hour or local day. */
export interface TelemetryRollupTable {
  series_id: number;
  bucket: number;
  cnt: number;
  sum: number;
  min: number;
  max: number;
  first_ts: number;
  first: number;
  last_ts: number;
  last: number;
}

export interface DeviceLatestTable {
  device_sn: string;
  group_id: number;
  ts: number;
  /** JSON object of the latest values by DataKey. */
  data: string;
  updated_at: number;
}

export interface DeviceOnlinePeriodTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  started_at: number;
  ended_at: number | null;
  end_reason: Generated<string>;
}

export interface WarnTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  project_id: number | null;
  code: string;
  group_code: Generated<string>;
  data_key: Generated<string>;
  warn_type_id: number | null;
  description: Generated<string>;
  comments: Generated<string>;
  /** 0 not handled, 1 handled */
  state: Generated<number>;
  /** 1 while the device still reports the code */
  active: Generated<number>;
  dt: number;
  cleared_at: number | null;
  handled_at: number | null;
  /** The user who handled it (null until handled, or once that user is gone). */
  handled_by: number | null;
  /** Their name when they handled it. */
  handled_by_name: Generated<string>;
  /** Where it came from: device (error topic or linked data), offline, manual. */
  source: Generated<string>;
}

export interface DeviceLogTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  command_id: string;
  data_key: string;
  key_name: Generated<string>;
  old_value: Generated<string>;
  new_value: Generated<string>;
  send_time: number;
  ack_time: number | null;
  /** DEVICE_LOG_STATE: 0 sent, 1 done, 2 refused by the device, 3 a device message the server refused, 4 timed out (no answer within COMMAND_TIMEOUT), 5 a note */
  state: Generated<number>;
  message: Generated<string>;
  user_id: number | null;
  user_name: Generated<string>;
}

// ---- Notifications (0010_notifications) ---------------------------------------------------

export interface NotifyChannelTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  /** webhook, email, sms */
  kind: string;
  enabled: Generated<number>;
  url: Generated<string>;
  smtp_host: Generated<string>;
  smtp_port: Generated<number>;
  smtp_secure: Generated<number>;
  /** The SMTP user, or the SMS AccessKeyId. */
  user_name: Generated<string>;
  /** sealed with the SECRET_KEY: the webhook's signing secret, the SMTP password or the SMS AccessKeySecret */
  secret: Generated<string>;
  /** The e-mail From address, or the SMS sign name. */
  sender: Generated<string>;
  /** The SMS template code. */
  template: Generated<string>;
}

export interface NotifyRuleTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  enabled: Generated<number>;
  level: Generated<number>;
  delay_minutes: Generated<number>;
  channel_id: number;
  /** Comma-separated ids; '' is all. */
  type_ids: Generated<string>;
  project_ids: Generated<string>;
  user_ids: Generated<string>;
  urgent: Generated<number>;
}

export interface NotifySettingsTable {
  group_id: number;
  quiet_enabled: Generated<number>;
  /** HH:mm, local time */
  quiet_start: Generated<string>;
  quiet_end: Generated<string>;
}

/** One attempt to deliver one alarm to one recipient; pending and held rows are the queue. */
export interface NotifyDeliveryTable {
  id: Generated<number>;
  group_id: number;
  warn_id: number;
  rule_id: number | null;
  rule_name: Generated<string>;
  channel_id: number | null;
  channel_name: Generated<string>;
  kind: string;
  level: number;
  urgent: Generated<number>;
  recipient: Generated<string>;
  recipient_name: Generated<string>;
  /** The user it was for (null for a webhook). */
  user_id: number | null;
  device_sn: Generated<string>;
  code: Generated<string>;
  description: Generated<string>;
  attempt: Generated<number>;
  /** pending, held, sending, sent, failed, cancelled */
  status: string;
  due_at: number;
  done_at: number | null;
  error: Generated<string>;
  created_at: number;
  updated_at: number;
}

/** A discharge standard an administrator entered (a provincial table of limits, mg/L; null: not limited). */
export interface DischargeStandardTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  description: Generated<string>;
  cod: number | null;
  bod5: number | null;
  nh3_n: number | null;
  nh3_n_cold: number | null;
  tn: number | null;
  tp: number | null;
  ss: number | null;
  ph_min: number | null;
  ph_max: number | null;
  fc: number | null;
}

/** The standard a station (or project) is held to: 'GB18918-1A' … or 'custom:<id>'. */
export interface StationStandardTable {
  project_id: number;
  group_id: number;
  standard: string;
}

/** A water-quality result (spec §3 Device input): influent (_in) and effluent (_out) per parameter. */
export interface DeviceInputTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  project_id: number | null;
  dt: number;
  water_inflow: number | null;
  water_temp: number | null;
  cod_in: number | null;
  cod_out: number | null;
  cod_unit: Generated<string>;
  bod5_in: number | null;
  bod5_out: number | null;
  bod5_unit: Generated<string>;
  nh3_n_in: number | null;
  nh3_n_out: number | null;
  nh3_n_unit: Generated<string>;
  tn_in: number | null;
  tn_out: number | null;
  tn_unit: Generated<string>;
  tp_in: number | null;
  tp_out: number | null;
  tp_unit: Generated<string>;
  ss_in: number | null;
  ss_out: number | null;
  ss_unit: Generated<string>;
  ph_in: number | null;
  ph_out: number | null;
  fc_in: number | null;
  fc_out: number | null;
  sampler: Generated<string>;
  laboratory: Generated<string>;
  remark: Generated<string>;
  created_by: number | null;
  created_by_name: Generated<string>;
  created_at: number;
}

/** A repair and where it stands: reported, assigned, in_progress, done, verified. */
export interface RepairTable {
  id: Generated<number>;
  group_id: number;
  project_id: number;
  device_sn: Generated<string>;
  repair_title: string;
  repair_content: Generated<string>;
  fault_code: Generated<string>;
  state: string;
  assignee_id: number | null;
  assignee_name: Generated<string>;
  due_at: number | null;
  parts: Generated<string>;
  cost: number | null;
  resolution: Generated<string>;
  reject_note: Generated<string>;
  warn_id: number | null;
  reported_by: number | null;
  reported_by_name: Generated<string>;
  created_at: number;
  updated_at: number;
  assigned_at: number | null;
  started_at: number | null;
  done_at: number | null;
  verified_at: number | null;
  /** The service interval (type_maintenance) whose run hours made this repair. */
  maintenance_id: number | null;
}

/** A station's inspection checklist (JSON array of items) and the days between rounds (0: none). */
export interface PollPlanTable {
  project_id: number;
  group_id: number;
  items: Generated<string>;
  interval_days: Generated<number>;
}

/** An inspection round: each item's result (JSON), the time on site, who did it. */
export interface PollTable {
  id: Generated<number>;
  group_id: number;
  project_id: number;
  poll_title: string;
  poll_content: Generated<string>;
  results: Generated<string>;
  issues: Generated<number>;
  /** JSON array of { Chemical, Quantity, Unit } added to the dosing tanks. */
  chemicals: Generated<string>;
  arrived_at: number;
  left_at: number | null;
  created_by: number | null;
  inspector: Generated<string>;
  created_at: number;
}

/** A photo of a water-quality record, repair (before / after) or inspection round. */
export interface RecordPhotoTable {
  id: Generated<number>;
  group_id: number;
  record_kind: string;
  record_id: number;
  stage: Generated<string>;
  storage_key: string;
  created_at: number;
}

export interface Hj212LoggerTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  mn: string;
  password_hash: string;
  /** Packets received from it, on every instance (hj212-listener.ts). */
  received: Generated<number>;
  stored: Generated<number>;
  /** JSON: refusals by kind. */
  refused: Generated<string>;
  last_packet: number | null;
  last_refusal: Generated<string>;
  /** The instance holding a connection authenticated as it ('' none). */
  connection: Generated<string>;
}

export interface Hj212CodeTable {
  id: Generated<number>;
  group_id: number;
  code: string;
  data_key: string;
  name: Generated<string>;
  scale: Generated<number>;
  /** '', 'volume' or 'load' (hj212-period.ts). */
  total: Generated<string>;
}

export interface Hj212ForwardTable {
  id: Generated<number>;
  group_id: number;
  name: string;
  device_sn: string;
  host: string;
  port: number;
  mn: string;
  /** Sealed (SecretBox). */
  password: string;
  codes: Generated<string>;
  kinds: Generated<string>;
  minute_interval: Generated<number>;
  enabled: Generated<number>;
  start_at: number;
  cursors: Generated<string>;
  /** The link as the job leader last saw it, at state_at (hj212-forwarder.ts). */
  link_connected: Generated<number>;
  link_backlog: Generated<number>;
  last_error: Generated<string>;
  last_sent: number | null;
  state_at: number | null;
}

/** A supervising platform's request for a range again, until its 9012 is sent. */
export interface Hj212ForwardRequestTable {
  id: Generated<number>;
  group_id: number;
  forward_id: number;
  /** 'minute', 'hourly' or 'daily'. */
  kind: string;
  next_at: number;
  end_at: number;
  qn: Generated<string>;
  sent_any: Generated<number>;
  created_at: number;
}

/** A part of a logger's split upload, answered and kept until its split is joined. */
export interface Hj212SplitPartTable {
  id: Generated<number>;
  group_id: number;
  device_sn: string;
  cn: string;
  qn: string;
  pnum: number;
  pno: number;
  /** JSON [key, value] pairs. */
  cp: string;
  received_at: number;
}

/** One write the server accepted (issue 22); before, after and changed are JSON, secrets masked. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  group_id: number | null;
  user_id: number | null;
  account: Generated<string>;
  user_name: Generated<string>;
  address: Generated<string>;
  action: string;
  resource_kind: string;
  resource_id: Generated<string>;
  resource_name: Generated<string>;
  owner_kind: Generated<string>;
  owner_id: Generated<string>;
  route: Generated<string>;
  before: string | null;
  after: string | null;
  changed: Generated<string>;
}
