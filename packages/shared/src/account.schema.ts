/** Sign-in, session and own-profile calls (spec §7 Account and users). */
import { z } from 'zod';
import { account, anyText, email, optional, password, phone } from './rules.ts';
import { LANGUAGES } from './i18n.ts';
import { idRef } from './schema-fields.ts';
import { statCardsField } from './statistics.schema.ts';
import { secretFields } from './secret-fields.ts';

export const USER_STATUS = { inactive: 0, normal: 1, disabled: 2 } as const;
export const userStatus = z.union([z.literal(0), z.literal(1), z.literal(2)]);

export const THEMES = ['light', 'dark'] as const;
export const userConfigSchema = z.object({
  Theme: z.enum(THEMES).default('light'),
  Language: z.enum(LANGUAGES).optional(),
  /** A toast when a new alarm arrives (on unless turned off). */
  AlarmToasts: z.boolean().optional(),
  /** The home panel's statistic cards, in order (all of STAT_CARDS unless chosen). */
  StatisticsCards: statCardsField.optional(),
});
export type UserConfig = z.infer<typeof userConfigSchema>;

/** POST /api/User: sign in. Legacy clients send lower-case keys; both are accepted. */
export const loginRequest = z.preprocess(
  (body) => {
    if (body && typeof body === 'object') {
      const b = body as Record<string, unknown>;
      return { Account: b.Account ?? b.account, Password: b.Password ?? b.password };
    }
    return body;
  },
  z.object({
    Account: z.string().trim().min(1, { message: 'rule.required' }).max(64),
    Password: z.string().min(1, { message: 'rule.required' }).max(256),
  }),
);

export const sessionDto = z.object({
  Token: z.string(),
  ExpiresAt: z.number().describe('epoch milliseconds'),
  Account: z.string(),
  UserName: z.string(),
  GroupId: z.number(),
  IsAdmin: z.boolean(),
});
export type SessionDto = z.infer<typeof sessionDto>;

export const roleRefDto = z.object({ Id: z.number(), Name: z.string(), IsAdmin: z.boolean() });

export const userDto = z.object({
  Id: z.number(),
  Account: z.string(),
  UserName: z.string(),
  Email: z.string(),
  Phone: z.string(),
  UserType: z.number(),
  Remark: z.string(),
  Status: userStatus,
  IsAdmin: z.boolean(),
  IsPlatformAdmin: z.boolean(),
  GroupId: z.number(),
  GroupName: z.string(),
  Picture: z.string(),
  Roles: z.array(roleRefDto),
  RoleName: z.string(),
  /**
   * The operate codes (permissions.ts) the user may use: those their roles hold, and for an
   * administrator every operate the server checks. The console hides what is not here.
   */
  Operates: z.array(z.string()),
  Config: userConfigSchema,
});
export type UserDto = z.infer<typeof userDto>;

/** PUT /api/user: own profile. */
export const updateProfileRequest = z.object({
  UserName: anyText(1, 32),
  Email: optional(email),
  Phone: optional(phone),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;

const passwordPair = secretFields({
  Password: password,
  PasswordAgain: z.string(),
});
const samePasswords = (v: { Password: string; PasswordAgain: string }) => v.Password === v.PasswordAgain;
const passwordAgainIssue = { message: 'rule.passwordAgain', path: ['PasswordAgain'] };

/** POST /api/user/password: own password, needs the old one. */
export const changePasswordRequest = z
  .preprocess(
    (body) => {
      if (body && typeof body === 'object') {
        const b = body as Record<string, unknown>;
        return { ...b, OldPassword: b.OldPassword ?? b.oldPassword };
      }
      return body;
    },
    z.object({ ...secretFields({ OldPassword: z.string().min(1, { message: 'rule.required' }) }), ...passwordPair }),
  )
  .refine(samePasswords, passwordAgainIssue);
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

/** PUT /api/user/password: an administrator sets another user's password. */
export const setPasswordRequest = z.object({ Id: idRef, Password: password });

/** POST /api/user/Register: self-registration into a group by its code; an administrator activates. */
export const registerRequest = z
  .object({
    Code: anyText(1, 64),
    Account: account,
    UserName: anyText(1, 32),
    Email: optional(email),
    Phone: optional(phone),
    ...passwordPair,
  })
  .refine(samePasswords, passwordAgainIssue);

/** GET /api/user/GetUser: legacy clients identify with account and token. */
export const legacyCredentials = z.object({ account: z.string().min(1), token: z.string().min(1) });

export const updateConfigRequest = z.object({
  Theme: z.enum(THEMES).optional(),
  Language: z.enum(LANGUAGES).optional(),
  AlarmToasts: z.boolean().optional(),
  StatisticsCards: statCardsField.optional(),
});

/** The avatar (spec §9, POST user/Picture): PNG or JPEG, at most 2 MB, cropped 1:1 in the console. */
export const AVATAR_LIMIT = 2 * 1024 * 1024;
