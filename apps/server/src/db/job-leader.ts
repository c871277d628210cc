/**
 * Which server instance runs the jobs that must run once (the offline time-out and its alarms,
 * retention). On SQLite there is one server: it always leads. On PostgreSQL the leader holds a
 * session-level advisory lock on a connection of its own; the others try to take it every
 * `retryMs`. A leader that dies (killed, its host gone) loses its connection and with it the lock,
 * so a standby takes over at its next try. A leader whose connection fails steps down at once,
 * and checks it every `retryMs` while leading (a leader cut off from the database must not go on
 * believing it leads).
 */
import pg from 'pg';

/** pg_advisory_lock's key for the job leader: "sluice-leader" (retention's own runs use another). */
const LEADER_KEY = '7311288141450240001';

export interface JobLeader {
  /** Whether this instance runs the once-only jobs now. */
  leads(): boolean;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** SQLite: one server, one leader. */
export const soleLeader: JobLeader = {
  leads: () => true,
  start: () => Promise.resolve(),
  stop: () => Promise.resolve(),
};

export interface PgLeaderOptions {
  databaseUrl: string;
  retryMs: number;
  onChange: (leading: boolean) => void;
  onError: (error: unknown) => void;
}

export class PgJobLeader implements JobLeader {
  private readonly options: PgLeaderOptions;
  private client: pg.Client | undefined;
  private leading = false;
  private timer: NodeJS.Timeout | undefined;
  private trying: Promise<void> | undefined;
  private stopped = false;

  constructor(options: PgLeaderOptions) {
    this.options = options;
  }

  leads(): boolean {
    return this.leading;
  }

  /** Tries once at once (the first instance up leads from the start), then every retryMs. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.tick();
    this.timer = setInterval(() => {
      void this.tick();
    }, this.options.retryMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    await this.trying;
    // Ending the session releases the lock: a standby takes over at its next try.
    await this.drop();
  }

  private tick(): Promise<void> {
    this.trying ??= this.attempt()
      .catch(async (error: unknown) => {
        this.options.onError(error);
        await this.drop();
      })
      .finally(() => {
        this.trying = undefined;
      });
    return this.trying;
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    const client = await this.connection();
    if (this.leading) {
      await client.query('select 1');
      return;
    }
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1::bigint) as locked', [LEADER_KEY]);
    if (rows[0]?.locked === true) this.setLeading(true);
  }

  private async connection(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.options.databaseUrl, keepAlive: true });
    client.on('error', (error) => {
      this.options.onError(error);
      void this.drop();
    });
    client.on('end', () => {
      if (this.client === client) {
        this.client = undefined;
        this.setLeading(false);
      }
    });
    await client.connect();
    this.client = client;
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.setLeading(false);
    await client?.end().catch(() => undefined);
  }

  private setLeading(leading: boolean): void {
    if (leading === this.leading) return;
    this.leading = leading;
    this.options.onChange(leading);
  }
}
