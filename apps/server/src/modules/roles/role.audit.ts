/**
 * A role's grants in the audit trail: what it may do (its operates by code), which menus it
 * sees and which projects it reaches (with the grant's operate), each by name, sorted.
 */
import type { AuditSubject } from '../audit/audit-trail.ts';

export const roleGrantsSubject: AuditSubject = {
  kind: 'role',
  load: async (ctx, _user, id) => {
    const roleId = Number(id);
    const role = await ctx.db
      .selectFrom('roles')
      .select(['id', 'name', 'is_admin', 'group_id'])
      .where('id', '=', roleId)
      .executeTakeFirst();
    if (!role) return null;
    const operates = await ctx.roles.operates(roleId);
    const menus = await ctx.db
      .selectFrom('role_menus')
      .innerJoin('sys_menus', 'sys_menus.id', 'role_menus.menu_id')
      .select('sys_menus.name')
      .where('role_menus.role_id', '=', roleId)
      .orderBy('sys_menus.name')
      .execute();
    const projects = await ctx.roleProjects.grants(roleId, role.group_id);
    return {
      Id: role.id,
      Name: role.name,
      IsAdmin: role.is_admin === 1,
      Operates: operates.map((o) => o.code).sort(),
      Menus: menus.map((m) => m.name),
      Projects: projects.map((p) => `${p.ProjectName} (#${String(p.ProjectId)}, ${String(p.Operate)})`).sort(),
    };
  },
};
