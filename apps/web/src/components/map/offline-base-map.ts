/**
 * A base map that needs no internet: China's provinces, and from zoom 6 the cities (prefectures) of
 * the provinces in view, with their names, drawn from the GeoJSON of the `china-geojson` package
 * (AntV, MIT). Its files are built as assets of the console and fetched from the console's own
 * server only when a map needs them: when no tile source is configured (MAP_TILE_URL=offline) or
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
/** Tiles failing before any has loaded: the tile server is taken as unreachable. */
export const FAILED_TILES = 4;
export const OFFLINE_ATTRIBUTION = 'china-geojson (AntV, MIT)';

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
const STYLE: Record<'province' | 'city', L.PathOptions> = {
  province: { className: 'sluice-offline-province', weight: 1.2, fillOpacity: 1 },
  city: { className: 'sluice-offline-city', weight: 0.8, dashArray: '3 3', fill: false },
};

/** A name at a region's centre, kept as text (never HTML). */
function label(name: string, at: L.LatLngExpression, kind: 'province' | 'city', pane: string): L.Marker {
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

function regionLayer(collection: Collection, kind: 'province' | 'city', pane: string): L.LayerGroup {
  const group = L.layerGroup();
  const shapes = L.geoJSON(collection, {
    pane,
    interactive: false,
    style: () => STYLE[kind],
    attribution: OFFLINE_ATTRIBUTION,
  });
  group.addLayer(shapes);
  for (const feature of collection.features) {
    const name = feature.properties?.name;
    const at = labelPoint(feature);
    if (name && at) group.addLayer(label(name, at, kind, pane));
  }
  return group;
}

/**
 * Draws the offline base map under everything else on `map`; answers a function taking it away.
 * The provinces come at once; the cities of the provinces in view follow from zoom 6.
 */
export function showOfflineBaseMap(map: L.Map): () => void {
  const paneName = 'sluiceOfflineBase';
  const pane = map.getPane(paneName) ?? map.createPane(paneName);
  pane.style.zIndex = '250';
  pane.classList.add('sluice-offline-pane');
  map.getContainer().classList.add('sluice-offline-map');
  const root = L.layerGroup().addTo(map);
  const cities = new Map<string, L.LayerGroup>();
  let provinces: { name: string; bounds: L.LatLngBounds }[] = [];
  let stopped = false;

  const showCities = () => {
    if (stopped) return;
    const inView = map.getZoom() >= CITY_ZOOM ? map.getBounds() : undefined;
    for (const province of provinces) {
      const file = CITY_FILES[province.name];
      const wanted = inView !== undefined && file !== undefined && inView.intersects(province.bounds);
      const shown = cities.get(province.name);
      if (!wanted) {
        if (shown) root.removeLayer(shown);
        continue;
      }
      if (shown) {
        root.addLayer(shown);
        continue;
      }
      cities.set(province.name, L.layerGroup());
      void load(file).then((collection) => {
        if (stopped) return;
        const layer = regionLayer(collection, 'city', paneName);
        cities.set(province.name, layer);
        if (map.getZoom() >= CITY_ZOOM && map.getBounds().intersects(province.bounds)) root.addLayer(layer);
      });
    }
  };

  void load(chinaUrl)
    .then((collection) => {
      if (stopped) return;
      const layer = regionLayer(collection, 'province', paneName);
      root.addLayer(layer);
      provinces = collection.features.flatMap((feature) => {
        const name = feature.properties?.name;
        if (!name || !feature.geometry) return [];
        return [{ name, bounds: L.geoJSON(feature).getBounds() }];
      });
      map.getContainer().dataset.offlineMap = 'ready';
      showCities();
    })
    .catch(() => {
      map.getContainer().dataset.offlineMap = 'failed';
    });
  map.on('moveend', showCities);
  map.once('unload', () => {
    stopped = true;
  });
  map.getContainer().dataset.offlineMap = 'loading';

  return () => {
    stopped = true;
    map.off('moveend', showCities);
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
