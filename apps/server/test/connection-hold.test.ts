/**
 * A device connection held back while ingestion is full is read again after half its
 * keep-alive, so that its pings are answered and it is not dropped (on PostgreSQL at load,
 * devices held for longer than their keep-alive were dropped by thousands).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionHold, type HoldableClient } from '../src/mqtt/connection-hold.ts';

/** Stands in for an Aedes client: whether its connection is being read. */
function client(
  keepAliveS: number,
): HoldableClient & { reading: boolean; resumes: number; buffered: string[]; parsed: string[] } {
  const buffered: string[] = [];
  const parsed: string[] = [];
  return {
    reading: true,
    resumes: 0,
    buffered,
    parsed,
    conn: { read: () => (buffered.length > 0 ? Buffer.from(buffered.splice(0).join('')) : null) },
    _parser: { parse: (data: Buffer) => parsed.push(data.toString()) },
    _keepaliveInterval: keepAliveS > 0 ? keepAliveS * 1500 + 1 : -1,
    pause() {
      this.reading = false;
    },
    resume() {
      this.reading = true;
      this.resumes += 1;
    },
  };
}

describe('holding device connections back', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads again when the last message that held it is stored', () => {
    const hold = new ConnectionHold();
    const device = client(60);
    hold.hold(device);
    hold.hold(device);
    hold.release(device);
    expect(device.reading).toBe(false);
    hold.release(device);
    expect(device.reading).toBe(true);
    expect(hold.size).toBe(0);
  });

  it('reads again within half the keep-alive while its messages still wait, and holds again on the next one', () => {
    const hold = new ConnectionHold();
    const device = client(60);
    hold.hold(device);
    device.buffered.push('PINGREQ');
    // Between a quarter and a half of it, at random (held connections are not all read at once).
    vi.advanceTimersByTime(14_999);
    expect(device.reading).toBe(false);
    vi.advanceTimersByTime(15_001);
    expect(device.reading).toBe(true);
    // What it sent meanwhile is read, though its first message still waits.
    expect(device.parsed).toEqual(['PINGREQ']);
    // The next message read finds ingestion still full: held again, with a new limit.
    hold.hold(device);
    expect(device.reading).toBe(false);
    vi.advanceTimersByTime(30_000);
    expect(device.reading).toBe(true);
    hold.release(device);
    hold.release(device);
    expect(hold.size).toBe(0);
    expect(device.resumes).toBe(2);
  });

  it('holds a connection without keep-alive at most 30 s, and one with a short keep-alive half of it', () => {
    expect(ConnectionHold.limitOf(client(0))).toBe(30_000);
    expect(ConnectionHold.limitOf(client(600))).toBe(30_000);
    expect(ConnectionHold.limitOf(client(10))).toBe(5000);
  });
});
