/**
 * HJ 212 over TCP for the tests. A local supervising platform: a TCP server speaking HJ 212 that records every
 * packet it receives and answers each upload asking for it with 9014 (same QN), as a bureau's
 * platform does. `dropNext(n)` makes it close the connection on the next n uploads instead
 * (an outage); `request(...)` sends the connected forwarder a packet (a re-send request).
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

/** A logger's TCP connection: sends text, and hands out the packets the server answers, in order. */
export class LoggerLink {
  private readonly socket: net.Socket;
  private buffer = '';
  private readonly answers: Hj212Packet[] = [];
  private waiters: ((p: Hj212Packet) => void)[] = [];

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end = this.buffer.indexOf('\r\n');
      while (end >= 0) {
        const parsed = parseHj212Packet(this.buffer.slice(0, end + 2));
        this.buffer = this.buffer.slice(end + 2);
        if (!parsed.ok) throw new Error(`the server answered a bad packet: ${parsed.reason}`);
        const waiter = this.waiters.shift();
        if (waiter) waiter(parsed.value);
        else this.answers.push(parsed.value);
        end = this.buffer.indexOf('\r\n');
      }
    });
  }

  static open(port: number): Promise<LoggerLink> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        resolve(new LoggerLink(socket));
      });
      socket.once('error', reject);
    });
  }

  send(text: string): void {
    this.socket.write(text, 'latin1');
  }

  next(): Promise<Hj212Packet> {
    const ready = this.answers.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.socket.destroy();
  }
}

export class FakeHj212Platform {
  readonly received: Hj212Packet[] = [];
  private readonly server: net.Server;
  private readonly sockets = new Set<Socket>();
  private drops = 0;
  private listeners: (() => void)[] = [];
  port = 0;

  private constructor() {
    this.server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.setEncoding('latin1');
      const framer = new Hj212Framer();
      socket.on('data', (chunk: string) => {
        for (const r of framer.push(chunk)) {
          if (!r.ok) continue;
          const parsed = parseHj212Packet(r.packet);
          if (!parsed.ok) throw new Error(`the platform got a bad packet: ${parsed.reason}`);
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

  static async start(): Promise<FakeHj212Platform> {
    const platform = new FakeHj212Platform();
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
