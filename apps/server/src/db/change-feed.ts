/**
 * What one server instance changed that the others cache: a device (its secret, group, type,
 * definitions: the live directory and MQTT authentication hold them for a minute), a device's
 * alarms (the ones its messages opened, which alarm evaluation holds for a minute: with a shared
 * subscription the device's next message may come to another instance), a device gone offline
 * (the others, which saw it online, mark it online again when they next hear of it) and ended
 * sessions (the MQTT permissions of their consoles). On PostgreSQL each instance LISTENs on one
 * channel, on a connection of its own, and a change is sent with pg_notify after its commit; an
 * instance ignores its own notifications (it has acted already). On SQLite there is one server.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db } from './database.ts';
import type { SessionEnd } from '../auth/sessions.repository.ts';

export type Change = { device: string } | { alarms: string } | { offline: string } | { session: SessionEnd };

const CHANNEL = 'sluice_changes';

export interface ChangeFeed {
  /** Tells the other instances (after the change's commit). */
  publish(change: Change): void;
  /** Hears the other instances' changes. */
  onChange(listener: (change: Change) => void): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** SQLite: nobody else to tell. */
export const loneFeed: ChangeFeed = {
  publish: () => undefined,
  onChange: () => undefined,
  start: () => Promise.resolve(),
  stop: () => Promise.resolve(),
};

export class PgChangeFeed implements ChangeFeed {
  private readonly origin = randomBytes(6).toString('hex');
  private readonly listeners: ((change: Change) => void)[] = [];
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly options: { db: Db; databaseUrl: string; onError: (error: unknown) => void };

  constructor(options: PgChangeFeed['options']) {
    this.options = options;
  }

  publish(change: Change): void {
    const payload = JSON.stringify({ origin: this.origin, change });
    sql`select pg_notify(${CHANNEL}, ${payload})`.execute(this.options.db).catch(this.options.onError);
  }

  onChange(listener: (change: Change) => void): void {
    this.listeners.push(listener);
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl, keepAlive: true });
    const lost = (error?: unknown) => {
      if (error) this.options.onError(error);
      if (this.client !== client || this.stopped) return;
      this.client = undefined;
      // Caches expire within a minute anyway; listen again soon.
      this.retry = setTimeout(() => {
        this.listen().catch(this.options.onError);
      }, 2000);
      this.retry.unref();
    };
    client.on('error', lost);
    client.on('end', () => {
      lost();
    });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      const { origin, change } = JSON.parse(message.payload) as { origin: string; change: Change };
      if (origin === this.origin) return;
      for (const listener of this.listeners) listener(change);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
    } catch (error) {
      lost(error);
    }
  }
}
