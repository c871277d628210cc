/**
 * The map's address suggestions (spec §2): the administrative divisions and the tenant's own
 * projects and stations are searched in the browser; an online geocoder is asked too when the
 * server configures one (MAP_GEOCODER_URL, with {q} for the text).
 */
import { useEffect, useMemo, useState } from 'react';
import { App, AutoComplete, Input } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { parsePosition } from '@sluice/shared/geo.schema';
import { flattenAreas, useAreaTree } from '../../../lib/areas';
import type { ProjectDto } from '../api/projects-api';

export interface SearchTarget {
  kind: 'project' | 'station' | 'place';
  id?: number;
  lng?: number;
  lat?: number;
  zoom?: number;
  label: string;
}

interface GeocodeHit {
  label: string;
  lng: number;
  lat: number;
}

function readGeocoder(json: unknown): GeocodeHit[] {
  const hits: GeocodeHit[] = [];
  const push = (label: unknown, lng: unknown, lat: unknown) => {
    const x = Number(lng);
    const y = Number(lat);
    if (typeof label === 'string' && Number.isFinite(x) && Number.isFinite(y)) hits.push({ label, lng: x, lat: y });
  };
  const items = Array.isArray(json) ? json : json && typeof json === 'object' ? [json] : [];
  for (const item of items as Record<string, unknown>[]) {
    if ('display_name' in item) push(item.display_name, item.lon, item.lat);
    for (const list of [item.tips, item.geocodes, item.pois]) {
      if (!Array.isArray(list)) continue;
      for (const entry of list as Record<string, unknown>[]) {
        const at = typeof entry.location === 'string' ? parsePosition(entry.location) : undefined;
        if (at) push(entry.name ?? entry.formatted_address, at[0], at[1]);
      }
    }
  }
  return hits.slice(0, 8);
}

function useGeocoder(url: string | null | undefined, text: string): GeocodeHit[] {
  const [found, setFound] = useState<{ q: string; hits: GeocodeHit[] }>({
    q: '',
    hits: [],
  });
  const q = text.trim();
  useEffect(() => {
    if (!url || q.length < 2) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      const target = url.includes('{q}')
        ? url.replace('{q}', encodeURIComponent(q))
        : `${url}${url.includes('?') ? '&' : '?'}q=${encodeURIComponent(q)}`;
      fetch(target, { signal: controller.signal })
        .then((res) => res.json() as Promise<unknown>)
        .then((json) => {
          setFound({ q, hits: readGeocoder(json) });
        })
        .catch(() => {
          setFound({ q, hits: [] });
        });
    }, 350);
    return () => {
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [url, q]);
  return url && found.q === q ? found.hits : [];
}

/** The area's code prefix: 2 digits for a province, 4 for a city, 6 for a county. */
function areaPrefix(code: string, level: number): string {
  return code.slice(0, level <= 1 ? 2 : level === 2 ? 4 : code.length);
}

export function AddressSearch({
  sites,
  geocoderUrl,
  onGo,
}: {
  sites: readonly ProjectDto[];
  geocoderUrl: string | null | undefined;
  onGo: (target: SearchTarget) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  const { data: tree = [] } = useAreaTree(focused);
  const areas = useMemo(() => flattenAreas(tree), [tree]);
  const online = useGeocoder(geocoderUrl, text);

  const options = useMemo(() => {
    const q = text.replace(/，/g, ',').trim().toLowerCase();
    if (!q) return [];
    const own = sites
      .filter((s) => s.ProjectKind !== 'client' && (s.Name.toLowerCase().includes(q) || s.Address.toLowerCase().includes(q)))
      .slice(0, 8);
    const places = areas.filter((a) => a.name.toLowerCase().includes(q)).slice(0, 8);
    const groups = [];
    if (own.length > 0)
      groups.push({
        label: t('map.search.sites'),
        options: own.map((s) => ({
          value: `site:${String(s.Id)}`,
          label: `${s.Name}${s.ParentName ? ` · ${s.ParentName}` : ''}`,
        })),
      });
    if (places.length > 0)
      groups.push({
        label: t('map.search.areas'),
        options: places.map((a) => ({
          value: `area:${a.code}`,
          label: a.fullName,
        })),
      });
    if (online.length > 0)
      groups.push({
        label: t('map.search.online'),
        options: online.map((h, i) => ({
          value: `geo:${String(i)}`,
          label: h.label,
        })),
      });
    return groups;
  }, [text, sites, areas, online, t]);

  const select = (value: string) => {
    const [kind = '', ref = ''] = value.split(/:(.*)/s, 2);
    if (kind === 'site') {
      const site = sites.find((s) => String(s.Id) === ref);
      if (site)
        onGo({
          kind: site.ProjectKind === 'station' ? 'station' : 'project',
          id: site.Id,
          label: site.Name,
        });
    } else if (kind === 'area') {
      const area = areas.find((a) => a.code === ref);
      if (!area) return;
      const prefix = areaPrefix(area.code, area.level);
      const inside = sites.flatMap((s) => {
        const at = s.AreaId?.startsWith(prefix) ? parsePosition(s.Position) : undefined;
        return at ? [at] : [];
      });
      if (inside.length > 0) {
        const lng = inside.reduce((sum, p) => sum + p[0], 0) / inside.length;
        const lat = inside.reduce((sum, p) => sum + p[1], 0) / inside.length;
        onGo({
          kind: 'place',
          lng,
          lat,
          zoom: area.level <= 1 ? 8 : area.level === 2 ? 10 : 12,
          label: area.fullName,
        });
      } else {
        void message.info(t('map.search.noSitesInArea', { area: area.fullName }));
      }
    } else if (kind === 'geo') {
      const hit = online[Number(ref)];
      if (hit)
        onGo({
          kind: 'place',
          lng: hit.lng,
          lat: hit.lat,
          zoom: 15,
          label: hit.label,
        });
    }
    setText('');
  };

  return (
    <AutoComplete
      value={text}
      options={options}
      onChange={setText}
      onSelect={select}
      onFocus={() => {
        setFocused(true);
      }}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    >
      <Input
        prefix={<SearchOutlined aria-hidden />}
        placeholder={t('map.search.placeholder')}
        aria-label={t('map.search.label')}
        allowClear
      />
    </AutoComplete>
  );
}
