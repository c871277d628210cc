/** System menus (spec §3 System menu, §7 Menus): the side menu and run-time routes come from them. */
import { z } from 'zod';
import { anyText, messageRef, optional } from './rules.ts';
import { idRef, lowerCaseAliases } from './schema-fields.ts';

export const MENU_TYPE = { navigation: 0, link: 1 } as const;

export const routerDefinition = z.object({
  path: z.string().regex(/^\/[A-Za-z0-9/_:?-]*$/, { message: 'rule.routerPath' }),
  componentUrl: z.string().regex(/^[A-Za-z0-9/_-]+$/, { message: 'rule.componentUrl' }),
});
export type RouterDefinition = z.infer<typeof routerDefinition>;

/** Router arrives as a JSON string (as stored) or an object; either way it must hold path and componentUrl. */
export const routerField = z.preprocess((value) => {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return { invalid: value };
  }
}, routerDefinition.optional());

export const menuDto = z.object({
  Id: z.number(),
  Name: z.string(),
  ParentId: z.number(),
  Url: z.string(),
  Router: z.string().describe('JSON: { path, componentUrl }'),
  MenuType: z.union([z.literal(0), z.literal(1)]),
  Icon: z.string(),
  Remarks: z.string(),
  Sn: z.number(),
});
export type MenuDto = z.infer<typeof menuDto>;

const menuFields = {
  Name: anyText(1, 32),
  ParentId: z.coerce.number().int().min(0).default(0),
  Url: optional(anyText(0, 200)),
  Router: routerField,
  MenuType: z.coerce.number().pipe(z.union([z.literal(0), z.literal(1)], { message: messageRef('rule.menuType') })),
  Icon: optional(anyText(0, 64)),
  Remarks: optional(anyText(0, 200)),
  Sn: z.coerce.number().int().min(0).max(100000).default(0),
};

const linkNeedsRouter = (m: { MenuType: number; Router?: unknown }) => m.MenuType === 0 || m.Router !== undefined;
const routerIssue = { message: 'rule.routerRequired', path: ['Router'] };

/** AddMenu and UpdateSysMenu take the spec's `parentId` (and `id`) as well as ParentId. */
const aliases = lowerCaseAliases(['ParentId', 'Id']);
export const addMenuRequest = z.preprocess(aliases, z.object(menuFields).refine(linkNeedsRouter, routerIssue));
export const updateMenuRequest = z.preprocess(
  aliases,
  z.object({ Id: idRef, ...menuFields }).refine(linkNeedsRouter, routerIssue),
);

/** The default side menu of spec §2. `operator` marks what the Operator role sees. */
export interface DefaultMenu {
  Name: string;
  Icon: string;
  path?: string;
  componentUrl?: string;
  operator?: boolean;
  children?: DefaultMenu[];
}

const link = (Name: string, path: string, componentUrl: string, Icon = '', operator = false): DefaultMenu => ({
  Name,
  Icon,
  path,
  componentUrl,
  operator,
});

export const DEFAULT_MENUS: DefaultMenu[] = [
  link('Home', '/common/home', 'home', 'HomeOutlined', true),
  link('Projects', '/common/app/project', 'app/project', 'ProjectOutlined', true),
  link('Stations', '/common/app/station', 'app/station', 'EnvironmentOutlined', true),
  link('Devices', '/common/app/device', 'app/device', 'ApiOutlined', true),
  {
    Name: 'User Manager',
    Icon: 'TeamOutlined',
    children: [
      link('User list', '/user/list', 'user/list'),
      link('Client list', '/user/clientList', 'user/clientList'),
      link('Operations staff', '/user/principals', 'user/principals'),
    ],
  },
  {
    Name: 'Jurisdiction Manager',
    Icon: 'SafetyOutlined',
    children: [
      link('Permission modules', '/jurisdiction/permission/module', 'jurisdiction/permission/module'),
      link('Roles', '/jurisdiction/role', 'jurisdiction/role'),
    ],
  },
  {
    Name: 'Notice Manager',
    Icon: 'BellOutlined',
    operator: true,
    children: [
      link('Notice center', '/common/notice/list/0/0', 'common/notice/list', '', true),
      // The same screens 0010_notifications adds to existing groups.
      link('Notification channels', '/sys/notifyChannel', 'sys/notifyChannel'),
      link('Notification rules', '/sys/notifyRule', 'sys/notifyRule'),
      link('Delivery history', '/sys/notifyLog', 'sys/notifyLog'),
    ],
  },
  {
    Name: 'Field Records',
    Icon: 'FileDoneOutlined',
    operator: true,
    // The same screens 0020_field_records adds to existing groups.
    children: [
      link('Water quality', '/records/quality', 'records/quality', '', true),
      link('Repairs', '/records/repair', 'records/repair', '', true),
      link('Inspections', '/records/poll', 'records/poll', '', true),
      link('Monthly report', '/records/report', 'records/report', '', true),
      link('Discharge standards', '/records/standard', 'records/standard'),
    ],
  },
  {
    Name: 'System Configure',
    Icon: 'SettingOutlined',
    children: [
      link('Data definitions', '/sys/dataDefine', 'sys/dataDefine'),
      link('Linked data', '/sys/dataDefineWarnCode', 'sys/dataDefineWarnCode'),
      link('Data definition tags', '/sys/category', 'sys/category'),
      link('Device types', '/sys/devicetype', 'sys/devicetype'),
      link('Mobile app', '/sys/appfile', 'sys/appfile'),
      link('Warn types', '/sys/warntype', 'sys/warntype'),
      link('Warn codes', '/sys/warncode', 'sys/warncode'),
      link('Menu set', '/sys/menu', 'sys/menu'),
      link('Area set', '/sys/areaset', 'sys/areaset'),
      link('SIM management', '/sys/simboss', 'sys/simboss'),
      // Also added to existing groups by 0024_box_data_menu.
      link('Box data', '/sys/boxData', 'sys/boxData'),
      // Also added to existing groups by 0032c_hj212_menu.
      link('HJ 212', '/sys/hj212', 'sys/hj212'),
      // Also added to existing groups by 0033_audit_log.
      link('Audit trail', '/sys/audit', 'sys/audit'),
    ],
  },
  {
    Name: 'Device Manager',
    Icon: 'DeleteOutlined',
    children: [link('Device RecycleBin', '/device/recyclebin', 'device/recyclebin')],
  },
];
