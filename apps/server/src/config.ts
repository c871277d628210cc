/** Configuration, read once at boot from the environment and validated; a bad value stops start-up. */
import { isIP } from 'node:net';
import { z } from 'zod';
import {
  DEFAULT_TOPICS,
  parseUtcOffset,
  templateProblem,
  templatesProblem,
  type TopicTemplates,
} from '@sluice/shared/device-protocol';
import { AUDIT_RETENTION_DEFAULT_DAYS } from '@sluice/shared/audit.schema';

const flag = z
  .enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no'])
  .transform((v) => ['1', 'true', 'on', 'yes'].includes(v));

/** Names of address ranges that proxy-addr (Fastify's trustProxy) knows. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: whose X-Forwarded-For to believe. Off (the peer is the client), a hop count (the
 * number of proxies in front of the server), or the proxies' addresses and CIDR ranges. Never
 * "any": a client could then name any address and step around sign-in throttling.
 */
const trustProxy = z
  .string()
  .default('off')
  .transform((raw, ctx): false | number | string[] => {
    const value = raw.trim().toLowerCase();
    if (['off', 'false', 'no', '0'].includes(value)) return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(',').map((e) => e.trim());
    if (entries.every(isProxyEntry)) return entries;
    ctx.addIssue({
      code: 'custom',
      message:
        'must be off, the number of proxies in front of the server (1), or their addresses or CIDR ranges separated by commas (127.0.0.1,10.0.0.0/8; also loopback, linklocal, uniquelocal)',
    });
    return z.NEVER;
  });

/**
 * Map tiles that work in China, in GCJ-02 like the positions the console stores (AutoNavi's
 * road map, subdomains 1–4). Any XYZ template with {x}, {y}, {z} and optionally {s} will do.
 */
export const DEFAULT_MAP_TILE_URL =
  'https://webrd0{s}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}';

/** 'offline': no tile server; the console draws its offline base map of China. */
export const OFFLINE_TILES = 'offline';
/** EZVIZ's web player kit for ezopen:// addresses: 'local', the copy this server serves (the `ezuikit-js` package); 'off', none. */
export const KIT_LOCAL = 'local';
export const KIT_OFF = 'off';

const tileUrl = z
  .string()
  .refine(
    (v) => v === OFFLINE_TILES || (/^https?:\/\/[^/]/.test(v) && ['{x}', '{y}', '{z}'].every((part) => v.includes(part))),
    `must be an http(s) URL template with {x}, {y} and {z}, or '${OFFLINE_TILES}'`,
  );

const topic = (fallback: string) =>
  z
    .string()
    .superRefine((v, ctx) => {
      const problem = templateProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: `not a usable topic template: ${problem}` });
    })
    .default(fallback);

const days = (fallback: number) =>
  z.coerce.number().int().min(0, 'must be 0 (keep for ever) or more days').max(36_500).default(fallback);

interface TopicSettings {
  MQTT_TOPIC_DATA: string;
  MQTT_TOPIC_ERROR: string;
  MQTT_TOPIC_STATUS: string;
  MQTT_TOPIC_CMD: string;
  MQTT_TOPIC_ACK: string;
  MQTT_TOPIC_EVENT: string;
}

/** The MQTT broker, the device protocol's topics, ingestion and retention of live data. */
const mqttConfig = {
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  /** HJ 212-2017 data loggers over TCP: off unless a port is given (0 picks a free one, for tests). */
  HJ212_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Forwarding: seconds after a period ends before its data is taken as complete (loggers report late). */
  HJ212_FORWARD_GRACE: z.coerce.number().int().min(0).max(3600).default(60),
  /** Forwarding: the first retry's delay in seconds after a platform failed; it doubles up to 5 minutes. */
  HJ212_FORWARD_RETRY: z.coerce.number().int().min(0).max(300).default(5),
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|wss?):\/\/[^/]/, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  MQTT_USERNAME: z.string().min(1).optional(),
  MQTT_PASSWORD: z.string().min(1).optional(),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1–32 letters, digits, - or _')
    .default('sluice'),
  /**
   * Connections each instance ingests through from an external broker. Each takes one message at
   * a time (acknowledged once committed), so they bound how many messages an instance commits
   * together.
   */
  MQTT_INGEST_CONNECTIONS: z.coerce.number().int().min(1, 'must be at least 1').max(256, 'must be at most 256').default(32),
  MQTT_WS_URL: z
    .string()
    .regex(/^wss?:\/\/[^/]/, 'must be a ws:// or wss:// URL')
    .optional(),
  MQTT_HOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  MQTT_TOPIC_DATA: topic(DEFAULT_TOPICS.data),
  MQTT_TOPIC_ERROR: topic(DEFAULT_TOPICS.error),
  MQTT_TOPIC_STATUS: topic(DEFAULT_TOPICS.status),
  MQTT_TOPIC_CMD: topic(DEFAULT_TOPICS.cmd),
  MQTT_TOPIC_ACK: topic(DEFAULT_TOPICS.ack),
  MQTT_TOPIC_EVENT: topic(DEFAULT_TOPICS.event),
  DEVICE_TIMEOUT: z.coerce.number().int().min(10, 'must be at least 10 seconds').max(86_400).default(300),
  COMMAND_TIMEOUT: z.coerce
    .number()
    .int('must be whole seconds')
    .min(1, 'must be at least 1 second')
    .max(3600, 'must be at most 3600 seconds (an hour)')
    .default(10),
  UTC_OFFSET: z
    .string()
    .refine((v) => parseUtcOffset(v) !== undefined, 'must be an offset like +08:00, -05:30 or Z')
    .default('+08:00'),
  MQTT_CONNECT_RATE: z.coerce
    .number()
    .int('must be a whole number')
    .min(0, 'must be 0 (no limit) or more')
    .max(1_000_000)
    .default(500),
  INGEST_BATCH_MS: z.coerce.number().int().min(0).max(5000).default(0),
  INGEST_BATCH_POINTS: z.coerce.number().int().min(1).max(200_000).default(5000),
  INGEST_QUEUE_POINTS: z.coerce
    .number()
    .int('must be a whole number')
    .min(1000, 'must be at least 1000')
    .max(10_000_000, 'must be at most 10000000')
    .default(200_000),
  INGEST_QUEUE_BYTES: z.coerce
    .number()
    .int('must be a whole number of bytes')
    .min(65_536, 'must be at least 65536 (64 KiB)')
    .max(4_294_967_296, 'must be at most 4294967296 (4 GiB)')
    .default(64 * 1024 * 1024),
  INGEST_BACKLOG_BYTES: z.coerce
    .number()
    .int('must be a whole number of bytes')
    .min(65_536, 'must be at least 65536 (64 KiB)')
    .max(4_294_967_296, 'must be at most 4294967296 (4 GiB)')
    .default(16 * 1024 * 1024),
  MAX_UNDEFINED_KEYS: z.coerce.number().int().min(0, 'must be 0 (only defined keys) or more').max(100_000).default(200),
  HISTORY_RAW_DAYS: days(90),
  HISTORY_HOURLY_DAYS: days(730),
  HISTORY_DAILY_DAYS: days(0),
  HISTORY_MAX_POINTS: z.coerce.number().int().min(10).max(100_000).default(2000),
};

/**
 * Where uploads are kept: 'local', under DATA_DIR/uploads; 's3', an S3-compatible bucket that
 * several server instances share.
 */
const storageConfig = {
  STORAGE: z.enum(['local', 's3'], { message: "must be 'local' or 's3'" }).default('local'),
  /** The store's address; without it, AWS S3 in S3_REGION. */
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^/\s]+\/?$/, "must be the store's http(s) address, such as http://minio:9000")
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{2,40}$/, 'must be a region name, such as us-east-1 or cn-hangzhou')
    .default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3–63 lower-case letters, digits, dots or hyphens')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Path-style addresses (endpoint/bucket/key) instead of bucket.endpoint/key: MinIO and most self-hosted stores. */
  S3_FORCE_PATH_STYLE: flag.default(false),
  /** A folder in the bucket under which the keys go (a bucket shared with other data). */
  S3_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/,
      'must be folder names of letters, digits, hyphens, underscores or dots (not first) separated by /, such as sluice/uploads',
    )
    .optional(),
};

/** Settings that mean nothing unless STORAGE is s3. */
const S3_ONLY = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PREFIX'] as const;

const configShape = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Without HOST: 127.0.0.1 with the demo (its credentials are public), else every address. */
  HOST: z.string().min(1).optional(),
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
  TRUST_PROXY: trustProxy,
  MAP_TILE_URL: tileUrl.default(DEFAULT_MAP_TILE_URL),
  MAP_TILE_SUBDOMAINS: z
    .string()
    .regex(
      /^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$/,
      'must be letters or digits: one character per subdomain (1234), or names separated by commas (a,b,c)',
    )
    .default('1234'),
  MAP_GEOCODER_URL: z
    .string()
    .refine((v) => /^https?:\/\/[^/]/.test(v), 'must be an http(s) URL (with {q} where the search text goes)')
    .optional(),
  SECRET_KEY: z
    .string()
    .refine((v) => secretKeyBytes(v) !== undefined, 'must be 32 bytes written as 64 hex digits or in base64')
    .optional(),
  SIM_API_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default('https://api.simboss.com/2.0'),
  SMS_API_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default('https://dysmsapi.aliyuncs.com/'),
  EZVIZ_API_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).default('https://open.ys7.com'),
  /**
   * EZVIZ's web player kit (EZUIKit) for cameras whose address is ezopen://: 'local' (this
   * server's copy, the ezuikit-js package), the address of another build of its ezuikit.js, or
   * 'off' (those cameras play their HLS address).
   */
  EZVIZ_KIT_URL: z
    .string()
    .refine(
      (v) => v === KIT_LOCAL || v === KIT_OFF || /^https?:\/\/[^/\s]+\/\S*$/.test(v),
      "must be 'local', 'off' or an http(s) URL",
    )
    .default(KIT_LOCAL),
  VIDEO_ORIGINS: z
    .string()
    .regex(
      /^(https?:|https?:\/\/(\*\.)?[^\s,/*]+)(,(https?:|https?:\/\/(\*\.)?[^\s,/*]+))*$/,
      'must be http: or https: (any origin of that scheme), or origins like https://hls.example.com or https://*.example.com, separated by commas',
    )
    // EZVIZ's live and playback addresses are on its own hosts (open.ys7.com, hls01open.ys7.com, …).
    .default('https://*.ys7.com'),
  /** Enables GET /metrics (Prometheus) for scrapers sending it as a bearer token. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** On PostgreSQL, how often a standby instance tries to take over the once-only jobs (and the leader checks its hold). */
  LEADER_RETRY_SECONDS: z.coerce.number().int().min(1, 'must be at least 1 second').max(300).default(5),
  /** How long a graceful shutdown (SIGTERM, SIGINT) may take before the process exits anyway. */
  SHUTDOWN_SECONDS: z.coerce.number().int().min(1, 'must be at least 1 second').max(600).default(20),
  /** How long the audit trail keeps its entries (0 keeps them for ever). */
  AUDIT_RETENTION_DAYS: days(AUDIT_RETENTION_DEFAULT_DAYS),
  /**
   * Off only for the benchmark that measures what the audit trail costs a write (bench:audit);
   * off, writes leave no entry at all.
   */
  AUDIT_TRAIL: flag.default(true),
  NOTIFY_INTERVAL: z.coerce.number().int().min(1, 'must be at least 1 second').max(3600).default(15),
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().min(1, 'must be at least 1').max(20, 'must be at most 20').default(5),
  NOTIFY_RETRY_SECONDS: z.coerce.number().int().min(1, 'must be at least 1 second').max(86_400).default(30),
  ...mqttConfig,
  ...storageConfig,
});

/** The names of every setting the server reads (a deployment's files are checked against them). */
export const CONFIG_KEYS: readonly string[] = Object.keys(configShape.shape);

const configSchema = configShape
  .refine((c) => Boolean(c.TLS_CERT) === Boolean(c.TLS_KEY), {
    message: 'TLS_CERT and TLS_KEY must be set together',
    path: ['TLS_CERT'],
  })
  .refine((c) => templatesProblem(topicTemplates(c)) === undefined, {
    message: 'the topic templates of two kinds cannot be told apart: every MQTT_TOPIC_… needs its own shape',
    path: ['MQTT_TOPIC_DATA'],
  })
  .refine((c) => Boolean(c.MQTT_USERNAME) === Boolean(c.MQTT_PASSWORD), {
    message: 'MQTT_USERNAME and MQTT_PASSWORD must be set together',
    path: ['MQTT_USERNAME'],
  })
  .refine((c) => c.STORAGE !== 's3' || c.S3_BUCKET !== undefined, {
    message: 'must be set when STORAGE is s3',
    path: ['S3_BUCKET'],
  })
  .refine((c) => Boolean(c.S3_ACCESS_KEY_ID) === Boolean(c.S3_SECRET_ACCESS_KEY), {
    message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together',
    path: ['S3_ACCESS_KEY_ID'],
  })
  .superRefine((c, ctx) => {
    const given = S3_ONLY.filter((key) => c[key] !== undefined);
    if (c.STORAGE === 'local' && given.length > 0)
      ctx.addIssue({
        code: 'custom',
        message: `is local, so uploads would not go to the bucket of ${given.join(', ')}: set STORAGE=s3, or remove those`,
        path: ['STORAGE'],
      });
  })
  .transform(({ HOST, ...c }) => ({ ...c, HOST: HOST ?? (c.DEMO ? '127.0.0.1' : '0.0.0.0') }));

export type Config = z.infer<typeof configSchema>;

/** The device protocol's topic templates of a configuration. */
export function topicTemplates(c: TopicSettings): TopicTemplates {
  return {
    data: c.MQTT_TOPIC_DATA,
    error: c.MQTT_TOPIC_ERROR,
    status: c.MQTT_TOPIC_STATUS,
    cmd: c.MQTT_TOPIC_CMD,
    ack: c.MQTT_TOPIC_ACK,
    event: c.MQTT_TOPIC_EVENT,
  };
}

/** Minutes east of UTC of the configured local time (UTC_OFFSET). */
export const utcOffsetMinutes = (c: { UTC_OFFSET: string }): number => parseUtcOffset(c.UTC_OFFSET) ?? 0;

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
