/**
 * Positions and shapes on the map (spec §3 Area/region Point and Radius, Project and Device
 * Position). Coordinates are longitude then latitude, in GCJ-02 as used by Chinese map tiles.
 */
import { z } from 'zod';
import { messageRef } from './rules.ts';

/** The spec's default map centre, 'lng,lat'. */
export const DEFAULT_MAP_CENTER = '113.8865,22.609985';

const POSITION_PATTERN = /^\s*(-?\d{1,3}(?:\.\d+)?)\s*,\s*(-?\d{1,2}(?:\.\d+)?)\s*$/;

/** Reads 'lng,lat' into numbers, or undefined when it is not a position on Earth. */
export function parsePosition(text: string | null | undefined): [number, number] | undefined {
  const match = POSITION_PATTERN.exec(text ?? '');
  if (!match) return undefined;
  const lng = Number(match[1]);
  const lat = Number(match[2]);
  if (!(lng >= -180 && lng <= 180 && lat >= -90 && lat <= 90)) return undefined;
  return [lng, lat];
}

/** A position 'lng,lat' (longitude −180…180, latitude −90…90), stored without spaces. */
export const position = z
  .string()
  .trim()
  .refine((v) => parsePosition(v) !== undefined, { message: messageRef('rule.position') })
  .transform((v) => (parsePosition(v) ?? [0, 0]).join(','));

/** An optional position: '' or null from a form means none. */
export const optionalPosition = z.preprocess((v) => (v === '' || v === null ? undefined : v), position.optional());

const lngLat = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]);

/**
 * A region's shape, the spec's Radius ("shape path"), kept as JSON text:
 * - `{ "type": "circle", "center": [lng, lat], "radius": metres }`
 * - `{ "type": "rectangle", "bounds": [[lng, lat], [lng, lat]] }` (two opposite corners)
 * - `{ "type": "polygon", "path": [[lng, lat], …] }` (3 to 2,000 points, not closed)
 */
export const regionShape = z.discriminatedUnion('type', [
  z.object({ type: z.literal('circle'), center: lngLat, radius: z.number().positive().max(5_000_000) }),
  z.object({ type: z.literal('rectangle'), bounds: z.tuple([lngLat, lngLat]) }),
  z.object({ type: z.literal('polygon'), path: z.array(lngLat).min(3).max(2000) }),
]);
export type RegionShape = z.infer<typeof regionShape>;

/** The shape as JSON text or as an object; stored as compact JSON text. */
export const regionShapeText = z.unknown().transform((value, ctx) => {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = undefined;
    }
  }
  const result = regionShape.safeParse(parsed);
  if (!result.success) {
    ctx.addIssue({ code: 'custom', message: messageRef('rule.shape') });
    return z.NEVER;
  }
  return JSON.stringify(result.data);
});
