/** GET /api/config/client: what the signed-in console needs to know of the server's configuration. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientConfigDto } from '@sluice/shared/client-config.schema';
import { DEFAULT_MAP_CENTER } from '@sluice/shared/geo.schema';
import { KIT_OFF, OFFLINE_TILES, type Config } from '../../config.ts';
import { envelopeOf, ok } from '../../http/envelope.ts';

/** MAP_TILE_SUBDOMAINS: '1234' is four one-character subdomains, 'a,b,c' three named ones. */
export function tileSubdomains(config: Pick<Config, 'MAP_TILE_SUBDOMAINS'>): string[] {
  const text = config.MAP_TILE_SUBDOMAINS;
  return text.includes(',') ? text.split(',') : text.split('');
}

/**
 * The origins the tiles come from, for the CSP's img-src: the template's origin with {s} replaced
 * by each subdomain (so no wildcard is needed).
 */
export function tileOrigins(config: Pick<Config, 'MAP_TILE_URL' | 'MAP_TILE_SUBDOMAINS'>): string[] {
  const template = config.MAP_TILE_URL;
  if (template === OFFLINE_TILES) return [];
  const hosts = template.includes('{s}') ? tileSubdomains(config).map((s) => template.replaceAll('{s}', s)) : [template];
  const origins = hosts.flatMap((url) => {
    try {
      return [new URL(url.replace(/\{[a-z]+\}/gi, '0')).origin];
    } catch {
      return [];
    }
  });
  return [...new Set(origins)];
}

/** The geocoder's origin, for the CSP's connect-src, or undefined when none is configured. */
export function geocoderOrigin(config: Pick<Config, 'MAP_GEOCODER_URL'>): string | undefined {
  if (!config.MAP_GEOCODER_URL) return undefined;
  try {
    return new URL(config.MAP_GEOCODER_URL.replace(/\{[a-z]+\}/gi, 'x')).origin;
  } catch {
    return undefined;
  }
}

/** The EZVIZ player kit's origin, for the CSP (script, its decoders' fetches and workers), or undefined when it is off. */
export function ezvizKitOrigin(config: Pick<Config, 'EZVIZ_KIT_URL'>): string | undefined {
  return config.EZVIZ_KIT_URL === KIT_OFF ? undefined : new URL(config.EZVIZ_KIT_URL).origin;
}

export function clientConfigRoutes(root: FastifyInstance): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { config } = app.ctx;
  app.get(
    '/config/client',
    {
      config: { access: 'session' },
      schema: {
        tags: ['Configuration'],
        summary: 'Map tiles, subdomains, the optional online geocoder, the default map centre and the EZVIZ player kit',
        response: { 200: envelopeOf(clientConfigDto) },
      },
    },
    (request) =>
      ok(request, {
        Map: {
          // No tile source: the console draws its offline base map.
          TileUrl: config.MAP_TILE_URL === OFFLINE_TILES ? '' : config.MAP_TILE_URL,
          Subdomains: tileSubdomains(config),
          GeocoderUrl: config.MAP_GEOCODER_URL ?? null,
          DefaultCenter: DEFAULT_MAP_CENTER,
        },
        Video: {
          KitUrl: config.EZVIZ_KIT_URL === KIT_OFF ? null : config.EZVIZ_KIT_URL,
          EzvizApiUrl: config.EZVIZ_API_URL,
        },
      }),
  );
}
