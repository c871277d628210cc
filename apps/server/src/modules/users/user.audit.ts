/**
 * Users in the audit trail: the user's fields as the user calls show them, its roles by name,
 * and its password hash (masked in the entry; a changed password shows as a changed Password).
 * Two queries, not the profile's four: every write to a user reads this twice.
 */
import type { AuditSubject } from '../audit/audit-trail.ts';
import { plainSubject } from '../audit/audit-trail.ts';

export const userSubject: AuditSubject = {
  kind: 'user',
  load: async (ctx, _user, id) => {
    const row = await ctx.db
      .selectFrom('users')
      .select([
        'account',
        'user_name',
        'email',
        'phone',
        'user_type',
        'remark',
        'status',
        'is_platform_admin',
        'picture',
        'config',
        'password_hash',
      ])
      .where('id', '=', Number(id))
      .executeTakeFirst();
    if (!row) return null;
    const roles = await ctx.db
      .selectFrom('user_roles')
      .innerJoin('roles', 'roles.id', 'user_roles.role_id')
      .select('roles.name')
      .where('user_roles.user_id', '=', Number(id))
      .orderBy('roles.name')
      .execute();
    return {
      Id: Number(id),
      Account: row.account,
      UserName: row.user_name,
      Email: row.email,
      Phone: row.phone,
      UserType: row.user_type,
      Remark: row.remark,
      Status: row.status,
      IsPlatformAdmin: row.is_platform_admin === 1,
      Roles: roles.map((r) => r.name),
      Picture: row.picture,
      Config: row.config,
      Password: row.password_hash,
    };
  },
  name: (record) => (typeof record.Account === 'string' ? record.Account : undefined),
};

/** Sign-in, sign-out and renewed tokens: the entry holds the answer (its token masked). */
export const sessionSubject = plainSubject('session');
