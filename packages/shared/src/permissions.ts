/**
 * The operates (permissions) the server checks, grouped in modules. A new tenant gets these
 * modules and operates; its Administrator role passes every check, its Operator role gets the
 * operates marked `operator`. Routes name an operate by its code.
 */
export interface OperateDefinition {
  Code: string;
  Name: { 'en-US': string; 'zh-CN': string };
  operator: boolean;
}

export interface ModuleDefinition {
  Code: string;
  ModuleName: { 'en-US': string; 'zh-CN': string };
  operates: OperateDefinition[];
}

const op = (Code: string, en: string, zh: string, operator = false): OperateDefinition => ({
  Code,
  Name: { 'en-US': en, 'zh-CN': zh },
  operator,
});

export const PERMISSION_MODULES = [
  {
    Code: 'user',
    ModuleName: { 'en-US': 'Users', 'zh-CN': '用户管理' },
    operates: [op('user.view', 'View users', '查看用户'), op('user.manage', 'Manage users', '管理用户')],
  },
  {
    Code: 'client',
    ModuleName: { 'en-US': 'Clients', 'zh-CN': '客户管理' },
    operates: [op('client.view', 'View clients', '查看客户', true), op('client.manage', 'Manage clients', '管理客户')],
  },
  {
    Code: 'role',
    ModuleName: { 'en-US': 'Roles and permissions', 'zh-CN': '权限管理' },
    operates: [op('role.view', 'View roles', '查看角色'), op('role.manage', 'Manage roles and permissions', '管理角色与权限')],
  },
  {
    Code: 'menu',
    ModuleName: { 'en-US': 'Menus', 'zh-CN': '菜单管理' },
    operates: [op('menu.manage', 'Manage menus', '管理菜单')],
  },
  {
    Code: 'project',
    ModuleName: { 'en-US': 'Projects and stations', 'zh-CN': '项目与站点' },
    operates: [
      op('project.view', 'View projects and stations', '查看项目与站点', true),
      op('project.manage', 'Manage projects and stations', '管理项目与站点'),
    ],
  },
  {
    Code: 'device',
    ModuleName: { 'en-US': 'Devices', 'zh-CN': '设备管理' },
    operates: [
      op('device.view', 'View devices and live data', '查看设备与实时数据', true),
      op('device.control', 'Control devices', '控制设备', true),
      op('device.manage', 'Manage devices', '管理设备'),
    ],
  },
  {
    Code: 'records',
    ModuleName: { 'en-US': 'Field records', 'zh-CN': '现场记录' },
    operates: [
      op('records.view', 'View water quality, repairs and inspections', '查看水质、维修与巡检记录', true),
      op(
        'records.enter',
        'Enter water quality, report and carry out repairs, record inspections',
        '录入水质、报修与维修、巡检记录',
        true,
      ),
      op(
        'records.manage',
        'Assign and verify repairs, set standards and checklists, delete records',
        '派单与验收维修、设置排放标准与巡检项、删除记录',
      ),
    ],
  },
  {
    Code: 'system',
    ModuleName: { 'en-US': 'System configuration', 'zh-CN': '系统配置' },
    operates: [op('system.manage', 'Configure device types, data definitions and alarms', '配置设备类型、数据定义与告警')],
  },
  {
    // Also added to existing groups by 0033_audit_log.
    Code: 'audit',
    ModuleName: { 'en-US': 'Audit trail', 'zh-CN': '操作审计' },
    operates: [op('audit.view', 'View the audit trail', '查看操作审计')],
  },
] as const satisfies readonly ModuleDefinition[];

export type OperateCode = (typeof PERMISSION_MODULES)[number]['operates'][number]['Code'];

export const ALL_OPERATES: OperateCode[] = PERMISSION_MODULES.flatMap((m) => m.operates.map((o) => o.Code));
