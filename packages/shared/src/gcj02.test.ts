import { describe, expect, it } from 'vitest';
import { distanceMeters } from './distance.ts';
import { wgs84ToGcj02 } from './gcj02.ts';

describe('WGS-84 to GCJ-02', () => {
  it('shifts a position in China by the few hundred metres the Chinese tiles are offset', () => {
    const [lng, lat] = wgs84ToGcj02(116.391349, 39.907375);
    expect(lng).toBeCloseTo(116.39759, 3);
    expect(lat).toBeCloseTo(39.908775, 3);
    const shift = distanceMeters([116.391349, 39.907375], [lng, lat]) ?? 0;
    expect(shift).toBeGreaterThan(300);
    expect(shift).toBeLessThan(700);
  });

  it('leaves positions outside China as they are', () => {
    expect(wgs84ToGcj02(2.3522, 48.8566)).toEqual([2.3522, 48.8566]);
  });
});
