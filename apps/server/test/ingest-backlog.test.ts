/**
 * Messages that arrive while ingestion is full wait as they came, in arrival order, and start
 * as ingestion makes room, a bounded number per turn of the event loop.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IngestBacklog } from '../src/mqtt/ingest-backlog.ts';

describe('the ingest backlog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts a message at once while there is room, and queues in order behind waiting ones', () => {
    let busy = false;
    const started: number[] = [];
    const backlog = new IngestBacklog<number>(
      () => busy,
      (n) => started.push(n),
    );
    expect(backlog.offer(1)).toBe(false);
    busy = true;
    expect(backlog.offer(2)).toBe(true);
    busy = false;
    // Room again, but 2 waits: 3 goes behind it.
    expect(backlog.offer(3)).toBe(true);
    expect(started).toEqual([1]);
    vi.advanceTimersByTime(10);
    expect(started).toEqual([1, 2, 3]);
    expect(backlog.size).toBe(0);
    expect(backlog.peak).toBe(2);
  });

  it('starts at most 100 a turn, and none while ingestion is full', () => {
    let busy = true;
    const started: number[] = [];
    const backlog = new IngestBacklog<number>(
      () => busy,
      (n) => started.push(n),
    );
    for (let i = 0; i < 250; i++) backlog.offer(i);
    vi.advanceTimersByTime(50);
    expect(started).toHaveLength(0);
    busy = false;
    vi.advanceTimersByTime(5);
    expect(started).toHaveLength(100);
    vi.advanceTimersByTime(10);
    expect(started).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  it('counts what waits against its bound, and is full from it on without refusing a message', () => {
    let busy = true;
    const started: string[] = [];
    const backlog = new IngestBacklog<string>(
      () => busy,
      (s) => started.push(s),
      { sizeOf: (s) => s.length, maxBytes: 10 },
    );
    backlog.offer('abcd');
    expect(backlog.full).toBe(false);
    backlog.offer('efghijk');
    expect(backlog.full).toBe(true);
    // Full says "do not read held connections again"; what comes is still taken.
    expect(backlog.offer('lm')).toBe(true);
    expect(backlog.bytes).toBe(13);
    busy = false;
    vi.advanceTimersByTime(10);
    expect(started).toEqual(['abcd', 'efghijk', 'lm']);
    expect(backlog.bytes).toBe(0);
    expect(backlog.full).toBe(false);
    expect(backlog.peakBytes).toBe(13);
  });
});
