/**
 * A simulated supervising platform (an ecology and environment bureau's): a TCP server speaking
 * HJ 212-2017 that records every packet it receives and answers each one asking for it with 9014
 * (same QN), as a platform does. `dropNext(n)` makes it close the connection on the next n
 * packets asking for an answer instead (an outage); `request(...)` sends the connected
 * forwarders a packet (a re-send request); a bad packet is left unanswered, its reason kept in
 * `refused`. Used by the server's forwarding tests and the e2e test.
 */
import net, { type Socket } from 'node:net';
import {
  Hj212Framer,
  buildHj212Packet,
  hj212DataAnswer,
  parseHj212Packet,
  wantsAnswer,
  type Hj212Packet,
  type Hj212PacketInput,
} from '@sluice/shared/hj212';

export class Hj212Platform {
  readonly received: Hj212Packet[] = [];
  /** Why packets were refused (not framed, or not parsed): a platform does not answer them. */
  readonly refused: string[] = [];
  private readonly server: net.Server;
  private readonly sockets = new Set<Socket>();
  private drops = 0;
  private listeners: (() => void)[] = [];
  /** Connections accepted so far. */
  connections = 0;
  port = 0;

  private constructor() {
    this.server = net.createServer((socket) => {
      this.connections += 1;
      this.sockets.add(socket);
      socket.setEncoding('latin1');
      const framer = new Hj212Framer();
      socket.on('data', (chunk: string) => {
        for (const r of framer.push(chunk)) {
          const parsed = r.ok ? parseHj212Packet(r.packet) : r;
          if (!parsed.ok) {
            this.refused.push(parsed.reason);
            continue;
          }
          if (this.drops > 0 && wantsAnswer(parsed.value)) {
            this.drops -= 1;
            socket.destroy();
            return;
          }
          this.received.push(parsed.value);
          if (wantsAnswer(parsed.value)) socket.write(hj212DataAnswer(parsed.value), 'latin1');
          for (const l of this.listeners.splice(0)) l();
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<Hj212Platform> {
    const platform = new Hj212Platform();
    await new Promise<void>((resolve) => platform.server.listen(0, '127.0.0.1', resolve));
    const address = platform.server.address();
    platform.port = typeof address === 'object' && address ? address.port : 0;
    return platform;
  }

  dropNext(n: number): void {
    this.drops = n;
  }

  /** Sends a packet to every connected forwarder. */
  request(input: Hj212PacketInput): void {
    for (const s of this.sockets) s.write(buildHj212Packet(input), 'latin1');
  }

  /** Resolves when a packet with this CN (or one that matches) has arrived. */
  async waitFor(match: string | ((packet: Hj212Packet) => boolean)): Promise<Hj212Packet> {
    const matches = typeof match === 'string' ? (p: Hj212Packet) => p.cn === match : match;
    for (;;) {
      const found = this.received.find(matches);
      if (found) return found;
      await new Promise<void>((resolve) => this.listeners.push(resolve));
    }
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) =>
      this.server.close(() => {
        resolve();
      }),
    );
  }
}
