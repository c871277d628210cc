/**
 * A stable name of this server instance: from its host name, port and data directory, so that a
 * restarted instance (the same container) has the same name — its persistent sessions at an
 * external broker resume, and what it noted as its own in the database is its own again.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.ts';

export function instanceName(config: Pick<Config, 'PORT' | 'DATA_DIR'>): string {
  return createHash('sha256')
    .update(`${hostname()}:${String(config.PORT)}:${config.DATA_DIR}`)
    .digest('hex')
    .slice(0, 12);
}
