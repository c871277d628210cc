/** Administrators' user calls (spec §7 Account and users). */
import { z } from 'zod';
import { account, anyText, email, optional, password, phone } from './rules.ts';
import { userStatus } from './account.schema.ts';
import { idRef } from './schema-fields.ts';

export const userListItem = z.object({
  Id: z.number(),
  Account: z.string(),
  UserName: z.string(),
  Email: z.string(),
  Phone: z.string(),
  UserType: z.number(),
  Remark: z.string(),
  Status: userStatus,
  /** The spec's Valide: whether the account may sign in. */
  Valide: z.boolean(),
  IsAdmin: z.boolean(),
  RoleName: z.string(),
  RoleIds: z.array(z.number()),
  CreatedAt: z.number(),
});
export type UserListItem = z.infer<typeof userListItem>;

/**
 * What a user's type means (UserType; the spec names no values, and reads its admin flag as 1
 * admin, 0 normal): a normal account, or an administrator's (a tenant's first user is one).
 * What a user may do still comes from their roles. Other stored values show as "Type n".
 */
export const USER_TYPE = { normal: 0, administrator: 1 } as const;

export const userListQuery = z.object({
  Status: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().pipe(userStatus).optional()),
});

const profileFields = {
  UserType: z.coerce.number().int().min(0).max(9).default(0),
  Remark: optional(anyText(0, 200)),
  Email: optional(email),
  Phone: optional(phone),
  UserName: anyText(1, 32),
};

export const addUserRequest = z
  .preprocess(
    (b) => {
      if (!b || typeof b !== 'object') return b;
      const v = b as Record<string, unknown>;
      return {
        ...v,
        Account: v.Account ?? v.account,
        Password: v.Password ?? v.password,
        PasswordAgain: v.PasswordAgain ?? v.passwordagain ?? v.passwordAgain,
      };
    },
    z.object({
      ...profileFields,
      Account: account,
      Password: password,
      PasswordAgain: z.string(),
      /** The roles the new user holds from the start (and so the projects they reach). */
      RoleIds: z.array(idRef).max(100).optional(),
    }),
  )
  .refine((v) => v.Password === v.PasswordAgain, { message: 'rule.passwordAgain', path: ['PasswordAgain'] });

export const editUserRequest = z.object({ Id: idRef, ...profileFields });

export const userStatusRequest = z.object({ Id: idRef, Status: z.coerce.number().pipe(userStatus) });
