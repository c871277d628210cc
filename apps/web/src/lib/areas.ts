/**
 * Areas (China's administrative divisions) and the group's regions (spec §7 Areas and regions),
 * as reference data: the site forms, the address search and the regions screen read them.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AreaDto } from '@sluice/shared/area.schema';
import type { RegionDto } from '@sluice/shared/region.schema';
import { api } from './api-client';
import { sitesKeys } from './sites';

export type { AreaDto, RegionDto };

export const areaTreeQueryOptions = () =>
  queryOptions({
    queryKey: sitesKeys.areas,
    queryFn: async () => (await api.get<AreaDto[]>('/Area/GetListArea')).data,
    staleTime: 24 * 60 * 60_000,
  });

export function useAreaTree(enabled = true) {
  return useQuery({ ...areaTreeQueryOptions(), enabled });
}

/** The chain of codes from the province down to `code` (for the cascader's value). */
export function areaPath(tree: readonly AreaDto[], code: string | null | undefined): string[] {
  if (!code) return [];
  const walk = (nodes: readonly AreaDto[], trail: string[]): string[] | undefined => {
    for (const node of nodes) {
      const here = [...trail, node.AreaCode];
      if (node.AreaCode === code) return here;
      if (node.Children && code.startsWith(node.AreaCode.replace(/0+$/, ''))) {
        const found = walk(node.Children, here);
        if (found) return found;
      }
    }
    return undefined;
  };
  return walk(tree, []) ?? [];
}

/** Every area flattened with its full name ('浙江省 / 湖州市 / 安吉县'), for the search. */
export function flattenAreas(tree: readonly AreaDto[]): { code: string; name: string; fullName: string; level: number }[] {
  const out: { code: string; name: string; fullName: string; level: number }[] = [];
  const walk = (nodes: readonly AreaDto[], names: string[]) => {
    for (const node of nodes) {
      const trail = [...names, node.AreaName];
      out.push({ code: node.AreaCode, name: node.AreaName, fullName: trail.join(' / '), level: node.Level });
      if (node.Children) walk(node.Children, trail);
    }
  };
  walk(tree, []);
  return out;
}

export const regionsQueryOptions = (g: number) =>
  queryOptions({
    queryKey: sitesKeys.regions,
    queryFn: async () => (await api.get<RegionDto[]>(`/${String(g)}/Region`)).data,
    enabled: g > 0,
  });
