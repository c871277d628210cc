/**
 * Back-pressure on device connections: while ingestion is full, a device's connection is not
 * read until its message is stored (Aedes would otherwise read on as data arrives, and hold it
 * all). But a connection left unread past its keep-alive is dropped — by Aedes, which hears
 * nothing from it, or by the device, whose PINGREQ goes unanswered — and a device held back must
 * not be dropped. So a connection is held at most half its keep-alive (at most MAX_HOLD_MS) at a
 * time — between a quarter and a half, at random, so that thousands of connections held at once
 * are not all read again in the same instant — then it is read again (its pings are answered, and what it sent meanwhile is taken in,
 * to wait for room like any message), and held again by the next message that finds ingestion
 * full.
 */

/** What of an Aedes client this needs (pause and resume are not in Aedes' type declarations). */
export interface HoldableClient {
  pause(): void;
  resume(): void;
  /** Aedes: milliseconds after the last packet at which it drops the client (1.5 × keep-alive + 1), or -1. */
  readonly _keepaliveInterval?: number;
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

const MAX_HOLD_MS = 30_000;

interface Hold {
  /** Messages of the client waiting to be stored that paused it. */
  count: number;
  timer: NodeJS.Timeout | undefined;
}

export class ConnectionHold {
  private readonly holds = new Map<HoldableClient, Hold>();

  /** Stops reading the client's connection until `release` (or half its keep-alive). */
  hold(client: HoldableClient): void {
    let hold = this.holds.get(client);
    if (!hold) {
      hold = { count: 0, timer: undefined };
      this.holds.set(client, hold);
    }
    hold.count += 1;
    client.pause();
    hold.timer ??= setTimeout(
      () => {
        const current = this.holds.get(client);
        if (current) current.timer = undefined;
        readAgain(client);
      },
      ConnectionHold.limitOf(client) * (0.5 + Math.random() / 2),
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
    if (hold.timer) {
      clearTimeout(hold.timer);
      client.resume();
    }
  }

  /** Connections held now. */
  get size(): number {
    return this.holds.size;
  }

  /** How long a client may go unread at most: half its keep-alive, at most MAX_HOLD_MS. */
  static limitOf(client: HoldableClient): number {
    const interval = client._keepaliveInterval ?? -1;
    if (interval <= 0) return MAX_HOLD_MS;
    const keepAliveMs = (interval - 1) / 1.5;
    return Math.max(500, Math.min(MAX_HOLD_MS, keepAliveMs / 2));
  }
}
