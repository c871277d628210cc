import { describe, expect, it, vi } from 'vitest';
import L from 'leaflet';
import { FAILED_TILES, watchTiles } from './offline-base-map';

const tileEvent = { tile: document.createElement('img'), coords: L.point(0, 0) };

describe('telling that the tile server cannot be reached', () => {
  it(`gives up on the tiles after ${String(FAILED_TILES)} failures when none has loaded, and says so once`, () => {
    const tiles = L.tileLayer('http://127.0.0.1:9/{z}/{x}/{y}.png');
    const unreachable = vi.fn();
    watchTiles(tiles, unreachable);
    for (let i = 1; i < FAILED_TILES; i++) tiles.fire('tileerror', tileEvent);
    expect(unreachable).not.toHaveBeenCalled();
    tiles.fire('tileerror', tileEvent);
    tiles.fire('tileerror', tileEvent);
    expect(unreachable).toHaveBeenCalledTimes(1);
  });

  it('keeps the tiles when one has loaded: a few failing tiles are not a lost connection', () => {
    const tiles = L.tileLayer('http://127.0.0.1:9/{z}/{x}/{y}.png');
    const unreachable = vi.fn();
    watchTiles(tiles, unreachable);
    tiles.fire('tileload', tileEvent);
    for (let i = 0; i < FAILED_TILES * 3; i++) tiles.fire('tileerror', tileEvent);
    expect(unreachable).not.toHaveBeenCalled();
  });
});
