/**
 * A device connection held back while ingestion is full is read again when its device has had
 * no answer for its keep-alive, so that its PINGREQ is answered and it is not dropped (on
 * PostgreSQL at load, devices held for longer than their keep-alive were dropped by thousands);
 * not sooner (that brought in all it had sent, and beyond saturation the server held every
 * device's unacknowledged messages), and not while the backlog holds its bound.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionHold, type HoldableClient } from '../src/mqtt/connection-hold.ts';

/** Stands in for an Aedes client: whether its connection is being read. */
function client(
  keepAliveS: number,
): HoldableClient & { reading: boolean; resumes: number; buffered: string[]; parsed: string[]; keptAlive: number } {
  const buffered: string[] = [];
  const parsed: string[] = [];
  const device = {
    reading: true,
    resumes: 0,
    keptAlive: 0,
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
    // Aedes drops a client when this timer fires (1.5 keep-alives after the last packet read).
    _keepaliveTimer: {
      refresh: () => {
        device.keptAlive += 1;
      },
    },
  };
  return device;
}

describe('holding device connections back', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
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

  it('reads a held connection again once its device has had no answer for its keep-alive', () => {
    const hold = new ConnectionHold();
    const device = client(60);
    hold.answered(device);
    hold.hold(device);
    vi.advanceTimersByTime(59_999);
    expect(device.reading).toBe(false);
    // The device's PINGREQ, sent a keep-alive after the last answer, behind what it published.
    device.buffered.push('PUBLISH PINGREQ');
    vi.advanceTimersByTime(15_001);
    expect(device.reading).toBe(true);
    expect(device.parsed).toEqual(['PUBLISH PINGREQ']);
    expect(hold.readAgain).toBe(1);
    // Its PUBLISH finds ingestion still full: held again; its first message is stored meanwhile.
    hold.answered(device);
    hold.hold(device);
    hold.release(device);
    expect(device.reading).toBe(false);
    hold.release(device);
    expect(device.reading).toBe(true);
    expect(hold.size).toBe(0);
  });

  it('does not read again a device answered meanwhile, nor one read again less than a quarter keep-alive ago', () => {
    // The latest in the random span: read again 1.25 keep-alives after the last answer.
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const hold = new ConnectionHold();
    const device = client(60);
    hold.answered(device);
    vi.advanceTimersByTime(50_000);
    // A PUBACK for an earlier message: its keep-alive clock starts again.
    hold.answered(device);
    hold.hold(device);
    vi.advanceTimersByTime(59_000);
    expect(device.reading).toBe(false);
    vi.advanceTimersByTime(16_000);
    expect(device.reading).toBe(true);
    // Read again, no PINGREQ yet (no answer recorded), held again by what it published: not before 15 s.
    hold.hold(device);
    vi.advanceTimersByTime(14_999);
    expect(device.reading).toBe(false);
    vi.advanceTimersByTime(1);
    expect(device.reading).toBe(true);
  });

  it('holds a connection without keep-alive until its messages are stored', () => {
    const hold = new ConnectionHold();
    const device = client(0);
    hold.hold(device);
    vi.advanceTimersByTime(3_600_000);
    expect(device.reading).toBe(false);
    hold.release(device);
    expect(device.reading).toBe(true);
  });

  it('does not read a held connection again while the backlog is full, but keeps it from being dropped', () => {
    let backlogFull = true;
    const hold = new ConnectionHold(() => !backlogFull);
    const device = client(60);
    hold.answered(device);
    hold.hold(device);
    device.buffered.push('PUBLISH');
    vi.advanceTimersByTime(75_000);
    // Its time came: not read (what it sent stays in its socket), its keep-alive timer restarted.
    expect(device.reading).toBe(false);
    expect(device.parsed).toEqual([]);
    expect(device.keptAlive).toBe(1);
    expect(hold.deferred).toBe(1);
    backlogFull = false;
    vi.advanceTimersByTime(15_000);
    expect(device.reading).toBe(true);
    expect(device.parsed).toEqual(['PUBLISH']);
    hold.release(device);
    expect(hold.size).toBe(0);
  });
});
