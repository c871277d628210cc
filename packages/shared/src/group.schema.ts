/** Tenants (groups), spec §3 Group and §7. */
import { z } from 'zod';
import { account, anyText, optional } from './rules.ts';

export const groupDto = z.object({
  Id: z.number(),
  GroupName: z.string(),
  Account: z.string(),
  Code: z.string(),
  Description: z.string(),
  Logo: z.string(),
});
export type GroupDto = z.infer<typeof groupDto>;

export const addGroupRequest = z.object({
  GroupName: anyText(1, 64),
  Account: account.describe('the first administrator of the new group'),
  Code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{2,32}$/, { message: 'rule.lettersOrDigits' }),
  Description: optional(anyText(0, 500)),
});

export const findGroupQuery = z.object({
  Name: z.string().optional(),
  PageNo: z.coerce.number().int().min(1).default(1),
  PageSize: z.coerce.number().int().min(1).max(100).default(10),
});

/** The group logo: PNG only; the spec's 'about 0.195 of a unit' read as 200 KB. */
export const GROUP_LOGO_LIMIT = 200 * 1024;
