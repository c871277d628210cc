/**
 * The map's points with the states the live connection has said since they were fetched: a
 * device takes its live state, and a station whose devices changed takes the highest state of
 * its devices (as the server computes it: warning over online over offline).
 */
import type { MapPoint, MapState } from './map-types';

export function withLiveStates(points: MapPoint[], states: ReadonlyMap<string, MapState>): MapPoint[] {
  if (states.size === 0) return points;
  const changedStations = new Set<string>();
  const next = points.map((p) => {
    if (p.kind !== 'device') return p;
    const state = states.get(p.id);
    if (state === undefined || state === p.state) return p;
    if (p.parent) changedStations.add(p.parent);
    return { ...p, state };
  });
  if (changedStations.size === 0) return next;
  const stationState = new Map<string, MapState>();
  for (const p of next) {
    if (p.kind !== 'device' || !p.parent || !changedStations.has(p.parent)) continue;
    stationState.set(p.parent, Math.max(stationState.get(p.parent) ?? 0, p.state) as MapState);
  }
  return next.map((p) => {
    const state = p.kind === 'station' ? stationState.get(p.id) : undefined;
    return state === undefined || state === p.state ? p : { ...p, state };
  });
}
