/**
 * Admits connections at a steady rate: after a restart every device reconnects at once, and
 * each new device costs its online transition, its offline alarm's clearing and its first
 * messages; admitted all together they would hold up the devices already sending. At most
 * `perSecond` a second are admitted (a tenth of a second's worth at once), in arrival order;
 * the others wait for their turn (their CONNACK with them), and one whose turn would come
 * after `maxWaitMs` is refused at once, to come back later.
 */
export class AdmissionGate {
  private readonly intervalMs: number;
  private readonly burstMs: number;
  private readonly maxWaitMs: number;
  /** When the next connection may be admitted. */
  private next = 0;
  /** Connections waiting for their turn now. */
  waiting = 0;

  constructor(perSecond: number, maxWaitMs: number) {
    this.intervalMs = 1000 / perSecond;
    this.burstMs = 100;
    this.maxWaitMs = maxWaitMs;
  }

  /** Resolves true when the connection's turn has come, false when it is refused. */
  admit(now = Date.now()): Promise<boolean> {
    const at = Math.max(now - this.burstMs, this.next);
    const wait = at - now;
    if (wait > this.maxWaitMs) return Promise.resolve(false);
    this.next = at + this.intervalMs;
    if (wait <= 0) return Promise.resolve(true);
    this.waiting += 1;
    return new Promise((resolve) => {
      setTimeout(() => {
        this.waiting -= 1;
        resolve(true);
      }, wait);
    });
  }
}
