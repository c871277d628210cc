/**
 * Draws and edits one region shape (circle, rectangle or polygon) with Leaflet-Geoman; the shape
 * is handed back in the server's form (geo.schema.ts `regionShape`, GCJ-02 [lng, lat]).
 */
import { useEffect, useRef } from 'react';
import L from 'leaflet';
import type {} from '@geoman-io/leaflet-geoman-free';
import { useTranslation } from 'react-i18next';
import type { RegionShape } from '@sluice/shared/geo.schema';
import type { MapConfig } from '../../lib/client-config';
import { currentLanguage } from '../../lib/i18n';
import { createBaseMap, labelZoomControls } from './base-map';

let geoman: Promise<unknown> | undefined;

/** Geoman extends the global L, so Leaflet is put there before it loads. */
function loadGeoman(): Promise<unknown> {
  geoman ??= (async () => {
    Object.assign(window, { L });
    await import('@geoman-io/leaflet-geoman-free');
    await import('@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css');
  })();
  return geoman;
}

const lngLat = (p: L.LatLng): [number, number] => [Math.round(p.lng * 1e6) / 1e6, Math.round(p.lat * 1e6) / 1e6];

export function shapeOfLayer(layer: L.Layer): RegionShape | undefined {
  if (layer instanceof L.Circle)
    return {
      type: 'circle',
      center: lngLat(layer.getLatLng()),
      radius: Math.round(layer.getRadius() * 10) / 10,
    };
  if (layer instanceof L.Rectangle) {
    const b = layer.getBounds();
    return {
      type: 'rectangle',
      bounds: [lngLat(b.getSouthWest()), lngLat(b.getNorthEast())],
    };
  }
  if (layer instanceof L.Polygon) {
    const rings = layer.getLatLngs();
    const first = rings[0];
    const ring = Array.isArray(first) ? first : rings;
    const path = ring.filter((p): p is L.LatLng => p instanceof L.LatLng).map(lngLat);
    return path.length >= 3 ? { type: 'polygon', path } : undefined;
  }
  return undefined;
}

export function layerOfShape(shape: RegionShape): L.Layer {
  const style = { color: '#6eba44', weight: 2 };
  if (shape.type === 'circle')
    return L.circle([shape.center[1], shape.center[0]], {
      ...style,
      radius: shape.radius,
    });
  if (shape.type === 'rectangle') return L.rectangle(L.latLngBounds(shape.bounds.map(([lng, lat]) => L.latLng(lat, lng))), style);
  return L.polygon(
    shape.path.map(([lng, lat]) => L.latLng(lat, lng)),
    style,
  );
}

/** The centre of a shape as 'lng,lat'. */
export function shapeCenter(shape: RegionShape): string {
  if (shape.type === 'circle') return shape.center.join(',');
  const points = shape.type === 'rectangle' ? shape.bounds : shape.path;
  const bounds = L.latLngBounds(points.map(([lng, lat]) => L.latLng(lat, lng)));
  return lngLat(bounds.getCenter()).join(',');
}

export function RegionEditor({
  config,
  shape,
  onChange,
}: {
  config: MapConfig | undefined;
  shape: RegionShape | undefined;
  onChange: (shape: RegionShape | undefined) => void;
}) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const el = element.current;
    if (!el || !config) return;
    let map: L.Map | undefined;
    let live = true;
    // Geoman equips only the maps made after it has loaded: it loads first.
    void loadGeoman().then(() => {
      if (!live) return;
      const created = createBaseMap(el, config);
      map = created;
      labelZoomControls(el, {
        zoomIn: t('map.zoomIn'),
        zoomOut: t('map.zoomOut'),
      });
      let current: L.Layer | undefined;
      const track = (layer: L.Layer) => {
        current = layer;
        layer.on('pm:edit pm:dragend', () => {
          onChangeRef.current(shapeOfLayer(layer));
        });
      };
      if (shape) {
        const layer = layerOfShape(shape).addTo(created);
        track(layer);
        if (layer instanceof L.Circle || layer instanceof L.Polygon) created.fitBounds(layer.getBounds(), { padding: [24, 24] });
      }
      created.pm.setLang(currentLanguage() === 'zh-CN' ? 'zh' : 'en');
      created.pm.addControls({
        position: 'topleft',
        drawMarker: false,
        drawCircleMarker: false,
        drawPolyline: false,
        drawText: false,
        cutPolygon: false,
        rotateMode: false,
        drawCircle: true,
        drawRectangle: true,
        drawPolygon: true,
        editMode: true,
        dragMode: true,
        removalMode: true,
      });
      created.on('pm:create', (event) => {
        // One shape per region: a new one replaces the old.
        if (current && current !== event.layer) current.remove();
        track(event.layer);
        onChangeRef.current(shapeOfLayer(event.layer));
      });
      created.on('pm:remove', (event) => {
        if (event.layer === current) {
          current = undefined;
          onChangeRef.current(undefined);
        }
      });
    });
    return () => {
      live = false;
      map?.remove();
    };
    // The editor is made once per dialog; later shapes come from drawing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config]);

  return <div ref={element} className="sluice-map" style={{ height: 380 }} role="region" aria-label={t('areaSet.mapLabel')} />;
}
