/** Groups (tenants) in the audit trail: as the group calls show them. */
import type { AuditSubject } from '../audit/audit-trail.ts';

export const groupSubject: AuditSubject = {
  kind: 'group',
  load: async (ctx, _user, id) => (await ctx.groups.get(Number(id))) ?? null,
};
