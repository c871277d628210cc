/**
 * A map tile server for tests and benchmarks, so nothing reaches the internet: every
 * /{z}/{x}/{y}.png answers the same small blank PNG. `node e2e/tile-server.ts` serves on
 * TILE_PORT (default 3211); startTileServer() does the same in-process.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1×1 PNG in the map's land colour; the browser stretches it over the 256 px tile. */
const TILE = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGN49+kVAAWcAssHhgmLAAAAAElFTkSuQmCC',
  'base64',
);

export interface TileServer {
  /** The template for MAP_TILE_URL */
  url: string;
  close: () => Promise<void>;
}

export async function startTileServer(port = 0): Promise<TileServer> {
  const server = http.createServer((request, response) => {
    if (request.url === '/health') {
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    if (/^\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) {
      response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'max-age=3600' }).end(TILE);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(bound)}/{z}/{x}/{y}.png`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const server = await startTileServer(Number(process.env.TILE_PORT ?? 3211));
  console.log(`tiles at ${server.url}`);
}
