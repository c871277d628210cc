/** Tenants (groups), spec §3 Group and §7. */
import { z } from 'zod';
import { account, anyText, optional } from './rules.ts';
import { idRef } from './schema-fields.ts';

export const groupDto = z.object({
  Id: z.number(),
  GroupName: z.string(),
  Account: z.string(),
  Code: z.string(),
  Description: z.string(),
  Logo: z.string(),
  /** The watermark (spec §2: the account and the time over signed-in pages) shows for the group's users. */
  Watermark: z.boolean(),
});
export type GroupDto = z.infer<typeof groupDto>;

const groupCode = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{2,32}$/, { message: 'rule.lettersOrDigits' });

export const addGroupRequest = z.object({
  GroupName: anyText(1, 64),
  Account: account.describe('the first administrator of the new group'),
  Code: groupCode,
  Description: optional(anyText(0, 500)),
});

/** PUT /api/Group/Update: the platform administrator edits a group (its administrator account stays). */
export const updateGroupRequest = z.object({
  Id: idRef,
  GroupName: anyText(1, 64),
  Code: groupCode,
  Description: optional(anyText(0, 500)),
  Watermark: z.boolean().optional(),
});

/**
 * DELETE /api/group/{id}: the platform administrator removes a group and everything it holds,
 * confirming with the group's code typed again (compared without regard to case).
 */
export const deleteGroupRequest = z.object({ Code: anyText(1, 64) });

/** GET /api/group/{id}/contents: what removing the group would remove, for its confirmation. */
export const groupContentsDto = z.object({
  Users: z.number(),
  Devices: z.number(),
  Sites: z.number(),
  Clients: z.number(),
});
export type GroupContentsDto = z.infer<typeof groupContentsDto>;

/** PUT /api/group/watermark: a group's administrator turns the group's watermark on or off. */
export const groupWatermarkRequest = z.object({ Watermark: z.boolean() });

/** The watermark canvas of spec §2 and §9: font size 14 px, text at −45°. */
export const WATERMARK = { fontSize: 14, angle: -45 } as const;

/** GET /api/Group/FindByName: Name (the console's tables send it as Search), pageNo, pageSize in either case. */
export const findGroupQuery = z.preprocess(
  (q) => {
    if (!q || typeof q !== 'object') return q;
    const v = q as Record<string, unknown>;
    return { Name: v.Name ?? v.name ?? v.Search, PageNo: v.PageNo ?? v.pageNo, PageSize: v.PageSize ?? v.pageSize };
  },
  z.object({
    Name: z.string().optional(),
    PageNo: z.coerce.number().int().min(1).default(1),
    PageSize: z.coerce.number().int().min(1).max(100).default(10),
  }),
);

/** The group logo: PNG only; the spec's 'about 0.195 of a unit' read as 200 KB. */
export const GROUP_LOGO_LIMIT = 200 * 1024;
