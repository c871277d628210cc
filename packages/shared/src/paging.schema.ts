/** Paged list parameters shared by every list call (spec §7). */
import { z } from 'zod';

export const BULK_PAGE_SIZE = 100;

export const pageQuery = z.preprocess(
  (q) => {
    if (q && typeof q === 'object') {
      const v = q as Record<string, unknown>;
      return { ...v, PageNo: v.PageNo ?? v.pageNo, PageSize: v.PageSize ?? v.pageSize };
    }
    return q;
  },
  z.object({
    PageNo: z.coerce.number().int().min(1).default(1),
    PageSize: z.coerce.number().int().min(1).max(BULK_PAGE_SIZE).default(10),
    Search: z.string().max(200).optional(),
    OrderBy: z.string().max(64).optional(),
    OrderType: z.enum(['asc', 'desc', 'ASC', 'DESC']).optional(),
  }),
);
export type PageQuery = z.infer<typeof pageQuery>;
