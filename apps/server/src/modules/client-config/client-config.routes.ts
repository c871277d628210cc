/** GET /api/config/client: what the signed-in console needs to know of the server's configuration. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientConfigDto } from '@sluice/shared/client-config.schema';
import { DEFAULT_MAP_CENTER } from '@sluice/shared/geo.schema';
import { KIT_LOCAL, KIT_OFF, OFFLINE_TILES, type Config } from '../../config.ts';
import { LOCAL_KIT } from '../../http/ezviz-kit.ts';
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

/**
 * What the page's CSP must allow for EZVIZ's player kit, or undefined when it is off: its
 * script's origin when it is not this server's copy (script, its decoders' fetches and workers),
 * and the platform the kit calls from the page (EZVIZ_API_URL, its env.domain).
 */
export function ezvizKitSources(
  config: Pick<Config, 'EZVIZ_KIT_URL' | 'EZVIZ_API_URL'>,
): { scripts: string[]; connect: string[] } | undefined {
  if (config.EZVIZ_KIT_URL === KIT_OFF) return undefined;
  const scripts = config.EZVIZ_KIT_URL === KIT_LOCAL ? [] : [new URL(config.EZVIZ_KIT_URL).origin];
  return { scripts, connect: [...new Set([...scripts, new URL(config.EZVIZ_API_URL).origin])] };
}

/** Where the console loads the kit from, and where the kit finds its decoders (null: the kit's own default). */
function kitLocation(config: Pick<Config, 'EZVIZ_KIT_URL'>): { KitUrl: string | null; KitStaticPath: string | null } {
  if (config.EZVIZ_KIT_URL === KIT_OFF) return { KitUrl: null, KitStaticPath: null };
  if (config.EZVIZ_KIT_URL === KIT_LOCAL) return { KitUrl: LOCAL_KIT.url, KitStaticPath: LOCAL_KIT.staticPath };
  return { KitUrl: config.EZVIZ_KIT_URL, KitStaticPath: null };
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
          ...kitLocation(config),
          EzvizApiUrl: config.EZVIZ_API_URL,
        },
      }),
  );
}
