/**
 * Device connections are read about a packet at a time: what a device sent while its messages
 * waited stays in its socket instead of all coming into the server at once (beyond saturation
 * the server held every device's unacknowledged messages, and devices waited for their PUBACKs
 * until they gave up).
 */
import { PassThrough } from 'node:stream';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readInSips } from '../src/mqtt/sip-reader.ts';

/**
 * Stands in for an Aedes client on a real stream: its parser cuts packets at newlines and hands
 * each to `handled` (counted in _parsingBatch, as Aedes does); a test finishes them with `done`.
 */
function client(syncDone: (packet: string) => boolean = () => false) {
  const conn = new PassThrough();
  const handled: string[] = [];
  let partial = '';
  const c = {
    conn,
    handled,
    _parsingBatch: 1,
    _paused: false,
    parses: 0,
    nested: 0,
    emit: (_event: 'error', error: Error) => {
      throw error;
    },
    _parser: {
      parse(data: Buffer) {
        c.parses += 1;
        if (c.parsing) c.nested += 1;
        c.parsing = true;
        const lines = (partial + data.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          c._parsingBatch += 1;
          handled.push(line);
          if (syncDone(line)) c._nextBatch();
        }
        c.parsing = false;
      },
    },
    parsing: false,
    // Aedes' own (lib/client.js), which readInSips replaces: everything buffered at once.
    _nextBatch: (): void => {
      if (c._paused) return;
      c._parsingBatch -= 1;
      if (c._parsingBatch > 0) return;
      c._parsingBatch = 0;
      const data: unknown = conn.read();
      if (Buffer.isBuffer(data)) c._parser.parse(data);
    },
    done() {
      c._nextBatch();
    },
  };
  conn.on('readable', c._nextBatch);
  readInSips(c);
  return c;
}

const packet = (n: number, size = 600) => `${String(n).padEnd(size - 1, '.')}\n`;

describe('reading device connections in sips', () => {
  it('takes about a packet at a time, the next when it is handled, the rest staying in the socket', async () => {
    const device = client();
    device.conn.write(Array.from({ length: 10 }, (_, i) => packet(i)).join(''));
    await turn();
    expect(device.handled.map((p) => p[0])).toEqual(['0']);
    // 6,000 bytes sent; sips of 256 taken until the first packet (600) was whole.
    expect(device.conn.readableLength).toBe(6000 - 768);
    // Each handled packet lets in the next: sips until it is whole, a packet at a time.
    let outstanding = 1;
    while (device.handled.length < 10) {
      const before = device.handled.length;
      for (; outstanding > 0; outstanding--) device.done();
      outstanding = device.handled.length - before;
      expect(outstanding).toBe(1);
    }
    expect(device.handled.map((p) => p[0])).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(device.conn.readableLength).toBe(0);
  });

  it('reads a packet larger than a sip whole, and what comes later when it comes', async () => {
    const device = client();
    device.conn.write(packet(1, 5000));
    await turn();
    expect(device.handled).toHaveLength(1);
    expect(device.handled[0]).toHaveLength(4999);
    device.done();
    device.conn.write(packet(2));
    await turn();
    expect(device.handled).toHaveLength(2);
  });

  it('reads nothing while the client is paused', async () => {
    const device = client();
    device.conn.write(packet(1) + packet(2));
    await turn();
    device._paused = true;
    device.done();
    expect(device.handled).toHaveLength(1);
    device._paused = false;
    device.done();
    expect(device.handled).toHaveLength(2);
  });

  it('goes on after a packet handled at once without parsing inside the parse', async () => {
    // Aedes finishes a DISCONNECT synchronously: its `done` comes while the parser still runs.
    const device = client((p) => p.startsWith('1'));
    device.conn.write(packet(1) + packet(2) + packet(3));
    await turn();
    // The third sip completed 1, done at once: the loop took sips on until 2 was whole.
    expect(device.handled.map((p) => p[0])).toEqual(['1', '2']);
    expect(device.parses).toBe(5);
    expect(device.nested).toBe(0);
  });
});
