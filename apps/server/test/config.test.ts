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

  it('reads flags and numbers', () => {
    expect(loadConfig({ PORT: '8080', DEMO: 'on', DATABASE_URL: 'postgres://u:p@db/sluice' })).toMatchObject({
      PORT: 8080,
      DEMO: true,
      DATABASE_URL: 'postgres://u:p@db/sluice',
    });
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
  ])('stops on a bad value and names it: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${name}:`));
  });
});
