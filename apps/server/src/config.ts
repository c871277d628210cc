/** Configuration, read once at boot from the environment and validated; a bad value stops start-up. */
import { z } from 'zod';

const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

/**
 * Map tiles that work in China, in GCJ-02 like the positions the console stores (AutoNavi's
 * road map, subdomains 1–4). Any XYZ template with {x}, {y}, {z} and optionally {s} will do.
 */
export const DEFAULT_MAP_TILE_URL = 'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}';

const tileUrl = z
  .string()
  .refine((v) => /^https?:\/\/[^/]/.test(v) && ['{x}', '{y}', '{z}'].every((part) => v.includes(part)), 'must be an http(s) URL template with {x}, {y} and {z}');

const configSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
    ADMIN_ACCOUNT: z
      .string()
      .regex(/^[A-Za-z0-9]{4,32}$/, 'must be 4–32 letters or digits')
      .default('admin'),
    ADMIN_PASSWORD: z
      .string()
      .min(8, 'must be at least 8 characters')
      .regex(/[A-Za-z]/, 'must contain a letter')
      .regex(/\d/, 'must contain a digit')
      .optional(),
    DEMO: flag.default(false),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TLS_CERT: z.string().optional(),
    TLS_KEY: z.string().optional(),
    WEB_DIST: z.string().optional(),
    TRUST_PROXY: flag.default(false),
    SECRET_KEY: z
      .string()
      .refine((v) => secretKeyBytes(v) !== undefined, 'must be 32 bytes written as 64 hex digits or in base64')
      .optional(),
    SIM_API_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default('https://api.simboss.com/2.0'),
    MAP_TILE_URL: tileUrl.default(DEFAULT_MAP_TILE_URL),
    MAP_TILE_SUBDOMAINS: z
      .string()
      .regex(/^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$/, 'must be letters or digits: one character per subdomain (1234), or names separated by commas (a,b,c)')
      .default('1234'),
    MAP_GEOCODER_URL: z
      .string()
      .refine((v) => /^https?:\/\/[^/]/.test(v), 'must be an http(s) URL (with {q} where the search text goes)')
      .optional(),
  })
  .refine((c) => Boolean(c.TLS_CERT) === Boolean(c.TLS_KEY), {
    message: 'TLS_CERT and TLS_KEY must be set together',
    path: ['TLS_CERT'],
  });

export type Config = z.infer<typeof configSchema>;

/** The 32 bytes of a SECRET_KEY given as 64 hex digits or as base64, else undefined. */
export function secretKeyBytes(value: string): Buffer | undefined {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    return bytes.length === 32 ? bytes : undefined;
  }
  return undefined;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
