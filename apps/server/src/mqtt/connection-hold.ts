/**
 * Back-pressure on device connections: while ingestion is full, a device's connection is not
 * read until its message is stored (Aedes would otherwise read on as data arrives, and hold it
 * all; and it is read in sips, about a packet at a time, sip-reader.ts). Devices are then
 * served in turn, each getting a PUBACK every so many seconds, and hear from the server often
 * enough to stay connected.
 *
 * But a device that hears nothing from the server for its keep-alive sends a PINGREQ, and gives
 * up when that is not answered (mqtt.js after 1.5 keep-alives without any packet from the
 * server); its PINGREQ sits in its connection behind what it published meanwhile. So a held
 * connection whose device has had no answer (CONNACK, PUBACK, PINGRESP) for a keep-alive — a
 * random 1 to 1.25 of it, so that thousands held at once are not all read together — is read
 * again, wholly: its PINGREQ is answered, and what it sent before it is taken in, to wait for
 * room like any message. At most every quarter keep-alive; never for a client without one.
 *
 * While the broker's backlog holds its bound (ingest-backlog.ts), a held connection is not read
 * again when its time comes: what it sent stays in its socket (TCP slows the device down)
 * instead of in the server's memory. Aedes would drop it, having read nothing from it for 1.5
 * keep-alives: its keep-alive timer is restarted instead (the connection is there; the server is
 * the one not reading it), and it is read again a quarter keep-alive later if there is room.
 */

/** What of an Aedes client this needs (pause and resume are not in Aedes' type declarations). */
export interface HoldableClient {
  pause(): void;
  resume(): void;
  /** Aedes: milliseconds after the last packet at which it drops the client (1.5 × keep-alive + 1), or -1. */
  readonly _keepaliveInterval?: number;
  /** Aedes: the timer that drops the client, restarted by each packet read. */
  readonly _keepaliveTimer?: { refresh(): unknown } | null;
  /** Aedes: the connection, and the parser its data goes to. */
  readonly conn?: { read(size?: number | null): unknown };
  readonly _parser?: { parse(data: Buffer): unknown };
}

/**
 * Reads what the client sent meanwhile. Aedes' resume() reads only when none of the client's
 * packets is still being handled, and the connection said it was readable while paused, once:
 * a client with a message still waiting would stay unread, its PINGREQ too.
 */
function readAgain(client: HoldableClient): void {
  client.resume();
  const data = client.conn?.read(null);
  if (Buffer.isBuffer(data)) client._parser?.parse(data);
}

interface Hold {
  /** Messages of the client waiting to be stored that paused it. */
  count: number;
  /** Whether its connection is not being read (it is again once read again). */
  paused: boolean;
  timer: NodeJS.Timeout | undefined;
}

export class ConnectionHold {
  private readonly holds = new Map<HoldableClient, Hold>();
  /** When each client was last sent an answer, and last read again. */
  private readonly answeredAt = new WeakMap<HoldableClient, number>();
  private readonly readAt = new WeakMap<HoldableClient, number>();
  /** Whether a held connection may be read again now (not while the backlog holds its bound). */
  private readonly mayRead: () => boolean;
  /** Held connections read again (to answer a PINGREQ), and times that waited for room in the backlog. */
  readAgain = 0;
  deferred = 0;

  constructor(mayRead: () => boolean = () => true) {
    this.mayRead = mayRead;
  }

  /** The client was sent an answer (its CONNACK, a PUBACK, a PINGRESP). */
  answered(client: HoldableClient, at = Date.now()): void {
    this.answeredAt.set(client, at);
  }

  /** Stops reading the client's connection until `release` (or its device needs an answer). */
  hold(client: HoldableClient): void {
    let hold = this.holds.get(client);
    if (!hold) {
      hold = { count: 0, paused: false, timer: undefined };
      this.holds.set(client, hold);
    }
    hold.count += 1;
    hold.paused = true;
    client.pause();
    this.schedule(client, hold);
  }

  private schedule(client: HoldableClient, hold: Hold): void {
    const keepAlive = ConnectionHold.keepAliveOf(client);
    if (keepAlive === undefined || hold.timer) return;
    const now = Date.now();
    const due = Math.max(
      (this.answeredAt.get(client) ?? now) + keepAlive * (1 + Math.random() / 4),
      (this.readAt.get(client) ?? 0) + keepAlive / 4,
    );
    hold.timer = setTimeout(
      () => {
        // (`release` clears the timer: the hold is current.)
        hold.timer = undefined;
        if (this.mayRead()) {
          this.readAgain += 1;
          this.readAt.set(client, Date.now());
          hold.paused = false;
          readAgain(client);
          return;
        }
        this.deferred += 1;
        client._keepaliveTimer?.refresh();
        this.readAt.set(client, Date.now());
        this.schedule(client, hold);
      },
      Math.max(0, due - now),
    );
    hold.timer.unref();
  }

  /** One message that held the client is stored (or failed): reads on when it was the last. */
  release(client: HoldableClient): void {
    const hold = this.holds.get(client);
    if (!hold) return;
    hold.count -= 1;
    if (hold.count > 0) return;
    this.holds.delete(client);
    if (hold.timer) clearTimeout(hold.timer);
    if (hold.paused) client.resume();
  }

  /** Connections held now. */
  get size(): number {
    return this.holds.size;
  }

  /** The client's keep-alive in milliseconds (from Aedes' limit of 1.5 × keep-alive + 1), undefined without one. */
  static keepAliveOf(client: HoldableClient): number | undefined {
    const interval = client._keepaliveInterval ?? -1;
    return interval > 0 ? (interval - 1) / 1.5 : undefined;
  }
}
