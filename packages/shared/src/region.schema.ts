/** A group's regions (spec §3 Area/region, §7 Areas and regions), drawn on the map in /sys/areaset. */
import { z } from 'zod';
import { anyText, optional } from './rules.ts';
import { optionalPosition, regionShapeText } from './geo.schema.ts';
import { idRef } from './schema-fields.ts';

export const regionDto = z.object({
  Id: z.number(),
  Name: z.string(),
  /** The shape as JSON text: see `regionShape` in geo.schema.ts. '' when none was drawn. */
  Radius: z.string(),
  ParentId: z.number(),
  RegionCode: z.string(),
  /** 'lng,lat', or '' */
  Point: z.string(),
});
export type RegionDto = z.infer<typeof regionDto>;

const regionFields = {
  Name: anyText(1, 64),
  Radius: z.preprocess((v) => (v === '' || v === null ? undefined : v), regionShapeText.optional()),
  ParentId: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().min(0).optional()),
  RegionCode: optional(
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_-]{1,32}$/, { message: 'rule.lettersOrDigits' }),
  ),
  Point: optionalPosition,
};

export const addRegionRequest = z.object(regionFields);
export const updateRegionRequest = z.object({ Id: idRef, ...regionFields });
