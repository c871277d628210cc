/**
 * A Leaflet layer drawing stations, devices and their clusters on one canvas: supercluster indexes
 * the points once (10,000 in some tens of milliseconds), each view asks it for what is visible,
 * and a single canvas draws that, so the DOM never holds thousands of markers. Clusters are rings
 * split into online (green), online with a warning (amber) and offline (grey).
 *
 * Performance marks for the benchmark: 'map:rendered' after the first draw with points,
 * 'map:zoomed' after the redraw that ends each zoom, and a 'map:draw' measure of every draw.
 */
import L from 'leaflet';
import Supercluster from 'supercluster';
import type { MapPalette, MapPoint } from './map-types';

interface PointProps {
  index: number;
}

interface ClusterProps {
  online: number;
  warning: number;
}

export interface DrawnFeature {
  /** the point's key, or 'c:<cluster id>' */
  key: string;
  cluster: boolean;
  clusterId: number;
  count: number;
  online: number;
  warning: number;
  point: MapPoint | undefined;
  lng: number;
  lat: number;
  /** the position in the layer's pixel space (where absolutely placed elements go in a pane) */
  x: number;
  y: number;
  radius: number;
}

export type DrawReason = 'data' | 'move' | 'zoom' | 'style';

/** How much of the map around the view is drawn too, so a pan shows markers before it ends. */
const PAD = 0.25;

export function clusterRadius(count: number): number {
  if (count < 10) return 15;
  if (count < 100) return 18;
  if (count < 1000) return 22;
  return 26;
}

export class ClusterCanvasLayer extends L.Layer {
  private map: L.Map | undefined;
  private canvas: HTMLCanvasElement | undefined;
  private index: Supercluster<PointProps, ClusterProps> | undefined;
  private points: MapPoint[] = [];
  private topLeft: L.LatLng | undefined;
  private zooming = false;
  private markedRendered = false;
  private selected: string | undefined;
  private palette: MapPalette;
  private drawn: DrawnFeature[] = [];
  /** Called after every draw with what is on the canvas. */
  onRender: ((features: DrawnFeature[], reason: DrawReason) => void) | undefined;
  /** Called when a zoom starts (the overlay of buttons hides until the redraw). */
  onZoomStart: (() => void) | undefined;

  constructor(palette: MapPalette) {
    super();
    this.palette = palette;
  }

  /** Indexes and draws the points; the same array again changes nothing. */
  setPoints(points: MapPoint[]): void {
    if (points === this.points && this.index) return;
    this.points = points;
    const index = new Supercluster<PointProps, ClusterProps>({
      radius: 60,
      maxZoom: 17,
      map: (props) => {
        const point = points[props.index];
        return {
          online: point?.state === 1 ? 1 : 0,
          warning: point?.state === 2 ? 1 : 0,
        };
      },
      reduce: (acc, props) => {
        acc.online += props.online;
        acc.warning += props.warning;
      },
    });
    index.load(
      points.map((p, i) => ({
        type: 'Feature' as const,
        properties: { index: i },
        geometry: { type: 'Point' as const, coordinates: [p.lng, p.lat] },
      })),
    );
    this.index = index;
    this.draw('data');
  }

  setSelected(key: string | undefined): void {
    if (key === this.selected) return;
    this.selected = key;
    this.draw('style');
  }

  setPalette(palette: MapPalette): void {
    this.palette = palette;
    this.draw('style');
  }

  /** The zoom at which a cluster breaks apart. */
  expansionZoom(clusterId: number): number {
    return this.index ? this.index.getClusterExpansionZoom(clusterId) : 0;
  }

  features(): DrawnFeature[] {
    return this.drawn;
  }

  override onAdd(map: L.Map): this {
    this.map = map;
    const canvas = L.DomUtil.create('canvas', 'sluice-cluster-canvas leaflet-zoom-animated');
    canvas.setAttribute('aria-hidden', 'true');
    canvas.style.pointerEvents = 'none';
    map.getPane('overlayPane')?.appendChild(canvas);
    this.canvas = canvas;
    map.on('moveend resize', this.handleMoveEnd);
    map.on('zoomstart', this.handleZoomStart);
    map.on('zoomanim', this.handleZoomAnim);
    this.draw('data');
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend resize', this.handleMoveEnd);
    map.off('zoomstart', this.handleZoomStart);
    map.off('zoomanim', this.handleZoomAnim);
    this.canvas?.remove();
    this.canvas = undefined;
    this.map = undefined;
    return this;
  }

  private handleZoomStart = (): void => {
    this.zooming = true;
    performance.mark('map:zoom-start');
    this.onZoomStart?.();
  };

  private handleMoveEnd = (): void => {
    const reason: DrawReason = this.zooming ? 'zoom' : 'move';
    this.zooming = false;
    this.draw(reason);
  };

  /** Scales the last drawing with the zoom animation, as Leaflet's own renderers do. */
  private handleZoomAnim = (event: L.LeafletEvent): void => {
    const map = this.map;
    const canvas = this.canvas;
    const topLeft = this.topLeft;
    if (!map || !canvas || !topLeft || !('zoom' in event) || !('center' in event)) return;
    const zoom = Number(event.zoom);
    const center = L.latLng(event.center as L.LatLngExpression);
    const scale = map.getZoomScale(zoom, map.getZoom());
    const panePos = L.DomUtil.getPosition(map.getPane('mapPane') ?? canvas);
    const origin = map.project(center, zoom).subtract(map.getSize().divideBy(2)).add(panePos).round();
    const offset = map.project(topLeft, zoom).subtract(origin);
    L.DomUtil.setTransform(canvas, offset, scale);
  };

  private draw(reason: DrawReason): void {
    const map = this.map;
    const canvas = this.canvas;
    const index = this.index;
    if (!map || !canvas) return;
    const started = performance.now();
    const size = map.getSize();
    const pad = size.multiplyBy(PAD).round();
    const full = size.add(pad.multiplyBy(2));
    const topLeftPoint = L.point(-pad.x, -pad.y);
    L.DomUtil.setTransform(canvas, map.containerPointToLayerPoint(topLeftPoint), 1);
    this.topLeft = map.containerPointToLatLng(topLeftPoint);

    const ratio = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(full.x * ratio));
    const height = Math.max(1, Math.round(full.y * ratio));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      canvas.style.width = `${String(full.x)}px`;
      canvas.style.height = `${String(full.y)}px`;
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, full.x, full.y);

    const drawn: DrawnFeature[] = [];
    if (index && this.points.length > 0) {
      const sw = map.containerPointToLatLng(L.point(-pad.x, size.y + pad.y));
      const ne = map.containerPointToLatLng(L.point(size.x + pad.x, -pad.y));
      const west = Math.max(-180, sw.lng);
      const east = Math.min(180, ne.lng);
      const south = Math.max(-85, sw.lat);
      const north = Math.min(85, ne.lat);
      const zoom = Math.round(map.getZoom());
      const found = west < east && south < north ? index.getClusters([west, south, east, north], zoom) : [];
      for (const feature of found) {
        const [lng = 0, lat = 0] = feature.geometry.coordinates;
        const latLng = L.latLng(lat, lng);
        const onCanvas = map.latLngToContainerPoint(latLng).add(pad);
        const layer = map.latLngToLayerPoint(latLng);
        const props = feature.properties;
        if ('cluster' in props) {
          const count = props.point_count;
          const radius = clusterRadius(count);
          drawn.push({
            key: `c:${String(props.cluster_id)}`,
            cluster: true,
            clusterId: props.cluster_id,
            count,
            online: props.online,
            warning: props.warning,
            point: undefined,
            lng,
            lat,
            x: layer.x,
            y: layer.y,
            radius,
          });
          this.drawCluster(ctx, onCanvas.x, onCanvas.y, radius, count, props.online, props.warning);
        } else {
          const point = this.points[props.index];
          if (!point) continue;
          const radius = point.kind === 'station' ? 10 : 8;
          drawn.push({
            key: point.key,
            cluster: false,
            clusterId: -1,
            count: 1,
            online: point.state === 1 ? 1 : 0,
            warning: point.state === 2 ? 1 : 0,
            point,
            lng,
            lat,
            x: layer.x,
            y: layer.y,
            radius,
          });
        }
      }
      const fanned = fanOut(drawn);
      for (const [key, [dx, dy]] of fanned) {
        const feature = drawn.find((f) => f.key === key);
        if (!feature) continue;
        const centre = map.latLngToContainerPoint(L.latLng(feature.lat, feature.lng)).add(pad);
        this.drawLeader(ctx, centre.x, centre.y, centre.x + dx, centre.y + dy);
        feature.x += dx;
        feature.y += dy;
      }
      // Points above clusters, the selected one last.
      const points = drawn
        .filter((f) => !f.cluster)
        .sort((a, b) => Number(a.key === this.selected) - Number(b.key === this.selected));
      for (const feature of points) {
        const [dx, dy] = fanned.get(feature.key) ?? [0, 0];
        const at = map.latLngToContainerPoint(L.latLng(feature.lat, feature.lng)).add(pad).add(L.point(dx, dy));
        if (feature.point) this.drawPoint(ctx, at.x, at.y, feature.point, feature.key === this.selected);
      }
    }
    this.drawn = drawn;
    const ended = performance.now();
    performance.measure('map:draw', { start: started, end: ended });
    if (!this.markedRendered && this.points.length > 0 && drawn.length > 0) {
      this.markedRendered = true;
      performance.mark('map:rendered');
    }
    if (reason === 'zoom') performance.mark('map:zoomed');
    this.onRender?.(drawn, reason);
  }

  private drawLeader(ctx: CanvasRenderingContext2D, x1: number, y1: number, x2: number, y2: number): void {
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.strokeStyle = this.palette.outline;
    ctx.lineWidth = 1;
    ctx.stroke();
  }

  private stateColor(state: number): string {
    if (state === 2) return this.palette.warning;
    if (state === 1) return this.palette.online;
    return this.palette.offline;
  }

  private drawCluster(
    ctx: CanvasRenderingContext2D,
    x: number,
    y: number,
    radius: number,
    count: number,
    online: number,
    warning: number,
  ): void {
    const p = this.palette;
    const offline = Math.max(0, count - online - warning);
    ctx.beginPath();
    ctx.arc(x, y, radius, 0, Math.PI * 2);
    ctx.fillStyle = p.clusterFill;
    ctx.fill();
    // The ring: online, warning, offline shares clockwise from the top.
    const ring = 5;
    let start = -Math.PI / 2;
    for (const [share, color] of [
      [online, p.online],
      [warning, p.warning],
      [offline, p.offline],
    ] as const) {
      if (share <= 0) continue;
      const end = start + (share / count) * Math.PI * 2;
      ctx.beginPath();
      ctx.arc(x, y, radius - ring / 2, start, end);
      ctx.strokeStyle = color;
      ctx.lineWidth = ring;
      ctx.stroke();
      start = end;
    }
    ctx.fillStyle = p.text;
    ctx.font = `600 ${String(count >= 1000 ? 11 : 12)}px -apple-system, 'Segoe UI', Roboto, Arial, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(count >= 10000 ? `${String(Math.floor(count / 1000))}k` : String(count), x, y + 0.5);
  }

  private drawPoint(ctx: CanvasRenderingContext2D, x: number, y: number, point: MapPoint, selected: boolean): void {
    const p = this.palette;
    const color = this.stateColor(point.state);
    if (selected) {
      ctx.beginPath();
      ctx.arc(x, y, point.kind === 'station' ? 15 : 13, 0, Math.PI * 2);
      ctx.strokeStyle = p.selected;
      ctx.lineWidth = 3;
      ctx.stroke();
    }
    ctx.lineWidth = 2;
    ctx.strokeStyle = p.outline;
    ctx.fillStyle = color;
    if (point.kind === 'station') {
      // A station: a rounded square with a dot.
      const s = 9;
      ctx.beginPath();
      ctx.roundRect(x - s, y - s, s * 2, s * 2, 4);
      ctx.fill();
      ctx.stroke();
      ctx.beginPath();
      ctx.arc(x, y, 3, 0, Math.PI * 2);
      ctx.fillStyle = p.outline;
      ctx.fill();
    } else {
      ctx.beginPath();
      ctx.arc(x, y, 7, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
    }
  }
}

/**
 * Points that stand on the same spot (devices at their station's position) are spread on a
 * small circle around it, the station staying in the middle, so that each can be seen and
 * clicked. Answers the offset in pixels of each point that moves.
 */
export function fanOut(drawn: readonly DrawnFeature[]): Map<string, [number, number]> {
  const spots = new Map<string, DrawnFeature[]>();
  for (const f of drawn) {
    if (f.cluster) continue;
    const spot = `${String(Math.round(f.x))},${String(Math.round(f.y))}`;
    const list = spots.get(spot);
    if (list) list.push(f);
    else spots.set(spot, [f]);
  }
  const offsets = new Map<string, [number, number]>();
  for (const list of spots.values()) {
    if (list.length < 2) continue;
    const centre = list.find((f) => f.point?.kind === 'station');
    const around = list.filter((f) => f !== centre);
    const radius = Math.max(22, (around.length * 20) / (2 * Math.PI));
    around.forEach((f, i) => {
      const angle = -Math.PI / 2 + (2 * Math.PI * i) / around.length;
      offsets.set(f.key, [Math.round(Math.cos(angle) * radius), Math.round(Math.sin(angle) * radius)]);
    });
  }
  return offsets;
}
