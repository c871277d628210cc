/**
 * The map's distance helper (spec §8, §9): great-circle distance on a sphere of radius
 * 6378.137 km, in metres rounded to 4 decimals; shown in km with 2 decimals, or as
 * 'locating failed' when a position or the distance is unknown.
 */
import { parsePosition } from './geo.schema.ts';

export const EARTH_RADIUS_KM = 6378.137;

export type LngLat = readonly [lng: number, lat: number];

const rad = (degrees: number) => (degrees * Math.PI) / 180;

function toLngLat(point: LngLat | string | null | undefined): LngLat | undefined {
  if (point === null || point === undefined) return undefined;
  if (typeof point === 'string') return parsePosition(point);
  const [lng, lat] = point;
  return Number.isFinite(lng) && Number.isFinite(lat) && Math.abs(lng) <= 180 && Math.abs(lat) <= 90 ? point : undefined;
}

/** Metres between two positions ('lng,lat' or [lng, lat]), rounded to 4 decimals; undefined when either is unknown. */
export function distanceMeters(
  from: LngLat | string | null | undefined,
  to: LngLat | string | null | undefined,
): number | undefined {
  const a = toLngLat(from);
  const b = toLngLat(to);
  if (!a || !b) return undefined;
  const dLat = rad(b[1]) - rad(a[1]);
  const dLng = rad(b[0]) - rad(a[0]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[1])) * Math.cos(rad(b[1])) * Math.sin(dLng / 2) ** 2;
  const metres = 2 * Math.asin(Math.min(1, Math.sqrt(h))) * EARTH_RADIUS_KM * 1000;
  return Math.round(metres * 10000) / 10000;
}

/** Kilometres with 2 decimals ('12.35'), or undefined when the distance is unknown (the caller says 'locating failed'). */
export function distanceKm(metres: number | null | undefined): string | undefined {
  if (metres === null || metres === undefined || !Number.isFinite(metres) || metres < 0) return undefined;
  return (metres / 1000).toFixed(2);
}
