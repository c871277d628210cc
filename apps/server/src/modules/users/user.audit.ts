/**
 * Users in the audit trail: the user's fields as the user calls show them, its roles by name,
 * and its password hash (masked in the entry; a changed password shows as a changed Password).
 * One query, not the profile's four: every write to a user reads this twice.
 */
import type { AuditSubject } from '../audit/audit-trail.ts';
import { plainSubject } from '../audit/audit-trail.ts';
import { reusableQuery } from '../../db/reusable-query.ts';

/** A row per role (one without roles when it has none). */
const userWithRoles = reusableQuery((db, id: number) =>
  db
    .selectFrom('users')
    .leftJoin('user_roles', 'user_roles.user_id', 'users.id')
    .leftJoin('roles', 'roles.id', 'user_roles.role_id')
    .select([
      'users.account',
      'users.user_name',
      'users.email',
      'users.phone',
      'users.user_type',
      'users.remark',
      'users.status',
      'users.is_platform_admin',
      'users.picture',
      'users.config',
      'users.password_hash',
      'roles.name as role',
    ])
    .where('users.id', '=', id)
    .orderBy('roles.name'),
);

export const userSubject: AuditSubject = {
  kind: 'user',
  load: async (ctx, _user, id) => {
    const rows = await userWithRoles(ctx.db, Number(id));
    const row = rows[0];
    if (!row) return null;
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
      Roles: rows.flatMap((r) => (r.role === null ? [] : [r.role])),
      Picture: row.picture,
      Config: row.config,
      Password: row.password_hash,
    };
  },
  name: (record) => (typeof record.Account === 'string' ? record.Account : undefined),
};

/** Sign-in, sign-out and renewed tokens: the entry holds the answer (its token masked). */
export const sessionSubject = plainSubject('session');
