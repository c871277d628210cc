import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    expect(loadConfig({})).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      ADMIN_ACCOUNT: 'admin',
      DEMO: false,
      LOG_LEVEL: 'info',
    });
  });

  it('listens on 127.0.0.1 with the demo, whose credentials are public, unless HOST says otherwise', () => {
    expect(loadConfig({ DEMO: '1' }).HOST).toBe('127.0.0.1');
    expect(loadConfig({ DEMO: '1', HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ DEMO: '0' }).HOST).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '10.1.2.3' }).HOST).toBe('10.1.2.3');
  });

  it('reads flags and numbers', () => {
    expect(loadConfig({ PORT: '8080', DEMO: 'on', DATABASE_URL: 'postgres://u:p@db/sluice' })).toMatchObject({
      PORT: 8080,
      DEMO: true,
      DATABASE_URL: 'postgres://u:p@db/sluice',
    });
  });

  it('keeps uploads on local disk unless STORAGE=s3 names a bucket, refusing bad or missing S3 settings by name', () => {
    expect(loadConfig({}).STORAGE).toBe('local');
    const s3 = {
      STORAGE: 's3',
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'sluice-uploads',
      S3_ACCESS_KEY_ID: 'sluice',
      S3_SECRET_ACCESS_KEY: 'a-long-secret',
      S3_FORCE_PATH_STYLE: '1',
    };
    expect(loadConfig(s3)).toMatchObject({ ...s3, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true });
    expect(loadConfig({ ...s3, S3_REGION: 'cn-hangzhou', S3_PREFIX: 'sluice/uploads/' })).toMatchObject({
      S3_REGION: 'cn-hangzhou',
      S3_PREFIX: 'sluice/uploads/',
    });
    // Without keys: the AWS SDK's own chain (a role, AWS_* variables); without an endpoint: AWS S3.
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'sluice-uploads' })).not.toThrow();
    const refused: [Record<string, string>, RegExp][] = [
      [{ STORAGE: 'disk' }, /STORAGE: must be 'local' or 's3'/],
      [{ STORAGE: 's3' }, /S3_BUCKET: must be set when STORAGE is s3/],
      [{ ...s3, S3_BUCKET: 'Sluice_Uploads' }, /S3_BUCKET: must be a bucket name/],
      [{ ...s3, S3_BUCKET: 'ab' }, /S3_BUCKET/],
      [{ ...s3, S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT: must be the store's http\(s\) address/],
      [{ ...s3, S3_ENDPOINT: 'http://minio:9000/sluice' }, /S3_ENDPOINT/],
      [{ ...s3, S3_REGION: 'Hangzhou 1' }, /S3_REGION: must be a region name/],
      [
        { ...s3, S3_SECRET_ACCESS_KEY: '', S3_ACCESS_KEY_ID: 'only-this' },
        /S3_ACCESS_KEY_ID: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/,
      ],
      [{ ...s3, S3_FORCE_PATH_STYLE: 'maybe' }, /S3_FORCE_PATH_STYLE/],
      [{ ...s3, S3_PREFIX: '../up' }, /S3_PREFIX: must be folder names/],
      [{ ...s3, S3_PREFIX: 'a//b' }, /S3_PREFIX/],
      [
        { ...s3, STORAGE: 'local' },
        /STORAGE: is local, so uploads would not go to the bucket of S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/,
      ],
    ];
    for (const [env, message] of refused) {
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(message);
    }
  });

  it('gives commands 10 seconds to be acknowledged unless COMMAND_TIMEOUT says otherwise', () => {
    expect(loadConfig({}).COMMAND_TIMEOUT).toBe(10);
    expect(loadConfig({ COMMAND_TIMEOUT: '30' }).COMMAND_TIMEOUT).toBe(30);
  });

  it('ingests from an external broker through 32 connections unless MQTT_INGEST_CONNECTIONS says otherwise', () => {
    expect(loadConfig({}).MQTT_INGEST_CONNECTIONS).toBe(32);
    expect(loadConfig({ MQTT_INGEST_CONNECTIONS: '8' }).MQTT_INGEST_CONNECTIONS).toBe(8);
    expect(() => loadConfig({ MQTT_INGEST_CONNECTIONS: '0' })).toThrow(/MQTT_INGEST_CONNECTIONS/);
  });

  it('lets camera streams in from EZVIZ by default, and from the origins VIDEO_ORIGINS lists', () => {
    expect(loadConfig({}).VIDEO_ORIGINS).toBe('https://*.ys7.com');
    expect(loadConfig({ VIDEO_ORIGINS: 'https://*.ys7.com,http://192.168.1.20:8080' }).VIDEO_ORIGINS).toBe(
      'https://*.ys7.com,http://192.168.1.20:8080',
    );
    expect(loadConfig({ VIDEO_ORIGINS: 'https:' }).VIDEO_ORIGINS).toBe('https:');
    expect(() => loadConfig({ VIDEO_ORIGINS: 'https://*' })).toThrow(ConfigError);
    expect(() => loadConfig({ VIDEO_ORIGINS: "https://a.example.com 'unsafe-inline'" })).toThrow(ConfigError);
  });

  it('reads TRUST_PROXY as off, a hop count, or the proxies’ addresses and ranges', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_PASSWORD: 'lettersonly' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_ACCOUNT: 'a b' }, 'ADMIN_ACCOUNT'],
    [{ DEMO: 'maybe' }, 'DEMO'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TLS_CERT: '/etc/cert.pem' }, 'TLS_CERT'],
    // "Trust any X-Forwarded-For" is no longer a setting: the proxies must be named.
    [{ TRUST_PROXY: 'on' }, 'TRUST_PROXY'],
    [{ INGEST_QUEUE_POINTS: '10' }, 'INGEST_QUEUE_POINTS'],
    [{ INGEST_QUEUE_BYTES: 'lots' }, 'INGEST_QUEUE_BYTES'],
    [{ INGEST_BACKLOG_BYTES: '1000' }, 'INGEST_BACKLOG_BYTES'],
    [{ MQTT_CONNECT_RATE: '-1' }, 'MQTT_CONNECT_RATE'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,proxy.example' }, 'TRUST_PROXY'],
    [{ COMMAND_TIMEOUT: '0' }, 'COMMAND_TIMEOUT'],
    [{ COMMAND_TIMEOUT: '2.5' }, 'COMMAND_TIMEOUT'],
    [{ COMMAND_TIMEOUT: '3601' }, 'COMMAND_TIMEOUT'],
    [{ COMMAND_TIMEOUT: 'soon' }, 'COMMAND_TIMEOUT'],
  ])('stops on a bad value and names it: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${name}:`));
  });
});
