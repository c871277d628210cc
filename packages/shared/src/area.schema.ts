/** China's administrative divisions (spec §3 Area, §7 Areas): official GB/T 2260 codes. */
import { z } from 'zod';

/** A division: province (level 1), city (2) or county (3); ParentCode '86' is the country. */
export interface AreaDto {
  AreaCode: string;
  AreaName: string;
  ParentCode: string;
  Level: number;
  Children?: AreaDto[];
}

export const areaDto: z.ZodType<AreaDto> = z.object({
  AreaCode: z.string(),
  AreaName: z.string(),
  ParentCode: z.string(),
  Level: z.number(),
  get Children() {
    return z.array(areaDto).optional();
  },
});

/** An area code: 6 digits (9 for the towns of the cities that have no counties). */
export const areaCode = z.coerce
  .string()
  .trim()
  .regex(/^\d{6}(\d{3})?$/, { message: 'rule.areaCode' });

export const areaQuery = z.preprocess(
  (q) =>
    q && typeof q === 'object'
      ? { areaCode: (q as Record<string, unknown>).areaCode ?? (q as Record<string, unknown>).AreaCode }
      : q,
  z.object({ areaCode: z.preprocess((v) => (v === '' || v === '0' || v === 0 ? undefined : v), areaCode.optional()) }),
);
