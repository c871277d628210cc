/** HJ 212 for the tests: a new logger device, and a logger's connection to the server's listener (the supervising platform is the simulator's). */
import net from 'node:net';
import { expect } from 'vitest';
import { HJ212_CN, buildHj212Packet, formatHj212Time, parseHj212Packet, type Hj212Packet } from '@sluice/shared/hj212';
import type { TestApp } from './harness.ts';
import { buildDevice } from './factories.ts';

/** A new device of the group made a logger with this MN and password (by its route, as `token`); its serial number. */
export async function newLoggerDevice(t: TestApp, groupId: number, token: string, mn: string, password: string): Promise<string> {
  const device = await buildDevice(t.app.ctx, { groupId });
  const res = await t.call({
    method: 'PUT',
    url: `/api/${String(groupId)}/${device.sn}/Hj212Logger`,
    token,
    payload: { Mn: mn, Password: password },
  });
  expect(res.statusCode, res.body).toBe(200);
  return device.sn;
}

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

  /**
   * Sends the logger's data of the period starting `at` (DataTime, in the stations' zone) as `cn`,
   * asking for an answer, and waits for the server's 9014 to it. The QN is the time `qnAt`.
   */
  async upload(logger: { mn: string; pw: string }, cn: string, at: number, cp: [string, string][][], qnAt = at): Promise<void> {
    const qn = formatHj212Time(qnAt, 480, true);
    this.send(
      buildHj212Packet({
        qn,
        st: '32',
        cn,
        pw: logger.pw,
        mn: logger.mn,
        flag: 5,
        cp: [[['DataTime', formatHj212Time(at)]], ...cp],
      }),
    );
    expect(await this.next()).toMatchObject({ cn: HJ212_CN.dataAnswer, qn });
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
