/**
 * A Leaflet map with the configured tiles (GCJ-02), for every map of the console. Without a tile
 * source (MAP_TILE_URL=offline), or when the tiles cannot be reached, it draws the offline base
 * map instead (offline-base-map.ts).
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { DEFAULT_MAP_CENTER, parsePosition } from '@sluice/shared/geo.schema';
import type { MapConfig } from '../../lib/client-config';
import { showOfflineBaseMap, watchTiles } from './offline-base-map';
import './map.css';

export const DEFAULT_ZOOM = 11;

export function centerOf(position: string | null | undefined): L.LatLng {
  const at = parsePosition(position) ?? parsePosition(DEFAULT_MAP_CENTER) ?? [113.8865, 22.609985];
  return L.latLng(at[1], at[0]);
}

function attributionFor(url: string): string {
  if (/autonavi|amap/i.test(url)) return '© AutoNavi';
  return '';
}

/** Creates the map in `element` with zoom buttons, a scale and the tile layer, or the offline base map. */
export function createBaseMap(
  element: HTMLElement,
  config: MapConfig | undefined,
  options: {
    center?: L.LatLngExpression;
    zoom?: number;
    /** Start showing these bounds instead (tiles then load for this view only). */
    fit?: { bounds: L.LatLngBounds; options: L.FitBoundsOptions };
  } = {},
): L.Map {
  const map = L.map(element, {
    minZoom: 3,
    maxZoom: 18,
    worldCopyJump: true,
    attributionControl: true,
    zoomControl: true,
  });
  if (options.fit) map.fitBounds(options.fit.bounds, options.fit.options);
  else map.setView(options.center ?? centerOf(config?.DefaultCenter), options.zoom ?? DEFAULT_ZOOM);
  map.attributionControl.setPrefix('Leaflet');
  if (config?.TileUrl) {
    const tiles = L.tileLayer(config.TileUrl, {
      subdomains: config.Subdomains.length > 0 ? config.Subdomains : ['a'],
      maxZoom: 18,
      attribution: attributionFor(config.TileUrl),
      crossOrigin: false,
    }).addTo(map);
    watchTiles(tiles, () => {
      tiles.remove();
      showOfflineBaseMap(map);
    });
  } else if (config) {
    showOfflineBaseMap(map);
  }
  L.control.scale({ imperial: false }).addTo(map);
  return map;
}

/** Translates Leaflet's own control titles (zoom in/out) into the UI language. */
export function labelZoomControls(element: HTMLElement, labels: { zoomIn: string; zoomOut: string }): void {
  const zoomIn = element.querySelector<HTMLAnchorElement>('.leaflet-control-zoom-in');
  const zoomOut = element.querySelector<HTMLAnchorElement>('.leaflet-control-zoom-out');
  for (const [el, label] of [
    [zoomIn, labels.zoomIn],
    [zoomOut, labels.zoomOut],
  ] as const) {
    if (!el) continue;
    el.title = label;
    el.setAttribute('aria-label', label);
  }
}
