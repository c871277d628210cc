/**
 * The map of stations and devices: tiles, one canvas of clustered markers (ClusterCanvasLayer)
 * and, over it, one transparent button per visible marker or cluster, so the map works with the
 * keyboard and a screen reader (Tab to a marker, Enter to select it or to open a cluster) and
 * tests can find a marker by its name. data-points and data-drawn on the map tell how many
 * points it holds and how many markers and clusters it shows.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import L from 'leaflet';
import { useTranslation } from 'react-i18next';
import type { MapConfig } from '../../lib/client-config';
import { BRAND_GREEN, OFFLINE_GREY, WARNING_AMBER, useThemeName, type ThemeName } from '../../lib/theme';
import { createBaseMap, labelZoomControls } from './base-map';
import { ClusterCanvasLayer, type DrawnFeature } from './cluster-layer';
import type { MapPalette, MapPoint } from './map-types';

export function paletteFor(theme: ThemeName): MapPalette {
  const css = typeof document === 'undefined' ? undefined : getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => css?.getPropertyValue(name).trim() || fallback;
  return {
    online: read('--sluice-brand', BRAND_GREEN),
    warning: read('--sluice-warning', WARNING_AMBER),
    offline: read('--sluice-offline', OFFLINE_GREY),
    clusterFill: theme === 'dark' ? 'rgba(20, 20, 20, 0.88)' : 'rgba(255, 255, 255, 0.92)',
    text: theme === 'dark' ? '#f0f0f0' : '#1f1f1f',
    outline: theme === 'dark' ? '#141414' : '#ffffff',
    selected: '#1677ff',
  };
}

const FIT_OPTIONS: L.FitBoundsOptions = {
  padding: [32, 32],
  maxZoom: 14,
  animate: false,
};

/** The bounds of the points (10,000 of them without making 10,000 LatLng objects). */
export function boundsOf(points: readonly MapPoint[]): L.LatLngBounds {
  let south = 90;
  let west = 180;
  let north = -90;
  let east = -180;
  for (const p of points) {
    if (p.lat < south) south = p.lat;
    if (p.lat > north) north = p.lat;
    if (p.lng < west) west = p.lng;
    if (p.lng > east) east = p.lng;
  }
  return L.latLngBounds([south, west], [north, east]);
}

/**
 * A searched place: a ring with its name above it. The name (a geocoder's answer, say) is set
 * as text: Leaflet would take a string tooltip as HTML.
 */
export function pinMarker(pin: { lng: number; lat: number; label: string }): L.CircleMarker {
  const name = document.createElement('span');
  name.textContent = pin.label;
  return L.circleMarker([pin.lat, pin.lng], { radius: 9, color: '#1677ff', weight: 3, fillOpacity: 0.25 }).bindTooltip(name, {
    permanent: true,
    direction: 'top',
    offset: [0, -10],
  });
}

export interface MapView {
  lng: number;
  lat: number;
  zoom?: number;
  /** changes to move the map again to the same place */
  seq?: number;
}

export interface ClusterMapProps {
  config: MapConfig | undefined;
  points: MapPoint[] | undefined;
  selectedKey?: string;
  onSelect?: (point: MapPoint) => void;
  /** the accessible name of the map */
  label: string;
  /** where to look; changing it moves the map */
  view?: MapView;
  /** the viewer's position (GCJ-02), shown as a blue dot */
  you?: readonly [number, number];
  /** a searched place, shown as a pin */
  pin?: { lng: number; lat: number; label: string };
  className?: string;
  style?: React.CSSProperties;
}

export function ClusterMap({ config, points, selectedKey, onSelect, label, view, you, pin, className, style }: ClusterMapProps) {
  const { t } = useTranslation();
  const theme = useThemeName();
  const element = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map>();
  const [layer, setLayer] = useState<ClusterCanvasLayer>();
  const [pane, setPane] = useState<HTMLElement>();
  const [features, setFeatures] = useState<DrawnFeature[]>([]);
  const [zooming, setZooming] = useState(false);
  const fitted = useRef(false);
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);

  // The points as last rendered, for the effect that makes the map.
  const pointsRef = useRef(points);
  useEffect(() => {
    pointsRef.current = points;
  }, [points]);

  // The map is made once, when the configuration has arrived. Points that are already there
  // (fetched ahead of the page) are shown at once: the map starts on their bounds and draws them
  // in this same effect, without waiting for another render.
  useEffect(() => {
    const el = element.current;
    if (!el || !config) return;
    const initial = pointsRef.current;
    const fit = !view && initial && initial.length > 0;
    const created = createBaseMap(
      el,
      config,
      view
        ? { center: [view.lat, view.lng], zoom: view.zoom }
        : fit
          ? { fit: { bounds: boundsOf(initial), options: FIT_OPTIONS } }
          : {},
    );
    fitted.current = Boolean(fit);
    const markerPane = created.createPane('sluiceMarkers');
    markerPane.style.zIndex = '650';
    L.DomEvent.disableClickPropagation(markerPane);
    const canvasLayer = new ClusterCanvasLayer(paletteFor(theme));
    canvasLayer.onRender = (drawn) => {
      setFeatures(drawn);
      setZooming(false);
    };
    canvasLayer.onZoomStart = () => {
      setZooming(true);
    };
    canvasLayer.addTo(created);
    if (initial) canvasLayer.setPoints(initial);
    setMap(created);
    setLayer(canvasLayer);
    setPane(markerPane);
    return () => {
      created.remove();
      setMap(undefined);
      setLayer(undefined);
      setPane(undefined);
      fitted.current = false;
    };
    // Made once per configuration; the view and theme follow in their own effects.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config]);

  useEffect(() => {
    if (element.current && map)
      labelZoomControls(element.current, {
        zoomIn: t('map.zoomIn'),
        zoomOut: t('map.zoomOut'),
      });
  }, [map, t]);

  useEffect(() => {
    layer?.setPalette(paletteFor(theme));
  }, [layer, theme]);

  useEffect(() => {
    if (!layer || !map || !points) return;
    // The view first, so the points are drawn once, where they will be seen.
    if (!fitted.current && !view && points.length > 0) {
      fitted.current = true;
      map.fitBounds(boundsOf(points), FIT_OPTIONS);
    }
    layer.setPoints(points);
  }, [layer, map, points, view]);

  useEffect(() => {
    layer?.setSelected(selectedKey);
  }, [layer, selectedKey]);

  useEffect(() => {
    if (!map || !view) return;
    fitted.current = true;
    map.setView([view.lat, view.lng], view.zoom ?? Math.max(map.getZoom(), 14));
  }, [map, view]);

  // The viewer's position and a searched place.
  useEffect(() => {
    if (!map || !you) return;
    const marker = L.marker([you[1], you[0]], {
      icon: L.divIcon({
        className: '',
        html: '<div class="sluice-map-you"></div>',
        iconSize: [20, 20],
        iconAnchor: [10, 10],
      }),
      keyboard: false,
      title: t('map.you'),
      alt: t('map.you'),
    }).addTo(map);
    return () => {
      marker.remove();
    };
  }, [map, you, t]);

  useEffect(() => {
    if (!map || !pin) return;
    const marker = pinMarker(pin).addTo(map);
    return () => {
      marker.remove();
    };
  }, [map, pin]);

  const stateLabel = useMemo(
    () => ({
      0: t('map.state.offline'),
      1: t('map.state.online'),
      2: t('map.state.warning'),
    }),
    [t],
  );

  const activate = (feature: DrawnFeature) => {
    if (!map || !layer) return;
    if (feature.cluster) {
      const zoom = Math.min(layer.expansionZoom(feature.clusterId), map.getMaxZoom());
      map.setView([feature.lat, feature.lng], zoom);
      return;
    }
    if (feature.point) onSelectRef.current?.(feature.point);
  };

  const buttons = pane
    ? createPortal(
        <div role="group" aria-label={t('map.markers')} className={zooming ? 'sluice-map-markers-hidden' : undefined}>
          {features.map((feature) => {
            const name = feature.cluster
              ? t('map.cluster', {
                  count: feature.count,
                  online: feature.online,
                  warning: feature.warning,
                  offline: feature.count - feature.online - feature.warning,
                })
              : `${feature.point?.name ?? ''}, ${feature.point?.kind === 'station' ? t('map.station') : t('map.device')}, ${stateLabel[feature.point?.state ?? 0]}`;
            return (
              <button
                key={feature.key}
                type="button"
                className="sluice-map-marker"
                data-map-key={feature.key}
                aria-label={name}
                aria-pressed={feature.cluster ? undefined : feature.key === selectedKey}
                title={name}
                style={{
                  left: feature.x - feature.radius,
                  top: feature.y - feature.radius,
                  width: feature.radius * 2,
                  height: feature.radius * 2,
                }}
                onClick={() => {
                  activate(feature);
                }}
              />
            );
          })}
        </div>,
        pane,
      )
    : null;

  return (
    <div
      ref={element}
      className={['sluice-map', className].filter(Boolean).join(' ')}
      style={style}
      role="region"
      aria-label={label}
      data-points={points?.length ?? 0}
      data-drawn={features.length}
    >
      {buttons}
    </div>
  );
}
