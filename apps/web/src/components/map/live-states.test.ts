import { describe, expect, it } from 'vitest';
import { withLiveStates } from './live-states';
import type { MapPoint } from './map-types';

const point = (kind: MapPoint['kind'], id: string, state: MapPoint['state'], parent?: string): MapPoint => ({
  key: `${kind === 'station' ? 's' : 'd'}:${id}`,
  kind,
  id,
  name: id,
  lng: 120,
  lat: 30,
  state,
  ...(parent ? { parent } : {}),
});

describe('withLiveStates', () => {
  const points = [
    point('station', '7', 1),
    point('device', 'A', 1, '7'),
    point('device', 'B', 0, '7'),
    point('station', '8', 1),
    point('device', 'C', 1, '8'),
  ];

  it('returns the same points while nothing was said live', () => {
    expect(withLiveStates(points, new Map())).toBe(points);
  });

  it('changes the device and recomputes only its station', () => {
    const shown = withLiveStates(points, new Map([['A', 0 as const]]));
    expect(shown.map((p) => [p.id, p.state])).toEqual([
      ['7', 0],
      ['A', 0],
      ['B', 0],
      ['8', 1],
      ['C', 1],
    ]);
    expect(shown[3]).toBe(points[3]);
    const warned = withLiveStates(points, new Map([['B', 2 as const]]));
    expect(warned.find((p) => p.id === '7')?.state).toBe(2);
  });
});
