import { describe, expect, it } from 'vitest';
import { fanOut, type DrawnFeature } from './cluster-layer';
import type { MapPoint } from './map-types';

const feature = (key: string, kind: MapPoint['kind'], x: number, y: number): DrawnFeature => ({
  key,
  cluster: false,
  clusterId: -1,
  count: 1,
  online: 1,
  warning: 0,
  point: { key, kind, id: key, name: key, lng: 120, lat: 30, state: 1 },
  lng: 120,
  lat: 30,
  x,
  y,
  radius: 8,
});

describe('fanOut', () => {
  it('spreads devices standing on one spot around their station, and leaves lone points alone', () => {
    const drawn = [
      feature('s:1', 'station', 100, 100),
      feature('d:a', 'device', 100, 100),
      feature('d:b', 'device', 100.2, 99.9),
      feature('d:c', 'device', 300, 300),
    ];
    const offsets = fanOut(drawn);
    expect(offsets.has('s:1')).toBe(false);
    expect(offsets.has('d:c')).toBe(false);
    const a = offsets.get('d:a');
    const b = offsets.get('d:b');
    expect(a && b).toBeTruthy();
    expect(Math.hypot(...(a ?? [0, 0]))).toBeGreaterThanOrEqual(20);
    expect(a).not.toEqual(b);
  });

  it('leaves clusters where they are', () => {
    const cluster = { ...feature('c:1', 'station', 50, 50), cluster: true, point: undefined };
    expect(fanOut([cluster, { ...cluster, key: 'c:2' }]).size).toBe(0);
  });
});
