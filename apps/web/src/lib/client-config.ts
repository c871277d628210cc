/** GET /api/config/client: the map's tile source and optional geocoder, and the EZVIZ player kit, configured on the server. */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ClientConfigDto } from '@sluice/shared/client-config.schema';
import { DEFAULT_MAP_CENTER } from '@sluice/shared/geo.schema';
import { api } from './api-client';

export type MapConfig = ClientConfigDto['Map'];

export const clientConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['client-config'],
    queryFn: async () => (await api.get<ClientConfigDto>('/config/client')).data,
    staleTime: Infinity,
  });

/** The map configuration; while it loads (or if the call fails) a map without tiles still works. */
export function useMapConfig(): { config: MapConfig | undefined; ready: boolean } {
  const { data, isPending } = useQuery(clientConfigQueryOptions());
  if (data) return { config: data.Map, ready: true };
  return {
    config: isPending ? undefined : { TileUrl: '', Subdomains: [], GeocoderUrl: null, DefaultCenter: DEFAULT_MAP_CENTER },
    ready: !isPending,
  };
}

export type VideoConfig = ClientConfigDto['Video'];
