/** Row types of the database, as Kysely sees them. Times are epoch milliseconds; flags are 0/1. */
import type { Generated } from 'kysely';

export interface GroupTable {
  id: Generated<number>;
  group_name: string;
  account: string;
  code: string;
  description: string;
  logo: string;
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
