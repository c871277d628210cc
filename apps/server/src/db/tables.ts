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
