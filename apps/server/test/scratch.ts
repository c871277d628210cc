/**
 * Throwaway resources for the tests and for the benchmarks (bench/ imports this file too, so it
 * depends on nothing test-only): a free TCP port and a fresh PostgreSQL database.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import pg from 'pg';

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
    server.on('error', reject);
  });
}

export interface ScratchDatabase {
  url: string;
  /** Drops the database, closing whoever is still connected. */
  drop: () => Promise<void>;
}

/** Creates an empty database `<prefix>_<random>` on the PostgreSQL server `serverUrl` names. */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      // A pool's end() resolves before its connections have closed. Dropping with FORCE while one
      // is still closing cuts it, and its client reports an unhandled error (seen on a busy
      // machine): wait until the server has seen them go, then drop (FORCE only for a straggler).
      for (let tries = 0; tries < 200; tries++) {
        const open = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [
          name,
        ]);
        if ((open.rows[0]?.n ?? 0) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  return { url: url.toString(), drop };
}
