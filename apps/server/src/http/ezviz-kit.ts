/**
 * EZVIZ's web player kit (the `ezuikit-js` package: its browser build `ezuikit.js` and its
 * decoders in `ezuikit_static/`), served by this server under /ezuikit/<version>/ so that
 * ezopen:// cameras play on networks that cannot reach EZVIZ's script host, with no other
 * origin in the page's CSP. The version in the path lets browsers keep the files for good.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

const packageJson = createRequire(import.meta.url).resolve('ezuikit-js/package.json');
const root = path.dirname(packageJson);
const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;

/** Where the page finds this server's copy of the kit and its decoders. */
export const LOCAL_KIT = {
  version,
  url: `/ezuikit/${version}/ezuikit.js`,
  staticPath: `/ezuikit/${version}/ezuikit_static`,
} as const;

export async function registerEzvizKit(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    prefix: `/ezuikit/${version}/`,
    decorateReply: false,
    index: false,
    // The package's README, changelog and manifest are not the page's business.
    allowedPath: (pathName) => pathName === '/ezuikit.js' || pathName.startsWith('/ezuikit_static/'),
    setHeaders(reply) {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
}
