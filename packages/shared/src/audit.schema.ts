/**
 * The audit trail (issue 22): one entry per write the server accepts — who (account, address),
 * when, which tenant, what (the kind of resource and its id) and the change (the resource before
 * and after, secrets masked). Entries are only ever added by the server and read here: the API
 * has no call that edits or deletes one.
 */
import { z } from 'zod';
import { emptyAsUndefined, idRef } from './schema-fields.ts';
import { SECRET_MASK } from './sim.schema.ts';
import { isMarkedSecret } from './secret-fields.ts';

type Label = { 'en-US': string; 'zh-CN': string };
const label = (en: string, zh: string): Label => ({ 'en-US': en, 'zh-CN': zh });

/** What an entry is about, with its name in both languages (filters, lists, exports). */
export const AUDIT_KINDS = {
  session: label('Session', '会话'),
  group: label('Group (tenant)', '集团（租户）'),
  user: label('User', '用户'),
  role: label('Role', '角色'),
  module: label('Permission module', '权限模块'),
  operate: label('Permission', '权限'),
  menu: label('Menu', '菜单'),
  client: label('Client', '客户'),
  region: label('Region', '区域'),
  project: label('Project or station', '项目或站点'),
  projectImage: label('Project image', '项目图片'),
  projectAffiliate: label('Project affiliate', '项目附属信息'),
  principal: label('Person in charge', '负责人'),
  device: label('Device', '设备'),
  deviceConfig: label('Device config', '设备配置'),
  deviceHardware: label('Device hardware', '设备硬件配置'),
  deviceCard: label('Device SIM card', '设备 SIM 卡'),
  deviceImage: label('Device image', '设备图片'),
  deviceDataDefine: label('Device data point', '设备数据点'),
  devicePanel: label('Device panel', '设备面板'),
  deviceLayout: label('Device page layout', '设备页面布局'),
  deviceVideo: label('Camera', '摄像头'),
  deviceAccessory: label('Device equipment', '设备附属设备'),
  deviceSystem: label('Duty/standby system', '主备系统'),
  deviceSystemAccessory: label('System equipment', '系统设备'),
  deviceSystemControl: label('System control step', '系统控制步骤'),
  command: label('Command', '控制命令'),
  deviceLog: label('Device log', '设备日志'),
  alarm: label('Alarm', '告警'),
  dataDefine: label('Data definition', '数据定义'),
  category: label('Data definition tag', '数据定义标签'),
  dataDefineWarnCode: label('Linked data', '关联数据'),
  warnType: label('Warn type', '告警类型'),
  warnCode: label('Warn code', '告警代码'),
  deviceType: label('Device type', '设备类型'),
  typeDataDefine: label('Type data point', '类型数据点'),
  typeArgument: label('Type argument', '类型参数'),
  typeConfig: label('Type config', '类型配置'),
  typeDisplayIcon: label('Type display icon', '类型显示图标'),
  typeHardware: label('Type hardware config', '类型硬件配置'),
  typeModule: label('Type module', '类型模块'),
  typeClass: label('Module class', '模块分类'),
  typeModuleControl: label('Module control', '模块控制项'),
  typeModuleArgument: label('Module argument', '模块参数'),
  typeModuleFeedback: label('Module feedback', '模块反馈'),
  typeOverview: label('Type overview', '类型概览'),
  typeSchema: label('Type schema', '类型结构'),
  typeStatistic: label('Type statistic', '类型统计'),
  typeMaintenance: label('Service interval', '保养周期'),
  typeImage: label('Type image', '类型图片'),
  typeUpdateFile: label('Upgrade file', '升级文件'),
  template: label('Template', '模板'),
  templateProfile: label('Template data point', '模板数据点'),
  templatePanel: label('Template panel', '模板面板'),
  templateArgs: label('Template argument', '模板参数'),
  templateAccessory: label('Template equipment', '模板附属设备'),
  templateControlData: label('Template control data', '模板控制数据'),
  templateConfig: label('Template config', '模板配置'),
  appVersion: label('Mobile app version', '移动应用版本'),
  simAccount: label('SIM provider account', 'SIM 服务商账号'),
  notifyChannel: label('Notification channel', '通知渠道'),
  notifyRule: label('Notification rule', '通知规则'),
  notifyDelivery: label('Notification delivery', '通知投递'),
  notifySettings: label('Quiet hours', '免打扰时段'),
  dischargeStandard: label('Discharge standard', '排放标准'),
  stationStandard: label('Station standard', '站点排放标准'),
  deviceInput: label('Water-quality record', '水质记录'),
  repair: label('Repair', '维修'),
  pollPlan: label('Inspection plan', '巡检计划'),
  poll: label('Inspection', '巡检'),
  recordPhoto: label('Record photo', '记录照片'),
  hj212Code: label('HJ 212 code', 'HJ 212 编码'),
  hj212Logger: label('HJ 212 logger', 'HJ 212 数采仪'),
  hj212Forward: label('HJ 212 forwarding', 'HJ 212 转发'),
  userSettings: label('Own settings', '个人设置'),
} as const satisfies Record<string, Label>;

export type AuditKind = keyof typeof AUDIT_KINDS;
export const AUDIT_KIND_NAMES = Object.keys(AUDIT_KINDS) as [AuditKind, ...AuditKind[]];

/** What was done, with its name in both languages. */
export const AUDIT_ACTIONS = {
  create: label('Created', '新增'),
  update: label('Changed', '修改'),
  delete: label('Deleted', '删除'),
  signIn: label('Signed in', '登录'),
  signInFailed: label('Sign-in refused', '登录失败'),
  signOut: label('Signed out', '退出登录'),
  renewSession: label('Session renewed', '会话续期'),
  register: label('Registered', '注册'),
  command: label('Command sent', '发送命令'),
  handle: label('Handled', '处理'),
  import: label('Imported', '导入'),
  copy: label('Copied', '复制'),
  restore: label('Restored', '恢复'),
  purge: label('Deleted for good', '彻底删除'),
  reorder: label('Reordered', '排序'),
  retry: label('Sent again', '重发'),
} as const satisfies Record<string, Label>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** How long entries are kept unless AUDIT_RETENTION_DAYS says otherwise: two years. */
export const AUDIT_RETENTION_DEFAULT_DAYS = 730;
/** The most rows one export holds; a larger selection is refused (narrow the filters). */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

/** What a secret reads as in an entry. */
export const AUDIT_MASK = SECRET_MASK;

/**
 * Keys whose values are secrets wherever they appear (any letter case): passwords and their
 * hashes, device and channel secrets, tokens, SIM passwords and app secrets, camera verification
 * codes and app keys, HJ 212 passwords (PW).
 */
const SECRET_KEY = /password|passwd|secret|token|securitycode|appkey|hash$|^pwd?$/i;

/** Whether each key seen matches SECRET_KEY (keys repeat: every entry of a kind has the same). */
const patternKeys = new Map<string, boolean>();

export function isSecretKey(key: string): boolean {
  let secret = patternKeys.get(key);
  if (secret === undefined) {
    secret = SECRET_KEY.test(key);
    if (patternKeys.size < 10_000) patternKeys.set(key, secret);
  }
  return secret || isMarkedSecret(key);
}

/**
 * The value with every secret's value replaced by the mask (an empty one stays empty), at any
 * depth; the value itself (not a copy) where nothing in it is a secret.
 */
export function maskSecrets(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map(maskSecrets);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  let out: Record<string, unknown> | undefined;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const inner = record[key];
    const masked =
      isSecretKey(key) && inner !== null && typeof inner !== 'object'
        ? inner === '' || inner === undefined
          ? inner
          : AUDIT_MASK
        : maskSecrets(inner);
    if (masked !== inner) {
      out ??= { ...record };
      out[key] = masked;
    }
  }
  return out ?? value;
}

const same = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * The top-level keys whose values differ between before and after (compared before masking, so
 * that a changed secret counts). A create or delete changes every key it has.
 */
export function changedKeys(before: unknown, after: unknown): string[] {
  const asRecord = (v: unknown): Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  const a = asRecord(before);
  const b = asRecord(after);
  const changed = Object.keys(a).filter((k) => !same(a[k], b[k]));
  for (const k of Object.keys(b)) if (!(k in a) && b[k] !== undefined) changed.push(k);
  return changed;
}

/** One entry as a list shows it (before and after come with the single entry). */
export const auditEntryDto = z.object({
  Id: z.number(),
  /** Epoch milliseconds. */
  At: z.number(),
  /** The tenant whose data changed (null: a refused sign-in to no known account). */
  GroupId: z.number().nullable(),
  GroupName: z.string(),
  UserId: z.number().nullable(),
  Account: z.string(),
  UserName: z.string(),
  /** The caller's address, as the server saw it (TRUST_PROXY decides whose X-Forwarded-For counts). */
  Address: z.string(),
  Action: z.enum(AUDIT_ACTION_NAMES),
  ResourceKind: z.enum(AUDIT_KIND_NAMES),
  /** The record's id (a device's serial number), '' when the call names none. */
  ResourceId: z.string(),
  ResourceName: z.string(),
  /** The page-level record it belongs to (a type part's type, a camera's device), else ''. */
  OwnerKind: z.union([z.enum(AUDIT_KIND_NAMES), z.literal('')]),
  OwnerId: z.string(),
  /** The call: method and route. */
  Route: z.string(),
  /** The keys whose values changed. */
  Changed: z.array(z.string()),
});
export type AuditEntryDto = z.infer<typeof auditEntryDto>;

export const auditEntryDetailDto = auditEntryDto.extend({
  /** The resource before the call (null for a create), secrets masked. */
  Before: z.unknown(),
  /** The resource after the call (null for a delete), secrets masked. */
  After: z.unknown(),
});
export type AuditEntryDetailDto = z.infer<typeof auditEntryDetailDto>;

/** The filters of the list and the export (with the paged list's PageNo, PageSize, Search, OrderBy, OrderType). */
export const auditQuery = z.object({
  /** From (epoch ms, or a local date or date-time). */
  Begin: emptyAsUndefined(z.union([z.coerce.number(), z.string().trim().min(1).max(40)])),
  /** To (a date alone means to the end of that day). */
  End: emptyAsUndefined(z.union([z.coerce.number(), z.string().trim().min(1).max(40)])),
  UserId: emptyAsUndefined(idRef),
  Account: emptyAsUndefined(z.string().trim().max(64)),
  ResourceKind: emptyAsUndefined(z.enum(AUDIT_KIND_NAMES)),
  /** With ResourceKind: that record's entries and those of what belongs to it. */
  ResourceId: emptyAsUndefined(z.string().trim().max(64)),
  Action: emptyAsUndefined(z.enum(AUDIT_ACTION_NAMES)),
  /** Platform administrators: one tenant's entries (others see their own tenant's only). */
  GroupId: emptyAsUndefined(idRef),
});
export type AuditQuery = z.infer<typeof auditQuery>;

export const AUDIT_SORTABLE = ['At', 'Account', 'Action', 'ResourceKind', 'Address'] as const;

export const auditExportQuery = auditQuery.extend({
  Format: z.enum(['csv', 'xlsx']).default('csv'),
  Search: z.string().max(200).optional(),
  OrderBy: z.string().max(64).optional(),
  OrderType: z.enum(['asc', 'desc', 'ASC', 'DESC']).optional(),
});

/** The columns of an export, in both languages. */
export const AUDIT_EXPORT_COLUMNS = {
  At: label('Time', '时间'),
  Group: label('Tenant', '租户'),
  Account: label('Account', '账号'),
  UserName: label('User', '用户'),
  Address: label('Address', '地址'),
  Action: label('Action', '操作'),
  ResourceKind: label('Kind', '对象类型'),
  ResourceId: label('Record', '对象编号'),
  ResourceName: label('Name', '对象名称'),
  Owner: label('Belongs to', '所属'),
  Changed: label('Changed', '变更字段'),
  Before: label('Before', '变更前'),
  After: label('After', '变更后'),
  Route: label('Call', '接口'),
} as const satisfies Record<string, Label>;
