/** Roles, modules, operates and the links between them (spec §3, §6, §7 Roles and permissions). */
import { z } from 'zod';
import { anyText } from './rules.ts';
import { idRef, lowerCaseAliases } from './schema-fields.ts';

/** The roles every new tenant starts with, stored by these names; the console shows them translated until renamed. */
export const DEFAULT_ROLE_NAMES = { administrator: 'Administrator', operator: 'Operator' } as const;

export const roleDto = z.object({
  Id: z.number(),
  Name: z.string(),
  IsAdmin: z.boolean(),
  /** The spec's Admin: the server sends a Chinese yes/no. */
  Admin: z.enum(['是', '否']),
  ModuleId: z.number().nullable(),
});
export type RoleDto = z.infer<typeof roleDto>;

const flag = z.preprocess(
  (v) => (v === 1 || v === '1' || v === 'true' ? true : v === 0 || v === '0' || v === 'false' ? false : v),
  z.boolean(),
);

const roleFields = {
  Name: anyText(1, 32),
  IsAdmin: flag.default(false),
  ModuleId: z.preprocess((v) => (v === '' || v === 0 ? null : v), idRef.nullable().optional()),
};
export const addRoleRequest = z.object(roleFields);
export const updateRoleRequest = z.object({ Id: idRef, ...roleFields });

export const moduleDto = z.object({ Id: z.number(), ModuleName: z.string(), Code: z.string() });
export type ModuleDto = z.infer<typeof moduleDto>;
const code = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, { message: 'rule.code' });
export const addModuleRequest = z.object({ ModuleName: anyText(1, 64), Code: code });
export const updateModuleRequest = z.object({ Id: idRef, ModuleName: anyText(1, 64), Code: code });

export const operateDto = z.object({ Id: z.number(), ModuleId: z.number(), Name: z.string(), Code: z.string() });
export type OperateDto = z.infer<typeof operateDto>;
export const addOperateRequest = z.object({ ModuleId: idRef, Name: anyText(1, 64), Code: code });
export const updateOperateRequest = addOperateRequest.extend({ Id: idRef });

export const roleOperateRequest = z.preprocess(
  (b) =>
    b && typeof b === 'object'
      ? {
          RoleId: (b as Record<string, unknown>).RoleId ?? (b as Record<string, unknown>).roleId,
          OperateId: (b as Record<string, unknown>).OperateId ?? (b as Record<string, unknown>).operateId,
        }
      : b,
  z.object({ RoleId: idRef, OperateId: idRef }),
);

/** PUT RoleSysMenu/AddOrUpdate: the full set of menus a role sees. `menu` may be ids joined by commas. */
export const roleMenusRequest = z.preprocess(
  (b) => {
    if (!b || typeof b !== 'object') return b;
    const v = b as Record<string, unknown>;
    const menu = v.Menu ?? v.menu ?? v.MenuIds ?? [];
    const ids = typeof menu === 'string' ? menu.split(',').filter((s) => s.trim() !== '') : menu;
    return { RoleId: v.RoleId ?? v.roleId, MenuIds: ids };
  },
  z.object({ RoleId: idRef, MenuIds: z.array(idRef).max(1000) }),
);

const grantOperate = z.coerce.number().int().min(0).max(9).default(0);

/**
 * POST {module}/roleproject: the spec's single grant (RoleId, ProjectId, Operate: grants the role
 * that project, or changes its operate), or the full set of projects a role may reach, each with
 * its operate (Projects: replaces the role's grants). One of ProjectId and Projects.
 */
export const roleProjectsRequest = z.preprocess(
  lowerCaseAliases(['RoleId', 'ProjectId', 'Operate', 'Projects']),
  z
    .object({
      RoleId: idRef,
      ProjectId: idRef.optional(),
      Operate: grantOperate,
      Projects: z
        .array(z.object({ ProjectId: idRef, Operate: grantOperate }))
        .max(10000)
        .optional(),
    })
    .refine((b) => (b.ProjectId === undefined) !== (b.Projects === undefined), {
      message: 'rule.required',
      path: ['ProjectId'],
    }),
);

export const saveUserRolesRequest = z.preprocess(
  (b) => {
    if (!b || typeof b !== 'object') return b;
    const v = b as Record<string, unknown>;
    const roles = v.RoleIds ?? v.RoleId ?? v.roleId ?? [];
    const list: unknown = Array.isArray(roles)
      ? roles
      : typeof roles === 'string' || typeof roles === 'number'
        ? String(roles).split(',').filter(Boolean)
        : roles;
    return { UserId: v.UserId ?? v.userId, RoleIds: list };
  },
  z.object({ UserId: idRef, RoleIds: z.array(idRef).max(100) }),
);
