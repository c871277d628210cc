import { describe, expect, it } from 'vitest';
import { distanceKm, distanceMeters, EARTH_RADIUS_KM } from './distance.ts';

describe('the distance helper', () => {
  it('uses an Earth radius of 6378.137 km: a degree of latitude is 111.3195 km', () => {
    expect(EARTH_RADIUS_KM).toBe(6378.137);
    expect(distanceMeters([0, 0], [0, 1])).toBe(111319.4908);
  });

  it('measures between positions given as text or numbers, rounded to 4 decimals', () => {
    const metres = distanceMeters('113.8865,22.609985', [113.9865, 22.609985]);
    expect(metres).toBeCloseTo(10276.4, 0);
    expect(Number.isInteger(Math.round((metres ?? 0) * 10000))).toBe(true);
    expect(distanceMeters('119.6201,30.6083', '119.6201,30.6083')).toBe(0);
  });

  it('knows nothing when a position is missing or not on Earth', () => {
    expect(distanceMeters(undefined, '113.8865,22.609985')).toBeUndefined();
    expect(distanceMeters('', '113.8865,22.609985')).toBeUndefined();
    expect(distanceMeters([200, 0], [0, 0])).toBeUndefined();
    expect(distanceMeters([Number.NaN, 0], [0, 0])).toBeUndefined();
  });

  it('writes kilometres with 2 decimals', () => {
    expect(distanceKm(10276.4123)).toBe('10.28');
    expect(distanceKm(0)).toBe('0.00');
    expect(distanceKm(undefined)).toBeUndefined();
    expect(distanceKm(Number.NaN)).toBeUndefined();
  });
});
