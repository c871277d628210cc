/** Built by build/offline-counties.ts: each prefecture's file of counties, its address and bounds. */
declare module 'virtual:offline-counties' {
  export const COUNTY_FILES: readonly {
    url: string;
    /** West, south, east, north. */
    bounds: readonly [number, number, number, number];
  }[];
}
