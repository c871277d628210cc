/** What the map shows: stations and devices with a position and a state. */

/** 0 offline, 1 online, 2 online with a warning (spec §4). */
export type MapState = 0 | 1 | 2;

export interface MapPoint {
  /** 's:<station id>' or 'd:<device sn>' */
  key: string;
  kind: 'station' | 'device';
  id: string;
  name: string;
  /** GCJ-02 */
  lng: number;
  lat: number;
  state: MapState;
  /** A device's station (or project) id, when it has one. */
  parent?: string;
}

/** The colours of the markers, read from the theme's CSS variables. */
export interface MapPalette {
  online: string;
  offline: string;
  warning: string;
  /** the fill behind a cluster's count, and the count's colour */
  clusterFill: string;
  text: string;
  outline: string;
  selected: string;
}
