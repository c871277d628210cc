import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILE_URL, loadConfig } from '../src/config.ts';
import { geocoderOrigin, tileOrigins } from '../src/modules/client-config/client-config.routes.ts';
import { LOCAL_KIT } from '../src/http/ezviz-kit.ts';
import { ADMIN, createTestApp, type TestApp } from './harness.ts';

describe('map configuration', () => {
  it('defaults to tiles that work in China and no online geocoder', () => {
    const config = loadConfig({});
    expect(config.MAP_TILE_URL).toBe(DEFAULT_MAP_TILE_URL);
    expect(config.MAP_GEOCODER_URL).toBeUndefined();
    expect(tileOrigins(config)).toEqual([
      'https://webrd01.is.autonavi.com',
      'https://webrd02.is.autonavi.com',
      'https://webrd03.is.autonavi.com',
      'https://webrd04.is.autonavi.com',
    ]);
  });

  it('reads named subdomains, a template without {s}, and the geocoder origin', () => {
    expect(
      tileOrigins(loadConfig({ MAP_TILE_URL: 'https://{s}.tile.example.org/{z}/{x}/{y}.png', MAP_TILE_SUBDOMAINS: 'a,b' })),
    ).toEqual(['https://a.tile.example.org', 'https://b.tile.example.org']);
    expect(tileOrigins(loadConfig({ MAP_TILE_URL: 'http://127.0.0.1:9000/{z}/{x}/{y}.png' }))).toEqual(['http://127.0.0.1:9000']);
    expect(geocoderOrigin(loadConfig({ MAP_GEOCODER_URL: 'https://geo.example.org/search?q={q}' }))).toBe(
      'https://geo.example.org',
    );
  });

  it("takes 'offline' for no tile server: no tile origin in the CSP", () => {
    const config = loadConfig({ MAP_TILE_URL: 'offline' });
    expect(config.MAP_TILE_URL).toBe('offline');
    expect(tileOrigins(config)).toEqual([]);
  });

  it.each([
    [{ MAP_TILE_URL: 'https://tiles.example.org/tile.png' }, 'MAP_TILE_URL'],
    [{ MAP_TILE_URL: 'offline-ish' }, 'MAP_TILE_URL'],
    [{ MAP_TILE_URL: 'ftp://tiles.example.org/{z}/{x}/{y}' }, 'MAP_TILE_URL'],
    [{ MAP_TILE_SUBDOMAINS: 'a b' }, 'MAP_TILE_SUBDOMAINS'],
    [{ MAP_GEOCODER_URL: 'geo.example.org' }, 'MAP_GEOCODER_URL'],
    [{ EZVIZ_KIT_URL: 'open.ys7.com/ezuikit.js' }, 'EZVIZ_KIT_URL'],
    [{ EZVIZ_KIT_URL: 'bundled' }, 'EZVIZ_KIT_URL'],
  ])('stops on a bad map value and names it: %o', (env, name) => {
    expect(() => loadConfig(env)).toThrow(new RegExp(`\\b${name}:`));
  });
});

describe('GET /api/config/client', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', {
      MAP_TILE_URL: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
      MAP_GEOCODER_URL: 'https://geo.example.org/search?q={q}',
      EZVIZ_API_URL: 'https://ezviz.example.org',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('tells a signed-in console the tile source and the geocoder, and nobody else', async () => {
    expect((await t.call({ method: 'GET', url: '/api/config/client' })).statusCode).toBe(401);
    const token = await t.login(ADMIN.account, ADMIN.password);
    const res = await t.call({ method: 'GET', url: '/api/config/client', token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: {
        Map: {
          TileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
          Subdomains: ['1', '2', '3', '4'],
          GeocoderUrl: 'https://geo.example.org/search?q={q}',
          DefaultCenter: '113.8865,22.609985',
        },
        // The server's own copy of the kit (ezuikit-js), its decoders beside it.
        Video: {
          KitUrl: `/ezuikit/${LOCAL_KIT.version}/ezuikit.js`,
          KitStaticPath: `/ezuikit/${LOCAL_KIT.version}/ezuikit_static`,
          EzvizApiUrl: 'https://ezviz.example.org',
        },
      },
    });
  });

  it('lets the page load tiles from the tile server, call the geocoder, play EZVIZ streams, run the kit from itself and let it call the platform, and nothing else', async () => {
    const csp = (await t.call({ method: 'GET', url: '/api/nothing' })).headers['content-security-policy'];
    expect(csp).toMatch(/img-src 'self' data: blob: http:\/\/127\.0\.0\.1:9(;|$)/);
    expect(csp).toMatch(
      /connect-src 'self' ws: wss: https:\/\/geo\.example\.org https:\/\/\*\.ys7\.com https:\/\/ezviz\.example\.org(;|$)/,
    );
    // The kit compiles its WASM decoders; no script from another origin.
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    expect(csp).toMatch(/worker-src 'self' blob:(;|$)/);
    expect(csp).toMatch(/media-src 'self' blob: https:\/\/\*\.ys7\.com(;|$)/);
  });
});

describe('GET /api/config/client with the kit from elsewhere', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { EZVIZ_KIT_URL: 'https://kit.example.org/ezuikit_js/v9.0.22/ezuikit.js' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('tells the console its address, leaves the decoders to the kit, lets its origin in, and serves no copy', async () => {
    const token = await t.login(ADMIN.account, ADMIN.password);
    const res = await t.call({ method: 'GET', url: '/api/config/client', token });
    expect(res.json()).toMatchObject({
      data: { Video: { KitUrl: 'https://kit.example.org/ezuikit_js/v9.0.22/ezuikit.js', KitStaticPath: null } },
    });
    const csp = (await t.call({ method: 'GET', url: '/api/nothing' })).headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'self' 'wasm-unsafe-eval' https:\/\/kit\.example\.org(;|$)/);
    expect(csp).toMatch(/worker-src 'self' blob: https:\/\/kit\.example\.org(;|$)/);
    expect(csp).toMatch(
      /connect-src 'self' ws: wss: https:\/\/\*\.ys7\.com https:\/\/kit\.example\.org https:\/\/open\.ys7\.com(;|$)/,
    );
    expect((await t.call({ method: 'GET', url: LOCAL_KIT.url })).statusCode).toBe(404);
  });
});

describe('GET /api/config/client without a tile server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { MAP_TILE_URL: 'offline', EZVIZ_KIT_URL: 'off' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers no tile source, so the console draws its offline base map, and the CSP loads images from itself only', async () => {
    const token = await t.login(ADMIN.account, ADMIN.password);
    const res = await t.call({ method: 'GET', url: '/api/config/client', token });
    expect(res.json()).toMatchObject({ data: { Map: { TileUrl: '' } } });
    const csp = (await t.call({ method: 'GET', url: '/api/nothing' })).headers['content-security-policy'];
    expect(csp).toMatch(/img-src 'self' data: blob:(;|$)/);
  });

  it('with EZVIZ_KIT_URL off, answers no kit and lets no script in from elsewhere', async () => {
    const token = await t.login(ADMIN.account, ADMIN.password);
    const res = await t.call({ method: 'GET', url: '/api/config/client', token });
    expect(res.json()).toMatchObject({
      data: { Video: { KitUrl: null, KitStaticPath: null, EzvizApiUrl: 'https://open.ys7.com' } },
    });
    const csp = (await t.call({ method: 'GET', url: '/api/nothing' })).headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).toMatch(/worker-src 'self' blob:(;|$)/);
    expect(csp).toMatch(/connect-src 'self' ws: wss: https:\/\/\*\.ys7\.com(;|$)/);
    expect((await t.call({ method: 'GET', url: LOCAL_KIT.url })).statusCode).toBe(404);
  });
});
